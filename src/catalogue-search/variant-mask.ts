import { B_OPT, B_PRICE } from './dims.js';
import type { MissScratch } from './index-misses.js';
import type { IndexQuery } from './index-types.js';
import type { ReadonlyTenantIndex } from './tenant-index-view.js';

/** Failure mask of variant `v` given the product-level mask `pm`, or -1 when a base clause (available, on_sale, text) fails. */
export function variantMask(idx: ReadonlyTenantIndex, s: MissScratch, v: number, pm: number, q: IndexQuery): number {
  const { dimsV, hasOpt } = s;
  if (q.available && idx.vAvail[v] === 0) return -1;
  if (q.onSale && idx.vOnSale[v] === 0) return -1;
  if (q.text !== null && s.textMask[v] === 0) return -1;
  let m = pm;
  const want = s.want;
  for (const d of dimsV) {
    const c = idx.vDim[d][v];
    if (c < 0 || want[c] === 0) m |= 1 << d;
  }
  if (hasOpt) {
    let ok = false;
    for (let i = idx.vOptStart[v]; i < idx.vOptStart[v] + idx.vOptLen[v]; i++) if (want[idx.optPool[i]] !== 0) ok = true;
    if (!ok) m |= B_OPT;
  }
  if (q.priceMin !== null || q.priceMax !== null) {
    const price = q.prices[v];
    if ((q.priceMin !== null && price < q.priceMin) || (q.priceMax !== null && price > q.priceMax)) m |= B_PRICE;
  }
  return m;
}
