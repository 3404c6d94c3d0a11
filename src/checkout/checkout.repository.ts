import type { EntityManager } from 'typeorm';
import type { CleanupSweep } from '../common/db/sweep.js';
import { OrderHistory } from '../extensions/index.js';

/**
 * The checkout module owns `checkouts`, `checkout_lines`, `orders`, `order_lines`, `order_refunds`,
 * `order_fulfillments`, `order_transactions`, `order_counters` and `idempotency_keys`: no other module writes them.
 */

/** The checkout's `OrderHistory`: whether order lines name these products or variants (the catalogue's deletes). */
export class OrderLinesHistory extends OrderHistory {
  async anyOrdered(m: EntityManager, tenantId: string, items: { productIds: string[]; variantIds: string[] }): Promise<boolean> {
    const [row]: Array<{ ordered: boolean }> = await m.query(
      `SELECT EXISTS (SELECT 1 FROM order_lines WHERE tenant_id = $1 AND (product_id = ANY($2::uuid[]) OR variant_id = ANY($3::uuid[]))) AS ordered`,
      [tenantId, items.productIds, items.variantIds],
    );
    return row.ordered;
  }
}

/**
 * Quantities per variant the buyer (by email, any case) ordered since the start of this calendar year (UTC),
 * cancelled orders left out: what the destination rules' yearly litres count.
 */
export function orderedThisYearByEmail(m: EntityManager, tenantId: string, email: string): Promise<Array<{ variant_id: string; quantity: string }>> {
  return m.query(
    `SELECT l.variant_id, sum(l.quantity) AS quantity FROM orders o JOIN order_lines l ON l.tenant_id = o.tenant_id AND l.order_id = o.id
     WHERE o.tenant_id = $1 AND lower(o.email) = lower($2) AND o.placed_at >= date_trunc('year', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
       AND o.cancelled_at IS NULL AND l.variant_id IS NOT NULL
     GROUP BY l.variant_id`,
    [tenantId, email],
  );
}

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

/** What a taxed line was charged beyond its rate (issue 31): its tax category, zone and excise (decimal). */
export interface OrderLineTax {
  category: string | null;
  zone: string | null;
  excise: string;
}

/** Records the tax category, zone and excise of an order's lines, by position (a shop taxing by destination). */
export async function setOrderLineTaxes(m: EntityManager, tenantId: string, orderId: string, taxes: OrderLineTax[]): Promise<void> {
  await m.query(
    `UPDATE order_lines ol SET tax_category = x.category, tax_zone = x.zone, excise_amount = x.excise
       FROM unnest($3::int[], $4::text[], $5::text[], $6::numeric[]) AS x(position, category, zone, excise)
      WHERE ol.tenant_id = $1 AND ol.order_id = $2 AND ol.position = x.position`,
    [tenantId, orderId, taxes.map((_, i) => i), taxes.map((t) => t.category), taxes.map((t) => t.zone), taxes.map((t) => t.excise)],
  );
}
