import { gallop, indexOf, intersect, keptBytes, popcount, slotBits, union, type SlotScores } from './slot-lists.js';

/** A small deterministic random generator. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** An ascending list of about `n` distinct slots below `range`, each with a score 1–6. */
function list(r: () => number, n: number, range: number): SlotScores {
  const set = new Set<number>();
  for (let i = 0; i < n; i++) set.add(Math.floor(r() * range));
  const slots = Int32Array.from([...set].sort((a, b) => a - b));
  return { slots, rel: Float64Array.from(slots, () => 1 + Math.floor(r() * 6)) };
}

/** The brute force: a map from slot to score. */
const scores = (s: SlotScores) => new Map([...s.slots].map((v, i) => [v, s.rel[i]]));

function bruteAnd(a: SlotScores, b: SlotScores, sum: boolean): Array<[number, number]> {
  const mb = scores(b);
  return [...scores(a)].filter(([v]) => mb.has(v)).map(([v, x]) => [v, sum ? x + mb.get(v)! : Math.min(x, mb.get(v)!)]);
}

function bruteOr(a: SlotScores, b: SlotScores): Array<[number, number]> {
  const m = scores(a);
  for (const [v, y] of scores(b)) m.set(v, Math.max(m.get(v) ?? -Infinity, y));
  return [...m].sort((x, y) => x[0] - y[0]);
}

const pairs = (s: SlotScores) => [...s.slots].map((v, i): [number, number] => [v, s.rel[i]]);

describe('slot lists', () => {
  it('counts bits as a loop does, the sign bit included', () => {
    const r = rng(3);
    for (const x of [0, 1, 0x80000000, 0xffffffff, 0x7fffffff, 0x55555555, ...Array.from({ length: 200 }, () => Math.floor(r() * 2 ** 32))]) {
      let n = 0;
      for (let b = 0; b < 32; b++) if ((x >>> b) & 1) n++;
      expect(popcount(x)).toBe(n);
      expect(popcount(x | 0)).toBe(n);
    }
  });

  it('intersects and unites as a brute force does: short, long, dense (bitset) and sparse lists, sums and minimums', () => {
    const r = rng(11);
    let dense = 0;
    for (let q = 0; q < 300; q++) {
      const range = 1 + Math.floor(r() * 40000);
      const a = list(r, Math.floor(r() * 3000), range);
      // b: anything from empty to much longer than a, often dense enough for a bitset (>= 1,024 slots, 1 in 32)
      const b = list(r, Math.floor(r() * (r() < 0.5 ? 30000 : 3000)), range);
      if (slotBits(b) !== null) dense++;
      const [short, long] = a.slots.length <= b.slots.length ? [a, b] : [b, a];
      // compared as text: jest's deep equality is slow on lists of thousands
      for (const sum of [true, false]) expect(JSON.stringify(pairs(intersect(short, long, sum)))).toBe(JSON.stringify(bruteAnd(short, long, sum)));
      expect(JSON.stringify(pairs(union(a, b)))).toBe(JSON.stringify(bruteOr(a, b)));
    }
    expect(dense).toBeGreaterThan(50);
  });

  it('gives a dense list a bitset with the count of its slots before each word, kept with the list', () => {
    const r = rng(5);
    const l = list(r, 5000, 20000);
    const bits = slotBits(l)!;
    expect(bits).not.toBeNull();
    expect(slotBits(l)).toBe(bits);
    const wrong: number[] = [];
    for (let v = 0; v < 20000; v++) {
      const i = indexOf(l.slots, v);
      const w = v >>> 5;
      const bit = 1 << (v & 31);
      const member = w < bits.words.length && (bits.words[w] & bit) !== 0;
      if (member !== i >= 0 || (member && bits.before[w] + popcount(bits.words[w] & (bit - 1)) !== i)) wrong.push(v);
    }
    expect(wrong).toEqual([]);
    // counted before it is made too
    expect(keptBytes(l)).toBe(l.slots.byteLength + l.rel.byteLength + bits.words.byteLength + bits.before.byteLength);
    const sparse = list(r, 2000, 1_000_000);
    expect(keptBytes(sparse)).toBe(sparse.slots.byteLength + sparse.rel.byteLength);
    // short or sparse lists get none
    expect(slotBits(list(r, 500, 1000))).toBeNull();
    expect(slotBits(sparse)).toBeNull();
  });

  it('gallops to the first slot not below a value', () => {
    const r = rng(9);
    const l = list(r, 3000, 50000).slots;
    const wrong: number[] = [];
    for (let k = 0; k < 500; k++) {
      const v = Math.floor(r() * 52000);
      const from = Math.floor(r() * l.length);
      let want = from;
      while (want < l.length && l[want] < v) want++;
      if (gallop(l, from, v) !== want) wrong.push(v);
    }
    expect(wrong).toEqual([]);
  });
});
