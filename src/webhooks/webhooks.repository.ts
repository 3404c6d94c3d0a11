import { olderThan, type CleanupSweep } from '../common/db/sweep.js';
import type { OutboxEventWaiter } from '../events/index.js';

/** The webhooks module owns `webhook_subscriptions`, `webhook_deliveries` and `webhook_delivery_attempts`. */

/** An outbox event is kept while a delivery of it is pending (the events module's sweep asks). */
export const webhookDeliveryPending: OutboxEventWaiter = (eventId) =>
  `EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = ${eventId} AND d.status = 'pending')`;

/** Cleanup (maintenance job): old delivery attempts. */
export const WEBHOOK_SWEEPS: CleanupSweep[] = [
  {
    name: 'webhook_delivery_attempts',
    table: 'webhook_delivery_attempts',
    key: 'id',
    age: (c) => c.CLEANUP_EVENTS_AFTER_MS,
    select: olderThan('webhook_delivery_attempts', 'created_at'),
  },
];
