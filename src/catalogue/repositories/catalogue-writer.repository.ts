import type { EntityManager } from 'typeorm';
import { FACET_DIMENSIONS } from '../entities/catalogue.entities.js';

/** Statements of the catalogue writer (import/catalogue-writer.ts, issue 36: moved here as they were). */

/** The shop's ids by key of everything a product document names (facet values, options by field, ...). */
export async function loadLookups(m: EntityManager, tenantId: string) {
  const map = async (sql: string) =>
    new Map<string, string>(((await m.query(sql, [tenantId])) as Array<{ key: string; id: string }>).map((r) => [r.key, r.id]));
  const facets: Record<string, Map<string, string>> = {};
  for (const dim of FACET_DIMENSIONS) facets[dim] = await map(`SELECT key, id FROM facet_values WHERE tenant_id = $1 AND dimension = '${dim}'`);
  const optionRows: Array<{ key: string; id: string; field_key: string }> = await m.query(
    `SELECT o.key, o.id, f.key AS field_key FROM custom_field_options o JOIN custom_fields f ON f.id = o.field_id WHERE o.tenant_id = $1`,
    [tenantId],
  );
  const options = new Map<string, Map<string, string>>();
  for (const o of optionRows) {
    if (!options.has(o.field_key)) options.set(o.field_key, new Map());
    options.get(o.field_key)!.set(o.key, o.id);
  }
  return {
    manufacturers: await map(`SELECT key, id FROM manufacturers WHERE tenant_id = $1`),
    categories: await map(`SELECT key, id FROM categories WHERE tenant_id = $1`),
    flags: await map(`SELECT key, id FROM flags WHERE tenant_id = $1`),
    locations: await map(`SELECT key, id FROM stock_locations WHERE tenant_id = $1`),
    facets,
    options,
  };
}

/** Sets the `created_at` of products (by key) whose document gives one. */
export async function setProductCreatedAt(m: EntityManager, tenantId: string, explicitDates: unknown[][]): Promise<void> {
  const params: unknown[] = [tenantId];
  const values = explicitDates.map((d) => `($${params.push(d[0])}::text, $${params.push(d[1])}::timestamptz)`);
  await m.query(
    `UPDATE products p SET created_at = x.created_at FROM (VALUES ${values.join(',')}) AS x(key, created_at) WHERE p.tenant_id = $1 AND p.key = x.key AND p.created_at <> x.created_at`,
    params,
  );
}

/** Deletes the images and ratings of these products (the writer inserts them again). */
export async function deleteImagesAndRatings(m: EntityManager, tenantId: string, productIds: string[]): Promise<void> {
  await m.query(`DELETE FROM product_images WHERE tenant_id = $1 AND product_id = ANY($2::uuid[])`, [tenantId, productIds]);
  await m.query(`DELETE FROM product_ratings WHERE tenant_id = $1 AND product_id = ANY($2::uuid[])`, [tenantId, productIds]);
}

/** On-hand per (variant, location) pair of these variants (numeric as text). */
export function stockByVariantAndLocation(
  m: EntityManager,
  tenantId: string,
  variantIds: string[],
): Promise<Array<{ variant_id: string; location_id: string; on_hand: string }>> {
  return m.query(
    `SELECT variant_id, location_id, sum(delta) AS on_hand FROM stock_movements WHERE tenant_id = $1 AND variant_id = ANY($2::uuid[]) GROUP BY variant_id, location_id`,
    [tenantId, variantIds],
  );
}
