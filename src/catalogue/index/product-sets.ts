import { DIM } from './dims.js';
import type { IndexQuery } from './index-types.js';
import type { TenantIndex } from './tenant-index.js';

export const EMPTY = new Int32Array(0);

/** The products having a facet value: a byte per product slot, the slots as a sorted posting list, and a bitset. */
interface ProductSet {
  has: Uint8Array<ArrayBuffer>;
  list: Int32Array<ArrayBuffer>;
  bits: Uint32Array<ArrayBuffer>;
}

/**
 * Per facet value, the products having it, as a byte per product slot and as a sorted posting list; built on first
 * use and kept for the index's content version (a stock change keeps them), at most 256 values; and bitsets, from
 * which the products a query must look at are found word by word (`walk`).
 */
export class ProductSets {
  private readonly sets = new Map<number, ProductSet>();
  private version = -1;
  private held = 0;
  private alive: Uint32Array | null = null;
  private aliveVersion = -1;
  private ok = new Uint32Array(0);
  private one = new Uint32Array(0);
  private dim = new Uint32Array(0);
  private cand = new Int32Array(0);

  constructor(private readonly idx: TenantIndex) {}

  bytes(): number {
    return this.held + (this.alive?.byteLength ?? 0) + this.ok.byteLength * 3 + this.cand.byteLength;
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
    const bits = new Uint32Array((idx.pCount + 31) >>> 5);
    for (let p = 0, k = 0; k < n; p++) {
      if (has[p] === 0) continue;
      list[k++] = p;
      bits[p >>> 5] |= 1 << (p & 31);
    }
    set = { has, list, bits };
    this.sets.set(c, set);
    this.held += has.byteLength + list.byteLength + bits.byteLength;
    return set;
  }

  /** Bits of the visible products (32 per word), per content version. */
  private aliveBits(): Uint32Array {
    const idx = this.idx;
    const words = (idx.pCount + 31) >>> 5;
    if (this.alive && this.aliveVersion === idx.contentVersion && this.alive.length === words) return this.alive;
    const bits = new Uint32Array(words);
    for (let p = 0; p < idx.pCount; p++) if (idx.pAlive[p] !== 0) bits[p >>> 5] |= 1 << (p & 31);
    this.alive = bits;
    this.aliveVersion = idx.contentVersion;
    return bits;
  }

  /**
   * The products a query must look at: those passing every filtered dimension at product level (a wanted value on
   * some variant, every wanted category, a wanted manufacturer), and with `oneMiss` also those failing exactly one
   * (they count that dimension's values) — a product failing two contributes to nothing; only products of the ids or
   * collection scope and of the text match's variants are looked at. Word-parallel over the
   * values' bitsets (`ok` = no miss yet, `one` = exactly one), then the set bits as slots in ascending order.
   */
  walk(q: IndexQuery, oneMiss: boolean): { list: Int32Array; n: number } {
    const idx = this.idx;
    const alive = this.aliveBits();
    const words = alive.length;
    if (this.ok.length < words) {
      this.ok = new Uint32Array(words + 64);
      this.one = new Uint32Array(words + 64);
      this.dim = new Uint32Array(words + 64);
    }
    if (this.cand.length < idx.pCount) this.cand = new Int32Array(idx.pCount + 1024);
    const { ok, one, dim } = this;
    ok.set(alive);
    one.fill(0, 0, words);
    // products outside the base (the ids/collection scope, the text match's products) contribute to nothing
    if (q.allowed !== null || q.text !== null) {
      dim.fill(0, 0, words);
      if (q.text !== null) for (const v of q.text.slots) dim[idx.vProduct[v] >>> 5] |= 1 << (idx.vProduct[v] & 31);
      else for (let p = 0; p < idx.pCount; p++) if (q.allowed![p] !== 0) dim[p >>> 5] |= 1 << (p & 31);
      if (q.text !== null && q.allowed !== null) for (let p = 0; p < idx.pCount; p++) if (q.allowed[p] === 0) dim[p >>> 5] &= ~(1 << (p & 31));
      for (let i = 0; i < words; i++) ok[i] &= dim[i];
    }
    const step = () => {
      for (let i = 0; i < words; i++) {
        const b = dim[i];
        one[i] = (one[i] & b) | (ok[i] & ~b);
        ok[i] &= b;
      }
    };
    if (q.categories !== null) {
      dim.fill(0xffffffff, 0, words);
      for (const c of q.categories) {
        if (c < 0) dim.fill(0, 0, words);
        else {
          const bits = this.members(c).bits;
          for (let i = 0; i < words; i++) dim[i] &= bits[i];
        }
      }
      step();
    }
    for (const codes of q.dims.values()) {
      dim.fill(0, 0, words);
      for (const c of codes) {
        if (c < 0) continue;
        const bits = this.members(c).bits;
        for (let i = 0; i < words; i++) dim[i] |= bits[i];
      }
      step();
    }
    const cand = this.cand;
    let n = 0;
    for (let i = 0; i < words; i++) {
      let w = oneMiss ? ok[i] | one[i] : ok[i];
      while (w !== 0) {
        const t = w & -w;
        cand[n++] = (i << 5) + 31 - Math.clz32(t);
        w ^= t;
      }
    }
    return { list: cand, n };
  }
}
