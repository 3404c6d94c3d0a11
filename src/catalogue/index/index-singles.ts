import { DIM } from './dims.js';
import type { IndexQuery } from './index-types.js';
import type { Walk } from './product-sets.js';
import type { TenantIndex } from './tenant-index.js';

/**
 * Facet counts of the single-variant products that fail exactly one filtered dimension (`Walk.singles`): each counts
 * its values of that dimension (CONTRACT 7's self-excluding rule) when its one variant passes the base clauses
 * (available, on sale, text) and the price bounds. No mask over every dimension is needed for them: at product
 * level their variant passes every other dimension. `textMask` is the search's scratch mask of the text match.
 */
export function countSingles(idx: TenantIndex, w: Walk, q: IndexQuery, textMask: Uint8Array, counts: Int32Array, stamp: Int32Array): void {
  const { singles, singleDims, ns } = w;
  const { pVarStart, varPool, vAvail, vOnSale, pMaker, pCatStart, pCatLen, catPool, vOptStart, vOptLen, optPool, vDim } = idx;
  const priced = q.priceMin !== null || q.priceMax !== null;
  const lo = q.priceMin ?? -Infinity;
  const hi = q.priceMax ?? Infinity;
  const { available, onSale, prices } = q;
  const text = q.text !== null;
  for (let i = 0; i < ns; i++) {
    const p = singles[i];
    const v = varPool[pVarStart[p]];
    if (available && vAvail[v] === 0) continue;
    if (onSale && vOnSale[v] === 0) continue;
    if (text && textMask[v] === 0) continue;
    if (priced && (prices[v] < lo || prices[v] > hi)) continue;
    const d = singleDims[i];
    if (d === DIM.manufacturers) {
      const c = pMaker[p];
      if (c >= 0) counts[c]++;
    } else if (d === DIM.categories || d === DIM.custom_fields) {
      const pool = d === DIM.categories ? catPool : optPool;
      const s0 = d === DIM.categories ? pCatStart[p] : vOptStart[v];
      const e0 = s0 + (d === DIM.categories ? pCatLen[p] : vOptLen[v]);
      const id = p + 1;
      for (let j = s0; j < e0; j++) {
        const c = pool[j];
        if (stamp[c] !== id) {
          stamp[c] = id;
          counts[c]++;
        }
      }
    } else {
      const c = vDim[d][v];
      if (c >= 0) counts[c]++;
    }
  }
}
