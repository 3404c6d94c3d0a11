import { PostingPool } from './posting-pool.js';

/** A small deterministic generator (the lists' lengths vary by orders of magnitude, as postings do). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('PostingPool', () => {
  it('keeps every list equal to plain arrays pushed alike, across moves and compactions', () => {
    const next = rng(7);
    const pool = new PostingPool();
    const plain: number[][] = [];
    for (let k = 0; k < 200_000; k++) {
      if (plain.length === 0 || next() < 0.02) {
        expect(pool.add()).toBe(plain.length);
        plain.push([]);
      }
      // skewed: a few lists take most pushes
      const l = Math.floor(plain.length * next() ** 3);
      const v = Math.floor(next() * 1e6);
      pool.push(l, v);
      plain[l].push(v);
    }
    expect(pool.count).toBe(plain.length);
    for (let l = 0; l < plain.length; l++) {
      expect(pool.size(l)).toBe(plain[l].length);
      expect(pool.list(l)).toEqual(plain[l]);
    }
    // compacted along the way: far less room than a list per doubling would leave behind
    expect(pool.data.length).toBeLessThan(200_000 * 4);
  });

  it('ensure makes empty lists; a list past the count is empty', () => {
    const pool = new PostingPool(3);
    pool.ensure(100);
    expect(pool.count).toBe(100);
    expect(pool.size(99)).toBe(0);
    expect(pool.size(500)).toBe(0);
    expect(pool.list(500)).toEqual([]);
    pool.push(99, 5);
    expect(pool.list(99)).toEqual([5]);
  });

  it('mapped renumbers each entry in list order and drops the negative ones, leaving the source unchanged', () => {
    const pool = new PostingPool(3);
    [4, 1, 3].forEach((v) => pool.push(0, v));
    [2].forEach((v) => pool.push(2, v));
    const copy = pool.mapped((x) => (x === 3 ? -1 : x * 10));
    expect([copy.list(0), copy.list(1), copy.list(2)]).toEqual([[40, 10], [], [20]]);
    expect(pool.list(0)).toEqual([4, 1, 3]);
    copy.push(1, 7);
    copy.push(0, 8);
    expect([copy.list(0), copy.list(1), copy.list(2)]).toEqual([[40, 10, 8], [7], [20]]);
  });
});
