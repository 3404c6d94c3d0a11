import type { CleanupSweep } from '../common/db/sweep.js';

/** The events module owns `outbox_events` and `event_handler_jobs`. */

/**
 * An SQL condition, true while a queue of another module still waits on the outbox event whose id is the SQL
 * expression `eventId` (that module owns its queue table and writes the condition; see `outboxEventSweeps`).
 */
export type OutboxEventWaiter = (eventId: string) => string;

/**
 * Cleanup (maintenance job): an event goes once nothing waits on it: no pending handler job (they cascade with it),
 * and no pending work of the queues in `waiters` (the webhooks module's deliveries), each condition written by the
 * module owning that queue, so this statement names no table of another module.
 */
export function outboxEventSweeps(waiters: OutboxEventWaiter[]): CleanupSweep[] {
  return [
    {
      name: 'outbox_events',
      table: 'outbox_events',
      key: 'id',
      age: (c) => c.CLEANUP_EVENTS_AFTER_MS,
      select: `SELECT e.id FROM outbox_events e
               WHERE e.occurred_at < now() - $2::interval
                 ${waiters.map((waits) => `AND NOT (${waits('e.id')})`).join('\n                 ')}
                 AND NOT EXISTS (SELECT 1 FROM event_handler_jobs j WHERE j.event_id = e.id AND j.status = 'pending')`,
    },
  ];
}

/**
 * The outbox event of a queue row, as a join for a worker that claims the row and reads its event in one statement:
 * `JOIN outbox_events <alias> ON <alias>.id = <eventId>`; the alias then offers `payload`, `occurred_at` and
 * `trace_context`. A claim is a single `UPDATE … FROM (SELECT … FOR UPDATE SKIP LOCKED)` so that the lease and the
 * payload it delivers are taken together (a second read could find the event swept); the events module owns the
 * table, so it names the join here and the claiming module only places it.
 */
export function joinOutboxEvent(alias: string, eventId: string): string {
  return `JOIN outbox_events ${alias} ON ${alias}.id = ${eventId}`;
}
