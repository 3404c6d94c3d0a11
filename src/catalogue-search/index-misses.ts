import { DIM } from './dims.js';
import type { IndexQuery } from './index-types.js';
import type { Walk } from './product-sets.js';
import type { ReadonlyTenantIndex } from './tenant-index-view.js';

/** What `countMisses` reads of the query besides `IndexQuery`: the search's scratch masks and filtered dimensions. */
export interface MissScratch {
  /** 1 for every wanted facet value code. */
  want: Uint8Array;
  /** 1 for every variant of the text match. */
  textMask: Uint8Array;
  /** The filtered single-valued variant dimensions (colours, sizes, years, countries, regions). */
  dimsV: number[];
  /** Whether custom-field options are filtered. */
  hasOpt: boolean;
}

/**
 * Facet counts of the products that fail exactly one filtered dimension at product level (`Walk.misses`): none of
 * their variants can match, so each only counts its values of that dimension (CONTRACT 7's self-excluding rule),
 * through the variants that pass the base clauses (available, on sale, text), the price bounds and every other
 * filtered variant dimension together (the same-variant rule). Categories and manufacturers are product-level: one
 * such variant counts the product once. A product with a single variant passes every other dimension already at
 * product level, so only its base clauses and price are checked.
 */
export function countMisses(idx: ReadonlyTenantIndex, w: Walk, q: IndexQuery, s: MissScratch, counts: Int32Array, stamp: Int32Array): void {
  const { misses, missDims, nm } = w;
  const { pVarStart, pVarLen, varPool, vAvail, vOnSale, pMaker, pCatStart, pCatLen, catPool, vOptStart, vOptLen, optPool, vDim } = idx;
  const priced = q.priceMin !== null || q.priceMax !== null;
  const lo = q.priceMin ?? -Infinity;
  const hi = q.priceMax ?? Infinity;
  const { available, onSale, prices } = q;
  const text = q.text !== null;
  const { want, textMask, dimsV, hasOpt } = s;
  const nd = dimsV.length;
  const cols = dimsV.map((d) => vDim[d]);
  for (let i = 0; i < nm; i++) {
    const p = misses[i];
    const d = missDims[i];
    const vs = pVarStart[p];
    const ve = vs + pVarLen[p];
    const single = ve - vs === 1;
    const id = p + 1;
    for (let x = vs; x < ve; x++) {
      const v = varPool[x];
      if (available && vAvail[v] === 0) continue;
      if (onSale && vOnSale[v] === 0) continue;
      if (text && textMask[v] === 0) continue;
      if (priced && (prices[v] < lo || prices[v] > hi)) continue;
      if (!single) {
        let ok = true;
        for (let t = 0; t < nd; t++) {
          if (dimsV[t] === d) continue;
          const c = cols[t][v];
          if (c < 0 || want[c] === 0) {
            ok = false;
            break;
          }
        }
        if (ok && hasOpt && d !== DIM.custom_fields) {
          ok = false;
          const o0 = vOptStart[v];
          for (let j = o0; j < o0 + vOptLen[v]; j++) {
            if (want[optPool[j]] !== 0) {
              ok = true;
              break;
            }
          }
        }
        if (!ok) continue;
      }
      if (d === DIM.manufacturers) {
        const c = pMaker[p];
        if (c >= 0) counts[c]++;
        break; // product-level: counted once
      }
      if (d === DIM.categories) {
        const e0 = pCatStart[p] + pCatLen[p];
        for (let j = pCatStart[p]; j < e0; j++) countOnce(counts, stamp, catPool[j], id);
        break; // product-level: counted once
      }
      if (d === DIM.custom_fields) {
        const e0 = vOptStart[v] + vOptLen[v];
        for (let j = vOptStart[v]; j < e0; j++) countOnce(counts, stamp, optPool[j], id);
        continue;
      }
      countOnce(counts, stamp, vDim[d][v], id);
    }
  }
}

/** Counts value `c` (-1: none) once for the product stamped `id` (`stamp[c] === id`: already counted). */
export function countOnce(counts: Int32Array, stamp: Int32Array, c: number, id: number): void {
  if (c >= 0 && stamp[c] !== id) {
    stamp[c] = id;
    counts[c]++;
  }
}
