import type { VariantStock } from './catalogue-search.js';
import type { ReadonlyTenantIndex } from './tenant-index-view.js';

/** The ids among `productIds` of products visible in the index (alive). */
export function visibleProducts(idx: ReadonlyTenantIndex, productIds: string[]): Set<string> {
  return new Set(
    productIds.filter((id) => {
      const s = idx.pIndex.get(id);
      return s !== undefined && idx.pAlive[s] === 1;
    }),
  );
}

/** Availability and on-hand of the variants among `variantIds` the index holds. */
export function variantStock(idx: ReadonlyTenantIndex, variantIds: string[]): Map<string, VariantStock> {
  const out = new Map<string, VariantStock>();
  for (const id of variantIds) {
    const v = idx.vIndex.get(id);
    if (v !== undefined) out.set(id, { available: idx.vAvail[v] === 1, onHand: idx.vOnHand[v] });
  }
  return out;
}

/** The WAL position a replica must have replayed to serve these products' rows as the index knows them. */
export function changeLsnOf(idx: ReadonlyTenantIndex, productIds: string[]): number {
  let lsn = idx.buildLsn;
  for (const id of productIds) lsn = Math.max(lsn, idx.lsnOf(id));
  return lsn;
}
