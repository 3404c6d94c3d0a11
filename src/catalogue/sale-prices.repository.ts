import type { EntityManager } from 'typeorm';
import type { CatalogueSalePrice } from '../extensions/index.js';

/**
 * SQL of catalogue sale prices and the price history (issue 32): `variant_sale_prices` (what a catalogue promotion
 * makes a variant cost now) and `variant_price_history` (every charged price, for the EU Omnibus lowest prior price).
 */

/** The charged gross of variant `v` with its sale row `sp` joined (a sale price only counts below the regular one). */
export const chargedGrossSql = (v: string, sp: string) => `CASE WHEN ${sp}.gross < ${v}.gross THEN ${sp}.gross ELSE ${v}.gross END`;

/** The join of a variant's sale row (alias `sp`). */
export const saleJoinSql = (v: string, sp = 'sp') => `LEFT JOIN variant_sale_prices ${sp} ON ${sp}.tenant_id = ${v}.tenant_id AND ${sp}.variant_id = ${v}.id`;

/** Replaces the sale prices of these products' variants (every product's when null). */
export async function replaceSalePrices(m: EntityManager, tenantId: string, productIds: string[] | null, prices: readonly CatalogueSalePrice[]): Promise<void> {
  const params: unknown[] = [tenantId];
  if (productIds) params.push(productIds);
  await m.query(`DELETE FROM variant_sale_prices WHERE tenant_id = $1 ${productIds ? 'AND product_id IN (SELECT unnest($2::uuid[]))' : ''}`, params);
  if (prices.length === 0) return;
  await m.query(
    `INSERT INTO variant_sale_prices (tenant_id, variant_id, product_id, gross, promotion_ids)
     SELECT $1, x.variant_id, v.product_id, x.gross, coalesce((SELECT array_agg(s::uuid) FROM jsonb_array_elements_text(x.ids) s), '{}')
       FROM jsonb_to_recordset($2::jsonb) AS x(variant_id uuid, gross numeric, ids jsonb)
       JOIN variants v ON v.tenant_id = $1 AND v.id = x.variant_id
     ON CONFLICT (tenant_id, variant_id) DO UPDATE SET gross = excluded.gross, promotion_ids = excluded.promotion_ids, product_id = excluded.product_id`,
    [tenantId, JSON.stringify(prices.map((p) => ({ variant_id: p.variantId, gross: p.gross, ids: p.sourceIds })))],
  );
}

/** The stored sale prices of a shop (of these products; every one when null): variant id → `gross` as stored (4 decimals) and its product. */
export async function storedSalePrices(
  m: EntityManager,
  tenantId: string,
  productIds: string[] | null,
): Promise<Map<string, { gross: string; productId: string }>> {
  const rows: Array<{ variant_id: string; product_id: string; gross: string }> = await m.query(
    `SELECT variant_id, product_id, gross::text AS gross FROM variant_sale_prices
      WHERE tenant_id = $1 ${productIds ? 'AND product_id IN (SELECT unnest($2::uuid[]))' : ''}`,
    productIds ? [tenantId, productIds] : [tenantId],
  );
  return new Map(rows.map((r) => [r.variant_id, { gross: r.gross, productId: r.product_id }]));
}

/** The products with a stored sale price this promotion took part in (what a reprice after its change must look at). */
export async function productsPricedByPromotion(m: EntityManager, tenantId: string, promotionId: string): Promise<string[]> {
  const rows: Array<{ product_id: string }> = await m.query(
    `SELECT DISTINCT product_id FROM variant_sale_prices WHERE tenant_id = $1 AND promotion_ids @> ARRAY[$2::uuid]`,
    [tenantId, promotionId],
  );
  return rows.map((r) => r.product_id);
}

/**
 * Records the charged price of these products' variants (every product's when null) where it differs from the open
 * history row: the open row is closed now and a new one opened now (in the caller's transaction, so at its time).
 * The open row is looked up per variant: LATERAL with LIMIT 1, which the planner cannot flatten into a join, is an
 * index probe of `variant_price_history_open_key`. As a plain join, during a bulk import (no statistics yet: the
 * table "has 3 rows") the planner materialised every open row of the shop and scanned it once per variant: 1 to 3
 * minutes per batch of 1,000 products at 100,000 products.
 */
export async function recordPriceHistory(m: EntityManager, tenantId: string, productIds: string[] | null): Promise<void> {
  const params: unknown[] = [tenantId];
  if (productIds) params.push(productIds);
  const scope = productIds ? 'AND v.product_id IN (SELECT unnest($2::uuid[]))' : '';
  const changed = `SELECT v.id, ${chargedGrossSql('v', 'sp')} AS charged, v.gross AS regular
      FROM variants v ${saleJoinSql('v')}
      LEFT JOIN LATERAL (SELECT h.gross, h.regular_gross FROM variant_price_history h
                          WHERE h.tenant_id = v.tenant_id AND h.variant_id = v.id AND h.valid_to IS NULL LIMIT 1) h ON true
     WHERE v.tenant_id = $1 ${scope}
       AND (h.gross IS DISTINCT FROM ${chargedGrossSql('v', 'sp')} OR h.regular_gross IS DISTINCT FROM v.gross)`;
  const rows: Array<{ id: string; charged: string; regular: string }> = await m.query(changed, params);
  if (rows.length > 0) await openPriceRows(m, tenantId, rows);
  // the open rows' lowest prior price, where it changed (a new price, or history written by hand)
  await m.query(
    `UPDATE variant_price_history cur SET lowest_prior = ${lowestPriorOfSql('cur')}
      WHERE cur.tenant_id = $1 AND cur.valid_to IS NULL
        ${productIds ? 'AND cur.variant_id IN (SELECT v.id FROM variants v WHERE v.tenant_id = $1 AND v.product_id IN (SELECT unnest($2::uuid[])))' : ''}
        AND cur.lowest_prior IS DISTINCT FROM ${lowestPriorOfSql('cur')}`,
    params,
  );
}

/** Closes the open history rows of these variants now and opens one at their new prices. */
async function openPriceRows(m: EntityManager, tenantId: string, rows: Array<{ id: string; charged: string; regular: string }>): Promise<void> {
  const ids = rows.map((r) => r.id);
  await m.query(`UPDATE variant_price_history SET valid_to = now() WHERE tenant_id = $1 AND variant_id = ANY($2::uuid[]) AND valid_to IS NULL`, [
    tenantId,
    ids,
  ]);
  await m.query(
    `INSERT INTO variant_price_history (tenant_id, variant_id, gross, regular_gross, valid_from)
     SELECT $1, x.id, x.charged, x.regular, now() FROM jsonb_to_recordset($2::jsonb) AS x(id uuid, charged numeric, regular numeric)`,
    [tenantId, JSON.stringify(rows)],
  );
}

/**
 * The EU Omnibus prior price of the open history row `cur` (SQL expression, gross, default currency): the lowest
 * charged price during the 30 days before its current price took effect (`cur.valid_from`); without any price in
 * that window (a new variant), the current price itself. Kept in `cur.lowest_prior` by `recordPriceHistory`.
 */
const lowestPriorOfSql = (cur: string) => `(SELECT coalesce(min(h.gross), ${cur}.gross) FROM variant_price_history h
   WHERE h.tenant_id = ${cur}.tenant_id AND h.variant_id = ${cur}.variant_id AND h.id <> ${cur}.id
     AND h.valid_from < ${cur}.valid_from AND coalesce(h.valid_to, ${cur}.valid_from) > ${cur}.valid_from - interval '30 days')`;

/** The lowest prior price of variant `v` as kept with its open history row (one index look-up). */
export const lowestPrior30DaysSql = (v: string) =>
  `(SELECT ph.lowest_prior FROM variant_price_history ph WHERE ph.tenant_id = ${v}.tenant_id AND ph.variant_id = ${v}.id AND ph.valid_to IS NULL)`;

/**
 * A variant's prices as the storefront shows them (`gross`, `net`, `compare_at_gross`, `lowest_prior`): the charged
 * price (a catalogue sale price below the regular one, else the regular price; net scaled with it), `compare_at_gross`
 * the regular price while on a catalogue sale (else the imported one), and the Omnibus lowest prior price while on
 * sale either way (else null). `sp`: the sale row joined by `saleJoinSql`.
 */
export const storefrontPriceColumnsSql = (v: string, sp: string) => `${chargedGrossSql(v, sp)} AS gross,
   CASE WHEN ${sp}.gross < ${v}.gross AND ${v}.gross > 0 THEN round(${v}.net * ${sp}.gross / ${v}.gross, 4) ELSE ${v}.net END AS net,
   CASE WHEN ${sp}.gross < ${v}.gross THEN ${v}.gross ELSE ${v}.compare_at_gross END AS compare_at_gross,
   CASE WHEN ${sp}.gross < ${v}.gross OR ${v}.compare_at_gross > ${v}.gross THEN ${lowestPrior30DaysSql(v)} END AS lowest_prior`;
