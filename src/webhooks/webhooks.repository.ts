import { olderThan, type CleanupSweep } from '../common/db/sweep.js';

/** The webhooks module owns `webhook_subscriptions`, `webhook_deliveries` and `webhook_delivery_attempts`. */

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
