import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, type QueryRunner } from 'typeorm';
import type { CleanupSweep } from '../common/db/sweep.js';
import type { DomainEventMap } from './event-map.js';
import type { EventTopic } from './event-topics.js';

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

/** A handler job claimed with its event (`EventsRepository.claimJob`). */
export interface ClaimedJob {
  id: string;
  handler: string;
  attempts: number;
  created_at: Date;
  event_id: string;
  tenant_id: string;
  topic: EventTopic;
  /** As emitted for `topic` (the emitter is typed by DomainEventMap). */
  payload: DomainEventMap[EventTopic];
  occurred_at: Date;
  trace_context: Record<string, string> | null;
}

/** A job's state after a failed run: retried later (`pending`) or given up (`failed`). */
export interface JobFailure {
  status: 'pending' | 'failed';
  attempts: number;
  error: string;
  nextAttemptAt: Date;
}

/** The statements of `DomainEvents` and `EventHandlerWorker`: the outbox and the handler jobs (issue 36). */
@Injectable()
export class EventsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Runs `work` in one new transaction. */
  transaction<R>(work: (m: EntityManager) => Promise<R>): Promise<R> {
    return this.dataSource.transaction(work);
  }

  /**
   * Writes a transaction's events, their handler jobs and every sink's work with the one statement `outboxStatement`
   * built, on the transaction's runner just before it commits; each event's id and time.
   */
  async writeOutbox(runner: QueryRunner, sql: string, parameters: unknown[]): Promise<Array<{ id: string; occurred_at: Date; sink_rows?: number }>> {
    return (await runner.query(sql, parameters)) as Array<{ id: string; occurred_at: Date; sink_rows?: number }>;
  }

  /** Locks the next due pending job of these handlers with its event (skipping jobs other instances hold), or undefined. */
  async claimJob(m: EntityManager, handlers: string[]): Promise<ClaimedJob | undefined> {
    const rows: ClaimedJob[] = await m.query(
      `SELECT j.id, j.handler, j.attempts, j.created_at, e.id AS event_id, e.tenant_id, e.topic, e.payload, e.occurred_at, e.trace_context
         FROM event_handler_jobs j JOIN outbox_events e ON e.id = j.event_id
        WHERE j.status = 'pending' AND j.next_attempt_at <= clock_timestamp() AND j.handler = ANY($1::text[])
        ORDER BY j.next_attempt_at, j.id
        LIMIT 1
        FOR UPDATE OF j SKIP LOCKED`,
      [handlers],
    );
    return rows[0];
  }

  /** The savepoint a handler runs after (its writes are undone alone when it fails). */
  async savepoint(m: EntityManager): Promise<void> {
    await m.query('SAVEPOINT domain_event_handler');
  }

  async releaseSavepoint(m: EntityManager): Promise<void> {
    await m.query('RELEASE SAVEPOINT domain_event_handler');
  }

  async rollbackToSavepoint(m: EntityManager): Promise<void> {
    await m.query('ROLLBACK TO SAVEPOINT domain_event_handler');
  }

  /** The job ran: done, one attempt more, no error. */
  async markJobDone(m: EntityManager, jobId: string): Promise<void> {
    await m.query(`UPDATE event_handler_jobs SET status = 'done', attempts = attempts + 1, last_error = NULL, updated_at = clock_timestamp() WHERE id = $1`, [
      jobId,
    ]);
  }

  /** The job failed: its new status, attempts, error and next attempt. */
  async markJobFailed(m: EntityManager, jobId: string, f: JobFailure): Promise<void> {
    await m.query(
      `UPDATE event_handler_jobs SET status = $2, attempts = $3, last_error = $4, next_attempt_at = $5, updated_at = clock_timestamp() WHERE id = $1`,
      [jobId, f.status, f.attempts, f.error, f.nextAttemptAt],
    );
  }
}
