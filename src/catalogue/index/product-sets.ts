import { B_CAT, DIM } from './dims.js';
import type { IndexQuery } from './index-types.js';
import type { TenantIndex } from './tenant-index.js';

export const EMPTY = new Int32Array(0);

/** The products having a facet value: a byte per product slot, and the slots as a sorted posting list. */
interface ProductSet {
  has: Uint8Array<ArrayBuffer>;
  list: Int32Array<ArrayBuffer>;
}

/** A filtered dimension: its bit, and posting lists whose union holds every product passing it. */
interface DimSet {
  bit: number;
  lists: Int32Array[];
  size: number;
}

/**
 * Per facet value, the products having it, as a byte per product slot and as a sorted posting list; built on first
 * use and kept for the index's content version (a stock change keeps them), at most 256 values. Also the walk of a
 * query: the union of posting lists, each product once.
 */
export class ProductSets {
  private readonly sets = new Map<number, ProductSet>();
  private version = -1;
  private held = 0;
  private seen = new Int32Array(0);
  private cand = new Int32Array(0);
  private walk = 0;

  constructor(private readonly idx: TenantIndex) {}

  bytes(): number {
    return this.held + this.seen.byteLength + this.cand.byteLength;
  }

  /** Whether product `p` is in category `c` (ancestors included). */
  hasCategory(p: number, c: number): boolean {
    const idx = this.idx;
    const start = idx.pCatStart[p];
    const end = start + idx.pCatLen[p];
    for (let i = start; i < end; i++) if (idx.catPool[i] === c) return true;
    return false;
  }

  /**
   * The products having value `c` (a category: ancestors included; a variant value: on any visible variant), built
   * on first use per content version, at most 256 values kept.
   */
  members(c: number): ProductSet {
    const idx = this.idx;
    if (this.version !== idx.contentVersion || this.sets.size > 256) {
      this.sets.clear();
      this.held = 0;
      this.version = idx.contentVersion;
    }
    let set = this.sets.get(c);
    if (set && set.has.length >= idx.pCount) return set;
    const has = new Uint8Array(idx.pCount);
    const d = idx.codeDim[c];
    let n = 0;
    for (let p = 0; p < idx.pCount; p++) {
      if (idx.pAlive[p] === 0) continue;
      if (d === DIM.categories) {
        if (this.hasCategory(p, c)) has[p] = 1;
      } else if (d === DIM.manufacturers) {
        if (idx.pMaker[p] === c) has[p] = 1;
      } else {
        const s0 = idx.pVarStart[p];
        for (let i = s0; i < s0 + idx.pVarLen[p] && has[p] === 0; i++) {
          const v = idx.varPool[i];
          if (d === DIM.custom_fields) {
            const o0 = idx.vOptStart[v];
            for (let j = o0; j < o0 + idx.vOptLen[v]; j++) if (idx.optPool[j] === c) has[p] = 1;
          } else if (idx.vDim[d][v] === c) has[p] = 1;
        }
      }
      n += has[p];
    }
    const list = new Int32Array(n);
    for (let p = 0, k = 0; k < n; p++) if (has[p] !== 0) list[k++] = p;
    set = { has, list };
    this.sets.set(c, set);
    this.held += has.byteLength + list.byteLength;
    return set;
  }

  /** Per filtered dimension, posting lists whose union holds every product passing it (categories: the smallest one). */
  dimSets(q: IndexQuery): DimSet[] {
    const out: DimSet[] = [];
    if (q.categories !== null) {
      let best: Int32Array = EMPTY;
      if (!q.categories.some((c) => c < 0)) {
        best = this.members(q.categories[0]).list;
        for (const c of q.categories) {
          const l = this.members(c).list;
          if (l.length < best.length) best = l;
        }
      }
      out.push({ bit: B_CAT, lists: [best], size: best.length });
    }
    for (const [d, codes] of q.dims) {
      const lists = codes.filter((c) => c >= 0).map((c) => this.members(c).list);
      out.push({ bit: 1 << d, lists, size: lists.reduce((n, l) => n + l.length, 0) });
    }
    return out.sort((a, b) => a.size - b.size);
  }

  /** The union of posting lists (unordered, each product once) into `cand`; returns its length. */
  union(sets: DimSet[]): { list: Int32Array; n: number } {
    const lists = sets.flatMap((s) => s.lists);
    if (lists.length === 1) return { list: lists[0], n: lists[0].length };
    if (this.seen.length < this.idx.pCount) {
      this.seen = new Int32Array(this.idx.pCount + 1024);
      this.cand = new Int32Array(this.idx.pCount + 1024);
      this.walk = 0;
    }
    const seen = this.seen;
    const cand = this.cand;
    const mark = ++this.walk;
    let n = 0;
    for (const l of lists) {
      for (let i = 0; i < l.length; i++) {
        const p = l[i];
        if (seen[p] !== mark) {
          seen[p] = mark;
          cand[n++] = p;
        }
      }
    }
    return { list: cand, n };
  }
}
