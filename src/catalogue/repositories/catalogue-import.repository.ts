import type { EntityManager } from 'typeorm';

/** Statements of the catalogue import (`CatalogueImportService`, issue 36: moved here as they were). */

/** The shop's category tree as stored (every category, its parent and root-first path of ids). */
export function categoryTreeRows(m: EntityManager, tenantId: string): Promise<Array<{ id: string; key: string; parent_id: string | null; path: string[] }>> {
  return m.query(`SELECT id, key, parent_id, path FROM categories WHERE tenant_id = $1`, [tenantId]);
}

/** Sets `[id, parent id, path]` of categories, one statement for the chunk. */
export async function updateCategoryLinks(m: EntityManager, tenantId: string, chunk: unknown[][]): Promise<void> {
  const params: unknown[] = [tenantId];
  const values = chunk.map((c) => `($${params.push(c[0])}::uuid, $${params.push(c[1])}::uuid, $${params.push(c[2])}::uuid[])`);
  await m.query(
    `UPDATE categories c SET parent_id = x.parent, path = x.path, updated_at = now() FROM (VALUES ${values.join(',')}) AS x(id, parent, path) WHERE c.id = x.id AND c.tenant_id = $1`,
    params,
  );
}

/** A manual collection's picks in their order. */
export function collectionPickIds(m: EntityManager, tenantId: string, collectionId: string): Promise<Array<{ product_id: string }>> {
  return m.query(`SELECT product_id FROM collection_products WHERE tenant_id = $1 AND collection_id = $2 ORDER BY position, product_id`, [
    tenantId,
    collectionId,
  ]);
}

export async function deleteCollectionPicks(m: EntityManager, tenantId: string, collectionId: string): Promise<void> {
  await m.query(`DELETE FROM collection_products WHERE tenant_id = $1 AND collection_id = $2`, [tenantId, collectionId]);
}
