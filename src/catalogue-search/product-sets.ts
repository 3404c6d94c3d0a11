import { DIM } from './dims.js';
import type { IndexQuery } from './index-types.js';
import type { ReadonlyTenantIndex } from './tenant-index-view.js';

export const EMPTY = new Int32Array(0);

/** Per-value product sets kept at most (least recently used out). */
const MAX_SETS = 256;

/** A dimension of at most this many values has the sets of all its values built in one pass (`members`). */
const WHOLE_DIMENSION_MAX = 64;

/** The products having a facet value: a byte per product slot, the slots as a sorted posting list, and a bitset. */
interface ProductSet {
  has: Uint8Array<ArrayBuffer>;
  list: Int32Array<ArrayBuffer>;
  bits: Uint32Array<ArrayBuffer>;
}

/**
 * Per facet value, the products having it, as a byte per product slot and as a sorted posting list; built on first
 * use and kept for the index's content version (a stock change keeps them), at most 256 values (least recently used
 * out); and bitsets, from which the products a query must look at are found word by word (`walk`).
 */
export class ProductSets {
  private readonly sets = new Map<number, ProductSet>();
  private version = -1;
  private held = 0;
  private alive: Uint32Array | null = null;
  private aliveVersion = -1;
  private base = new Uint32Array(0);
  private scratch: Uint32Array[] = [];
  /** Per currency's price array (one per currency in use: entries of older content versions are dropped). */
  private readonly extremes = new Map<Float64Array, { version: number; min: Float64Array; max: Float64Array }>();
  private cand = new Int32Array(0);
  private misses = new Int32Array(0);
  private missDims = new Uint8Array(0);

  constructor(private readonly idx: ReadonlyTenantIndex) {}

  /** How many value sets are kept. */
  get kept(): number {
    return this.sets.size;
  }

  bytes(): number {
    return (
      this.held +
      (this.alive?.byteLength ?? 0) +
      this.base.byteLength * (1 + this.scratch.length) +
      this.cand.byteLength +
      this.misses.byteLength +
      this.missDims.byteLength +
      this.extremesBytes()
    );
  }

  private extremesBytes(): number {
    let b = 0;
    for (const e of this.extremes.values()) b += e.min.byteLength + e.max.byteLength;
    return b;
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
   * on first use per content version, at most 256 values kept (least recently used out).
   */
  members(c: number): ProductSet {
    const idx = this.idx;
    if (this.version !== idx.contentVersion) {
      this.sets.clear();
      this.held = 0;
      this.version = idx.contentVersion;
    }
    const set = this.sets.get(c);
    if (set && set.has.length >= idx.pCount) {
      // most recently used last: filters on many producers evict the least used sets, not the common ones
      this.sets.delete(c);
      this.sets.set(c, set);
      return set;
    }
    const d = idx.codeDim[c];
    const codes = idx.dimCodes[d];
    // a small dimension (colours, sizes, countries, the category tree...) is built whole in the one pass a single value
    // would take: the next request filters on another of its values. Only while its sets fit beside those kept: a
    // whole dimension never pushes out the sets of another one (which the same request may need again)
    const whole = d !== DIM.manufacturers && codes.length > 1 && codes.length <= WHOLE_DIMENSION_MAX && this.sets.size + codes.length <= MAX_SETS;
    this.build(d, whole ? codes : [c]);
    // the sets just built are the most recently used: only older ones go
    while (this.sets.size > MAX_SETS) this.forget(this.sets.keys().next().value!);
    return this.sets.get(c)!;
  }

  /** The product sets of these values of dimension `d`, by one pass over the products (categories: ancestors included). */
  private build(d: number, codes: readonly number[]): void {
    const idx = this.idx;
    const slot = new Int32Array(idx.codeIds.length).fill(-1);
    codes.forEach((c, k) => (slot[c] = k));
    const has = codes.map(() => new Uint8Array(idx.pCount));
    const n = new Int32Array(codes.length);
    const mark = (c: number, p: number) => {
      const k = c < 0 ? -1 : slot[c];
      if (k >= 0 && has[k][p] === 0) {
        has[k][p] = 1;
        n[k]++;
      }
    };
    for (let p = 0; p < idx.pCount; p++) {
      if (idx.pAlive[p] === 0) continue;
      if (d === DIM.manufacturers) {
        mark(idx.pMaker[p], p);
        continue;
      }
      if (d === DIM.categories) {
        const e = idx.pCatStart[p] + idx.pCatLen[p];
        for (let j = idx.pCatStart[p]; j < e; j++) mark(idx.catPool[j], p);
        continue;
      }
      const s0 = idx.pVarStart[p];
      for (let i = s0; i < s0 + idx.pVarLen[p]; i++) {
        const v = idx.varPool[i];
        if (d === DIM.custom_fields) {
          const o0 = idx.vOptStart[v];
          for (let j = o0; j < o0 + idx.vOptLen[v]; j++) mark(idx.optPool[j], p);
        } else mark(idx.vDim[d][v], p);
      }
    }
    codes.forEach((c, k) => {
      this.forget(c);
      this.keep(c, has[k], n[k]);
    });
  }

  /** Keeps the set of `c` from its byte per product (`n` of them set): most recently used last. */
  private keep(c: number, has: Uint8Array<ArrayBuffer>, n: number): ProductSet {
    const idx = this.idx;
    const list = new Int32Array(n);
    const bits = new Uint32Array((idx.pCount + 31) >>> 5);
    for (let p = 0, k = 0; k < n; p++) {
      if (has[p] === 0) continue;
      list[k++] = p;
      bits[p >>> 5] |= 1 << (p & 31);
    }
    const set = { has, list, bits };
    this.sets.set(c, set);
    this.held += has.byteLength + list.byteLength + bits.byteLength;
    return set;
  }

  private forget(c: number): void {
    const set = this.sets.get(c);
    if (!set) return;
    this.sets.delete(c);
    this.held -= set.has.byteLength + set.list.byteLength + set.bits.byteLength;
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
   *
   * With `oneMiss`, a product that fails exactly one dimension is not in `list` but in `misses`, with that dimension
   * in `missDims`: none of its variants can match, and it only counts its values of that dimension through the
   * variants passing everything else (`countMisses`), so the full per-variant mask pass is not needed for it.
   */
  walk(q: IndexQuery, oneMiss: boolean): Walk {
    const idx = this.idx;
    const alive = this.aliveBits();
    const words = alive.length;
    if (this.base.length < words) {
      this.base = new Uint32Array(words + 64);
      this.scratch = [];
    }
    if (this.cand.length < idx.pCount) {
      this.cand = new Int32Array(idx.pCount + 1024);
      this.misses = new Int32Array(idx.pCount + 1024);
      this.missDims = new Uint8Array(idx.pCount + 1024);
    }
    // products outside the base (the ids/collection scope, the text match's products) contribute to nothing
    let base: Uint32Array = alive;
    if (q.allowed !== null || q.text !== null) {
      base = this.base;
      base.fill(0, 0, words);
      if (q.text !== null) for (const v of q.text.slots) base[idx.vProduct[v] >>> 5] |= 1 << (idx.vProduct[v] & 31);
      else for (let p = 0; p < idx.pCount; p++) if (q.allowed![p] !== 0) base[p >>> 5] |= 1 << (p & 31);
      if (q.text !== null && q.allowed !== null) for (let p = 0; p < idx.pCount; p++) if (q.allowed[p] === 0) base[p >>> 5] &= ~(1 << (p & 31));
      for (let i = 0; i < words; i++) base[i] &= alive[i];
    }
    // each filtered dimension's product bits: a value's own bitset, or its values' union (categories: intersection)
    const stepBits: Uint32Array[] = [];
    const stepDims: number[] = [];
    const combine = (codes: number[], and: boolean): Uint32Array => {
      const known = codes.filter((c) => c >= 0);
      if (known.length === 1 && (!and || codes.length === 1)) return this.members(known[0]).bits;
      const out = this.scratchBits(stepBits.length, words);
      if (and && known.length < codes.length) return out.fill(0, 0, words); // an unknown category matches nothing
      out.fill(and ? 0xffffffff : 0, 0, words);
      for (const c of known) {
        const bits = this.members(c).bits;
        if (and) for (let i = 0; i < words; i++) out[i] &= bits[i];
        else for (let i = 0; i < words; i++) out[i] |= bits[i];
      }
      return out;
    };
    if (q.categories !== null) {
      stepBits.push(combine(q.categories, true));
      stepDims.push(DIM.categories);
    }
    for (const [d, codes] of q.dims) {
      stepBits.push(combine(codes, false));
      stepDims.push(d);
    }
    // one pass over the words: `ok` = no dimension missed, `one` = exactly one
    const { cand, misses, missDims } = this;
    // a product failing one dimension counts it only through a variant within the price bounds: one whose variants'
    // prices all lie outside them is dropped (its lowest and highest price, per currency and content version)
    const priced = oneMiss && stepBits.length > 0 && (q.priceMin !== null || q.priceMax !== null);
    const extremes = priced ? this.priceExtremes(q.prices) : null;
    const lo = q.priceMin ?? -Infinity;
    const hi = q.priceMax ?? Infinity;
    const packed = walkWords(base, stepBits, stepDims, words, oneMiss, extremes, lo, hi, { cand, misses, missDims });
    const n = Math.floor(packed / PACK);
    return { list: cand, n, misses, missDims, nm: packed - n * PACK };
  }

  /** Each product's lowest and highest variant price in the currency of `prices`, per content version. */
  priceExtremes(prices: Float64Array): { min: Float64Array; max: Float64Array } {
    const idx = this.idx;
    const hit = this.extremes.get(prices);
    if (hit && hit.version === idx.contentVersion && hit.min.length >= idx.pCount) return hit;
    const min = new Float64Array(idx.pCount).fill(Infinity);
    const max = new Float64Array(idx.pCount).fill(-Infinity);
    for (let p = 0; p < idx.pCount; p++) {
      const s0 = idx.pVarStart[p];
      for (let i = s0; i < s0 + idx.pVarLen[p]; i++) {
        const price = prices[idx.varPool[i]];
        if (price < min[p]) min[p] = price;
        if (price > max[p]) max[p] = price;
      }
    }
    const made = { version: idx.contentVersion, min, max };
    // a price array outgrown by appended variants, or extremes of an older content version, are not used again
    for (const [key, e] of this.extremes) if (e.version !== idx.contentVersion || e.min.length < idx.pCount) this.extremes.delete(key);
    this.extremes.set(prices, made);
    return made;
  }

  /** Scratch bits of the k-th filtered dimension of a walk. */
  private scratchBits(k: number, words: number): Uint32Array {
    while (this.scratch.length <= k) this.scratch.push(new Uint32Array(this.base.length));
    const out = this.scratch[k];
    return out.length >= words ? out : (this.scratch[k] = new Uint32Array(this.base.length));
  }
}

/** 2^26: `walkWords` returns the products listed and the products missing one dimension as one number. */
const PACK = 67108864;

/**
 * The word-parallel pass of `ProductSets.walk`: returns `n * PACK + nm` (n products into `cand`, nm into `misses`).
 * Nothing follows the loop but the return: V8 compiles a long loop on its first run (on-stack replacement) and keeps
 * that code, so a property access after the loop that had never run before deoptimizes the function on every call.
 */
function walkWords(
  base: Uint32Array,
  stepBits: Uint32Array[],
  stepDims: number[],
  words: number,
  oneMiss: boolean,
  extremes: { min: Float64Array; max: Float64Array } | null,
  lo: number,
  hi: number,
  out: { cand: Int32Array; misses: Int32Array; missDims: Uint8Array },
): number {
  const { cand, misses, missDims } = out;
  const k = stepBits.length;
  let n = 0;
  let nm = 0;
  for (let i = 0; i < words; i++) {
    let ok = base[i];
    let one = 0;
    for (let j = 0; j < k; j++) {
      const b = stepBits[j][i];
      one = (one & b) | (ok & ~b);
      ok &= b;
    }
    let w = ok;
    if (extremes !== null && one !== 0) {
      let u = one;
      while (u !== 0) {
        const t = u & -u;
        const p = (i << 5) + 31 - Math.clz32(t);
        if (extremes.max[p] < lo || extremes.min[p] > hi) one &= ~t;
        u ^= t;
      }
    }
    if (oneMiss && one !== 0) {
      for (let j = 0; j < k; j++) {
        let m = one & ~stepBits[j][i];
        while (m !== 0) {
          const t = m & -m;
          misses[nm] = (i << 5) + 31 - Math.clz32(t);
          missDims[nm++] = stepDims[j];
          m ^= t;
        }
      }
    }
    while (w !== 0) {
      const t = w & -w;
      cand[n++] = (i << 5) + 31 - Math.clz32(t);
      w ^= t;
    }
  }
  return n * PACK + nm;
}

/** The products a query looks at (`list`, `n` of them) and the products failing exactly one dimension (`nm` of them). */
export interface Walk {
  list: Int32Array;
  n: number;
  misses: Int32Array;
  /** The dimension each of `misses` fails. */
  missDims: Uint8Array;
  nm: number;
}
