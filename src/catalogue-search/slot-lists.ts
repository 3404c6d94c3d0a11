/**
 * Sorted variant-slot lists with scores, as the text matcher keeps them (issue 35), and their AND and OR as merges.
 * Pure functions; no list is ever changed once made.
 */
/** Variant slots with a score each (no slot twice; ascending, as `TextMatcher` makes them). */
export interface SlotScores {
  slots: Int32Array;
  rel: Float64Array;
}

/**
 * A list's membership as a bitset (bit `v & 31` of word `v >>> 5`) and, per word, how many of its slots lie in the
 * words before (so a member's place in the list is that count plus the set bits below it in its word).
 */
export interface SlotBits {
  words: Uint32Array;
  before: Int32Array;
}

/** Lists this long or longer may get a bitset (shorter ones are merged or searched). */
const BITS_MIN = 1024;

/** Bitsets of the lists that got one (a list is never changed once made: the bitset holds for its life). */
const bitsOf = new WeakMap<SlotScores, SlotBits>();

/** Whether a list is long and dense enough for a bitset: at least `BITS_MIN` slots, one per 32 of its range. */
function dense(slots: Int32Array): boolean {
  const n = slots.length;
  return n >= BITS_MIN && n * 32 >= slots[n - 1];
}

/**
 * The bitset of a list (made on its first use, kept with it), or null for a short or sparse one (`dense`): the bitset
 * (8 bytes per 32 slots of the range) then never outweighs the list (12 bytes per slot).
 */
export function slotBits(s: SlotScores): SlotBits | null {
  const slots = s.slots;
  const n = slots.length;
  if (!dense(slots)) return null;
  let bits = bitsOf.get(s);
  if (bits) return bits;
  const size = (slots[n - 1] >>> 5) + 1;
  const words = new Uint32Array(size);
  for (let i = 0; i < n; i++) words[slots[i] >>> 5] |= 1 << (slots[i] & 31);
  const before = new Int32Array(size);
  let count = 0;
  for (let w = 0; w < size; w++) {
    before[w] = count;
    count += popcount(words[w]);
  }
  bits = { words, before };
  bitsOf.set(s, bits);
  return bits;
}

/** Memory of a kept list: its arrays, and the bitset it gets if it is dense (counted before it is made). */
export function keptBytes(s: SlotScores): number {
  const slots = s.slots;
  const bits = dense(slots) ? ((slots[slots.length - 1] >>> 5) + 1) * 8 : 0;
  return slots.byteLength + s.rel.byteLength + bits;
}

/** Scratch of the AND and OR (one runs at a time): the result is copied out at its size, not made at its bound. */
let work: SlotScores = { slots: new Int32Array(1024), rel: new Float64Array(1024) };

function scratch(n: number): SlotScores {
  if (work.slots.length < n) {
    const size = Math.max(n, work.slots.length * 2);
    work = { slots: new Int32Array(size), rel: new Float64Array(size) };
  }
  return work;
}

/** Set bits of a 32-bit word. */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** The place of slot `v` in the ascending `slots`, or -1. */
export function indexOf(slots: Int32Array, v: number): number {
  let lo = 0;
  let hi = slots.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (slots[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo < slots.length && slots[lo] === v ? lo : -1;
}

/** The first place at or after `from` in the ascending `slots` holding a slot not below `v` (galloping, then binary). */
export function gallop(slots: Int32Array, from: number, v: number): number {
  const n = slots.length;
  let step = 1;
  let lo = from;
  let hi = from;
  while (hi < n && slots[hi] < v) {
    lo = hi + 1;
    hi += step;
    step *= 2;
  }
  if (hi > n) hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (slots[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Slots in both ascending lists (`a` the shorter), scores summed (`sum`) or their minimum. A much longer `b` is
 * searched (galloping); a dense one (`slotBits`) answers each slot of `a` by its bitset and word counts; otherwise the
 * two lists are merged.
 */
export function intersect(a: SlotScores, b: SlotScores, sum: boolean): SlotScores {
  const as = a.slots;
  const bs = b.slots;
  const na = as.length;
  const nb = bs.length;
  const { slots, rel } = scratch(na);
  let n = 0;
  const skip = nb > 8 * na;
  const bits = skip ? null : slotBits(b);
  if (bits !== null) {
    const { words, before } = bits;
    const size = words.length;
    for (let i = 0; i < na; i++) {
      const v = as[i];
      const w = v >>> 5;
      if (w >= size) break; // ascending: every later slot lies beyond b's last
      const word = words[w];
      const bit = 1 << (v & 31);
      if ((word & bit) === 0) continue;
      const x = a.rel[i];
      const y = b.rel[before[w] + popcount(word & (bit - 1))];
      slots[n] = v;
      rel[n] = sum ? x + y : x < y ? x : y;
      n++;
    }
    return { slots: slots.slice(0, n), rel: rel.slice(0, n) };
  }
  let j = 0;
  for (let i = 0; i < na && j < nb; i++) {
    const v = as[i];
    if (skip) j = gallop(bs, j, v);
    else while (j < nb && bs[j] < v) j++;
    if (j < nb && bs[j] === v) {
      const x = a.rel[i];
      const y = b.rel[j];
      slots[n] = v;
      rel[n] = sum ? x + y : x < y ? x : y;
      n++;
      j++;
    }
  }
  return { slots: slots.slice(0, n), rel: rel.slice(0, n) };
}

/** Slots in either ascending list, with the better score. */
export function union(a: SlotScores, b: SlotScores): SlotScores {
  const as = a.slots;
  const bs = b.slots;
  const na = as.length;
  const nb = bs.length;
  const { slots, rel } = scratch(na + nb);
  let n = 0;
  let i = 0;
  let j = 0;
  while (i < na || j < nb) {
    const x = i < na ? as[i] : 0x7fffffff;
    const y = j < nb ? bs[j] : 0x7fffffff;
    if (x < y) {
      slots[n] = x;
      rel[n++] = a.rel[i++];
    } else if (y < x) {
      slots[n] = y;
      rel[n++] = b.rel[j++];
    } else {
      slots[n] = x;
      rel[n++] = a.rel[i] > b.rel[j] ? a.rel[i] : b.rel[j];
      i++;
      j++;
    }
  }
  return { slots: slots.slice(0, n), rel: rel.slice(0, n) };
}
