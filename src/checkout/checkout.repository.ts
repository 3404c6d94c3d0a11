import type { CleanupSweep } from '../common/db/sweep.js';

/**
 * The checkout module owns `checkouts`, `checkout_lines`, `orders`, `order_lines`, `order_refunds`,
 * `order_fulfillments`, `order_transactions`, `order_counters` and `idempotency_keys`: no other module writes them.
 */

/** Cleanup (maintenance job): idempotency keys past their replay window. */
export const CHECKOUT_SWEEPS: CleanupSweep[] = [
  {
    name: 'idempotency_keys',
    table: 'idempotency_keys',
    key: 'ctid',
    age: (c) => c.CLEANUP_IDEMPOTENCY_KEYS_AFTER_MS,
    select: `SELECT ctid FROM idempotency_keys WHERE created_at < now() - $2::interval`,
  },
];
