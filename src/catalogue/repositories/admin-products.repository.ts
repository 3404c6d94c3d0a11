import type { EntityManager } from 'typeorm';

/** Statements of the admin products API (`AdminProductsService`, issue 36: moved here as they were). */

export function variantIdsOfProduct(m: EntityManager, tenantId: string, productId: string): Promise<Array<{ id: string }>> {
  return m.query(`SELECT id FROM variants WHERE tenant_id = $1 AND product_id = $2`, [tenantId, productId]);
}

/** Keeps a product with order history as archived and unpublished (its order lines keep their snapshot). */
export async function archiveProduct(m: EntityManager, tenantId: string, id: string): Promise<void> {
  await m.query(`UPDATE products SET published = false, archived_at = now(), import_hash = NULL, updated_at = now() WHERE tenant_id = $1 AND id = $2`, [
    tenantId,
    id,
  ]);
}

export async function deleteProduct(m: EntityManager, tenantId: string, id: string): Promise<void> {
  await m.query(`DELETE FROM products WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
}

/** Keeps a variant with order history as archived and unpublished. */
export async function archiveVariant(m: EntityManager, tenantId: string, variantId: string): Promise<void> {
  await m.query(`UPDATE variants SET published = false, archived_at = now(), import_hash = NULL, updated_at = now() WHERE tenant_id = $1 AND id = $2`, [
    tenantId,
    variantId,
  ]);
}

export async function deleteVariant(m: EntityManager, tenantId: string, variantId: string): Promise<void> {
  await m.query(`DELETE FROM variants WHERE tenant_id = $1 AND id = $2`, [tenantId, variantId]);
}

export async function touchProduct(m: EntityManager, tenantId: string, productId: string): Promise<void> {
  await m.query(`UPDATE products SET updated_at = now() WHERE tenant_id = $1 AND id = $2`, [tenantId, productId]);
}

/** Locks a live product's row for the transaction; false for an unknown, foreign or archived one. */
export async function lockLiveProduct(m: EntityManager, tenantId: string, id: string): Promise<boolean> {
  const [row]: Array<{ id: string }> = await m.query(`SELECT id FROM products WHERE tenant_id = $1 AND id = $2 AND archived_at IS NULL FOR UPDATE`, [
    tenantId,
    id,
  ]);
  return !!row;
}

/** Serializes claims of one key of a table until the transaction ends, then the id of the row holding it (if any). */
export async function claimedKeyHolder(m: EntityManager, tenantId: string, table: 'products' | 'variants', key: string): Promise<string | undefined> {
  await m.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`${tenantId}/${table}/${key}`]);
  const [hit]: Array<{ id: string }> = await m.query(`SELECT id FROM ${table} WHERE tenant_id = $1 AND key = $2`, [tenantId, key]);
  return hit?.id;
}

export async function renameProductKey(m: EntityManager, tenantId: string, productId: string, key: string): Promise<void> {
  await m.query(`UPDATE products SET key = $3 WHERE tenant_id = $1 AND id = $2`, [tenantId, productId, key]);
}

export async function renameVariantKey(m: EntityManager, tenantId: string, variantId: string, key: string): Promise<void> {
  await m.query(`UPDATE variants SET key = $3 WHERE tenant_id = $1 AND id = $2`, [tenantId, variantId, key]);
}
