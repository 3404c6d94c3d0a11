import { DIM, VARIANT_DIM_COLUMNS } from './dims.js';
import type { ReadonlyTenantIndex } from './tenant-index-view.js';

/**
 * Statistics of a tenant's index per content version (a stock change keeps them): for the whole catalogue and for
 * each category (ancestors included), how many products have each facet value, and per currency the lowest and
 * highest price. A category page without other filters — the storefront's everyday request — is then answered
 * from a row of counts instead of a pass over the category's products: its facet counts are its row (the category
 * dimension itself, self-excluded, from the whole catalogue's), its price range is its range, its matches are its
 * posting list. Built in one pass over the products (tens of milliseconds for 100,000) on first use after a change.
 */
export class CategoryStats {
  private version = -1;
  private codes = 0;
  /** Row of each category code in `matrix` (-1: not a category). */
  private rowOf = new Int32Array(0);
  /** Row r, code c: products of category r having code c. */
  private matrix = new Int32Array(0);
  private global = new Int32Array(0);
  /** Every visible product slot. */
  all = new Int32Array(0);
  private readonly ranges = new WeakMap<Float64Array, { version: number; min: Float64Array; max: Float64Array }>();

  constructor(private readonly idx: ReadonlyTenantIndex) {}

  bytes(): number {
    return this.rowOf.byteLength + this.matrix.byteLength + this.global.byteLength + this.all.byteLength;
  }

  private current(): void {
    const idx = this.idx;
    if (this.version === idx.contentVersion && this.codes === idx.codeIds.length) return;
    const codes = idx.codeIds.length;
    const cats = idx.dimCodes[DIM.categories];
    const rowOf = new Int32Array(codes).fill(-1);
    cats.forEach((c, r) => (rowOf[c] = r));
    const matrix = new Int32Array(cats.length * codes);
    const global = new Int32Array(codes);
    const stamp = new Int32Array(codes);
    const mine = new Int32Array(codes);
    const all: number[] = [];
    const { pAlive, pMaker, pCatStart, pCatLen, catPool, pVarStart, pVarLen, varPool, vOptStart, vOptLen, optPool } = idx;
    const cols = VARIANT_DIM_COLUMNS.map(([d]) => idx.vDim[d]);
    for (let p = 0; p < idx.pCount; p++) {
      if (pAlive[p] === 0) continue;
      all.push(p);
      const id = p + 1;
      let n = 0;
      const add = (c: number) => {
        if (c >= 0 && stamp[c] !== id) {
          stamp[c] = id;
          mine[n++] = c;
        }
      };
      add(pMaker[p]);
      for (let i = pCatStart[p]; i < pCatStart[p] + pCatLen[p]; i++) add(catPool[i]);
      for (let i = pVarStart[p]; i < pVarStart[p] + pVarLen[p]; i++) {
        const v = varPool[i];
        for (const col of cols) add(col[v]);
        for (let j = vOptStart[v]; j < vOptStart[v] + vOptLen[v]; j++) add(optPool[j]);
      }
      for (let j = 0; j < n; j++) global[mine[j]]++;
      for (let i = pCatStart[p]; i < pCatStart[p] + pCatLen[p]; i++) {
        const base = rowOf[catPool[i]] * codes;
        for (let j = 0; j < n; j++) matrix[base + mine[j]]++;
      }
    }
    Object.assign(this, { rowOf, matrix, global, all: Int32Array.from(all), codes, version: idx.contentVersion });
  }

  /**
   * Facet counts of category `c`'s products (c < 0: the whole catalogue) into `out`, the category dimension's own
   * counts from the whole catalogue (CONTRACT 7: a dimension is counted without its own filter).
   */
  counts(c: number, out: Int32Array): void {
    this.current();
    const codes = this.codes;
    if (c < 0) out.set(this.global.subarray(0, codes));
    else out.set(this.matrix.subarray(this.rowOf[c] * codes, (this.rowOf[c] + 1) * codes));
    for (const k of this.idx.dimCodes[DIM.categories]) out[k] = this.global[k];
  }

  /** Products having each code, over the whole catalogue. */
  wholeCounts(): Int32Array {
    this.current();
    return this.global;
  }

  /** Every visible product (c < 0) or those of category `c`. */
  products(c: number, members: (c: number) => Int32Array): Int32Array {
    this.current();
    return c < 0 ? this.all : members(c);
  }

  /** Lowest and highest variant price of category `c` (c < 0: the whole catalogue) in the currency of `prices`, from each product's (`extremes`). */
  range(c: number, prices: Float64Array, extremes: { min: Float64Array; max: Float64Array }): { min: number | null; max: number | null } {
    this.current();
    const idx = this.idx;
    let r = this.ranges.get(prices);
    if (!r || r.version !== this.version) {
      const rows = idx.dimCodes[DIM.categories].length + 1;
      const min = new Float64Array(rows).fill(Infinity);
      const max = new Float64Array(rows).fill(-Infinity);
      const whole = rows - 1;
      for (const p of this.all) {
        const lo = extremes.min[p];
        const hi = extremes.max[p];
        if (lo < min[whole]) min[whole] = lo;
        if (hi > max[whole]) max[whole] = hi;
        for (let i = idx.pCatStart[p]; i < idx.pCatStart[p] + idx.pCatLen[p]; i++) {
          const row = this.rowOf[idx.catPool[i]];
          if (lo < min[row]) min[row] = lo;
          if (hi > max[row]) max[row] = hi;
        }
      }
      r = { version: this.version, min, max };
      this.ranges.set(prices, r);
    }
    const row = c < 0 ? r.min.length - 1 : this.rowOf[c];
    return { min: r.min[row] === Infinity ? null : r.min[row], max: r.max[row] === -Infinity ? null : r.max[row] };
  }
}
