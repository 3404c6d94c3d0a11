import type { CleanupSweep } from '../common/db/sweep.js';

/** The cart module owns `carts` and `cart_items` (`CartService` alone writes them). */

/** Cleanup (maintenance job): anonymous carts untouched (cart and lines) for the configured age. */
export const CART_SWEEPS: CleanupSweep[] = [
  {
    name: 'anonymous_carts',
    table: 'carts',
    key: 'id',
    age: (c) => c.CLEANUP_ANONYMOUS_CARTS_AFTER_MS,
    select: `SELECT k.id FROM carts k
               WHERE k.customer_id IS NULL AND coalesce(k.updated_at, k.created_at) < now() - $2::interval
                 AND NOT EXISTS (SELECT 1 FROM cart_items i WHERE i.cart_id = k.id AND coalesce(i.updated_at, i.created_at) >= now() - $2::interval)`,
  },
];
