import type { CleanupSweep } from '../common/db/sweep.js';

/** The events module owns `outbox_events` and `event_handler_jobs`. */

/**
 * Cleanup (maintenance job): an event goes once nothing waits on it: no pending webhook delivery, no pending
 * handler job (they cascade with it). Reading `webhook_deliveries.status` here is the one cross-module read.
 */
export const EVENT_SWEEPS: CleanupSweep[] = [
  {
    name: 'outbox_events',
    table: 'outbox_events',
    key: 'id',
    age: (c) => c.CLEANUP_EVENTS_AFTER_MS,
    select: `SELECT e.id FROM outbox_events e
               WHERE e.occurred_at < now() - $2::interval
                 AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
                 AND NOT EXISTS (SELECT 1 FROM event_handler_jobs j WHERE j.event_id = e.id AND j.status = 'pending')`,
  },
];
