import type { CatalogueIndexSource } from './catalogue-index.source.js';
import type { IndexRow } from './index-row.js';
import { TenantIndex } from './tenant-index.js';
import type { TenantIndexWriter } from './tenant-index-view.js';

/**
 * Builds a tenant's index from the source's one snapshot (`CatalogueIndexSource.readAll`): the snapshot's WAL position
 * becomes the index's `buildLsn`.
 */
export async function buildIndex(source: CatalogueIndexSource, tenantId: string): Promise<TenantIndexWriter> {
  const idx = new TenantIndex(tenantId);
  await source.readAll(tenantId, {
    begin(version, lsn) {
      idx.startBuild(version, lsn);
    },
    product(productId, rows) {
      idx.putProduct(productId, rows, idx.buildLsn);
    },
  });
  return idx;
}

/** Re-reads products from the primary and replaces them in the index (absent rows: no longer visible), with the statement's WAL position. */
export async function reloadProducts(source: CatalogueIndexSource, idx: TenantIndexWriter, productIds: string[]): Promise<void> {
  if (productIds.length === 0) return;
  const { rows, lsn } = await source.readProducts(idx.tenantId, productIds);
  const byProduct = new Map<string, IndexRow[]>(productIds.map((id) => [id, []]));
  for (const r of rows) byProduct.get(r.product_id)?.push(r);
  for (const [id, list] of byProduct) idx.putProduct(id, list, lsn);
}
