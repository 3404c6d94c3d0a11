import type { EntityManager, QueryRunner } from 'typeorm';

/**
 * The statements of the catalogue export (`CatalogueExportService`, issue 36: moved here as they were): its
 * read-only snapshot on one connection, the catalogue's own members of the document head, the product batches and
 * the manual collections' picks.
 */

/** Opens the export's snapshot: read only, repeatable read, each statement bounded by `stallMs`. */
export async function beginExportSnapshot(runner: QueryRunner, stallMs: number): Promise<void> {
  await runner.query('START TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
  await runner.query(`SET LOCAL statement_timeout = ${Math.trunc(stallMs)}`);
}

export async function commitExportSnapshot(runner: QueryRunner): Promise<void> {
  await runner.query('COMMIT');
}

export async function rollbackExportSnapshot(runner: QueryRunner): Promise<void> {
  try {
    await runner.query('ROLLBACK');
  } catch {
    // the connection is released (and discarded by the pool when broken) right after
  }
}

function rows<T>(m: EntityManager, tenantId: string, sql: string): Promise<T[]> {
  return m.query(sql, [tenantId]);
}

export function exportFacetValues(m: EntityManager, tenantId: string) {
  return rows<{ dimension: string; key: string; name: unknown; position: number }>(
    m,
    tenantId,
    `SELECT dimension, key, name, position FROM facet_values WHERE tenant_id = $1 ORDER BY dimension, position, key`,
  );
}

export function exportCustomFields(m: EntityManager, tenantId: string) {
  return rows<{ id: string; key: string; label: unknown; type: string | null }>(
    m,
    tenantId,
    `SELECT id, key, label, type FROM custom_fields WHERE tenant_id = $1 ORDER BY position, key`,
  );
}

export function exportCustomFieldOptions(m: EntityManager, tenantId: string) {
  return rows<{ field_id: string; key: string; name: unknown; value: string | null }>(
    m,
    tenantId,
    `SELECT field_id, key, name, value FROM custom_field_options WHERE tenant_id = $1 ORDER BY position, key`,
  );
}

export function exportStockLocations(m: EntityManager, tenantId: string) {
  return rows<{ key: string; name: unknown }>(m, tenantId, `SELECT key, name FROM stock_locations WHERE tenant_id = $1 ORDER BY key`);
}

export function exportManufacturers(m: EntityManager, tenantId: string) {
  return rows<{ key: string; name: string | null; logo_url: string | null }>(
    m,
    tenantId,
    `SELECT key, name, logo_url FROM manufacturers WHERE tenant_id = $1 ORDER BY key`,
  );
}

export function exportCategories(m: EntityManager, tenantId: string) {
  return rows<{ key: string; name: unknown; parent: string | null; position: number }>(
    m,
    tenantId,
    `SELECT c.key, c.name, p.key AS parent, c.position FROM categories c LEFT JOIN categories p ON p.tenant_id = c.tenant_id AND p.id = c.parent_id
         WHERE c.tenant_id = $1 ORDER BY array_length(c.path, 1), c.position, c.key`,
  );
}

export function exportFlags(m: EntityManager, tenantId: string) {
  return rows<{ key: string; name: unknown; color: string | null }>(m, tenantId, `SELECT key, name, color FROM flags WHERE tenant_id = $1 ORDER BY key`);
}

export function exportPaymentTypes(m: EntityManager, tenantId: string) {
  return rows<{ key: string; name: unknown; kind: string; image_url: string | null }>(
    m,
    tenantId,
    `SELECT key, name, kind, image_url FROM payment_types WHERE tenant_id = $1 ORDER BY key`,
  );
}

/** The next `batch` live products, oldest first, after `(created_at, id)`. */
export function liveProductBatch(
  m: EntityManager,
  tenantId: string,
  after: [string, string] | null,
  batch: number,
): Promise<Array<{ id: string; created_at: Date }>> {
  return m.query(
    `SELECT id, created_at FROM products WHERE tenant_id = $1 AND archived_at IS NULL ${after ? 'AND (created_at, id) > ($2::timestamptz, $3::uuid)' : ''}
         ORDER BY created_at, id LIMIT ${batch}`,
    after ? [tenantId, ...after] : [tenantId],
  );
}

/** The live products (by key) each manual collection picks, in its order. */
export function collectionPicks(m: EntityManager, tenantId: string): Promise<Array<{ collection_id: string; products: string[] }>> {
  return m.query(
    `SELECT cp.collection_id, array_agg(p.key ORDER BY cp.position, p.key) AS products
         FROM collection_products cp JOIN products p ON p.tenant_id = cp.tenant_id AND p.id = cp.product_id
        WHERE cp.tenant_id = $1 AND p.archived_at IS NULL GROUP BY cp.collection_id`,
    [tenantId],
  );
}
