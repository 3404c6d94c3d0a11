import type { EntityManager } from 'typeorm';

/** The stock ledger's statements of `StockService` (`stock_movements`; the variant row lock that serializes movements). */

/** Sum of the movements per variant (numeric as text), variants without movements absent. */
export async function onHandByVariant(m: EntityManager, tenantId: string, variantIds: string[]): Promise<Array<{ variant_id: string; on_hand: string }>> {
  return m.query(`SELECT variant_id, sum(delta) AS on_hand FROM stock_movements WHERE tenant_id = $1 AND variant_id = ANY($2::uuid[]) GROUP BY variant_id`, [
    tenantId,
    variantIds,
  ]);
}

/** Sum of the movements per stocked (variant, location) pair, ordered by variant and location; `locationIds` narrows. */
export async function stockLevels(
  m: EntityManager,
  tenantId: string,
  variantIds: string[],
  locationIds?: string[],
): Promise<Array<{ variant_id: string; location_id: string; on_hand: string }>> {
  const params: unknown[] = [tenantId, variantIds];
  let where = '';
  if (locationIds) {
    params.push(locationIds);
    where = 'AND location_id = ANY($3::uuid[])';
  }
  return m.query(
    `SELECT variant_id, location_id, sum(delta) AS on_hand FROM stock_movements
       WHERE tenant_id = $1 AND variant_id = ANY($2::uuid[]) ${where} GROUP BY variant_id, location_id ORDER BY variant_id, location_id`,
    params,
  );
}

/** Locks the variant's row for the transaction (concurrent movements of one variant serialize). */
export async function lockVariantForMovement(m: EntityManager, tenantId: string, variantId: string): Promise<void> {
  await m.query(`SELECT 1 FROM variants WHERE id = $1 AND tenant_id = $2 FOR UPDATE`, [variantId, tenantId]);
}

/** Appends one movement. */
export async function insertStockMovement(
  m: EntityManager,
  tenantId: string,
  variantId: string,
  locationId: string,
  delta: number,
  reason: string,
): Promise<void> {
  await m.query(`INSERT INTO stock_movements (tenant_id, variant_id, location_id, delta, reason) VALUES ($1, $2, $3, $4, $5)`, [
    tenantId,
    variantId,
    locationId,
    delta,
    reason,
  ]);
}
