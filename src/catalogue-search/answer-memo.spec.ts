import { describe, expect, it } from '@jest/globals';
import { AnswerMemo } from './answer-memo.js';

describe('AnswerMemo', () => {
  it('answers a key only at the versions it was kept for', () => {
    const memo = new AnswerMemo<string>();
    memo.set('q', 3, -1, 'answer', 100);
    expect(memo.get('q', 3, -1)).toBe('answer');
    expect(memo.get('other', 3, -1)).toBeUndefined();
    // another content version: gone for good (not served again at the old version either)
    expect(memo.get('q', 4, -1)).toBeUndefined();
    expect(memo.get('q', 3, -1)).toBeUndefined();
    expect(memo.size).toBe(0);
    expect(memo.bytes()).toBe(0);
  });

  it('keeps an answer that depends on availability only for its availability version', () => {
    const memo = new AnswerMemo<string>();
    memo.set('q', 1, 7, 'in stock', 10);
    expect(memo.get('q', 1, 7)).toBe('in stock');
    expect(memo.get('q', 1, 8)).toBeUndefined();
    expect(memo.hits).toBe(1);
    expect(memo.misses).toBe(1);
  });

  it('drops the least recently used answer beyond its entries', () => {
    const memo = new AnswerMemo<number>(3, 1_000);
    memo.set('a', 1, -1, 1, 100);
    memo.set('b', 1, -1, 2, 100);
    memo.set('c', 1, -1, 3, 100);
    expect(memo.get('a', 1, -1)).toBe(1); // a is now the most recently used, b the least
    memo.set('d', 1, -1, 4, 100);
    expect(memo.get('b', 1, -1)).toBeUndefined();
    expect([memo.get('a', 1, -1), memo.get('c', 1, -1), memo.get('d', 1, -1)]).toEqual([1, 3, 4]);
    expect([memo.size, memo.bytes()]).toEqual([3, 300]);
  });

  it('drops the least recently used answers beyond its bytes, and never keeps one larger than a quarter of them', () => {
    const memo = new AnswerMemo<number>(100, 1_000);
    for (const k of ['a', 'b', 'c', 'd']) memo.set(k, 1, -1, 0, 250);
    expect(memo.bytes()).toBe(1_000);
    memo.set('e', 1, -1, 0, 200); // 1,200 bytes: a goes
    expect([memo.get('a', 1, -1), memo.size, memo.bytes()]).toEqual([undefined, 4, 950]);
    memo.set('f', 1, -1, 0, 251);
    expect(memo.get('f', 1, -1)).toBeUndefined();
    expect(memo.bytes()).toBe(950);
    memo.clear();
    expect([memo.size, memo.bytes()]).toEqual([0, 0]);
  });

  it('replaces the answer of a key kept again', () => {
    const memo = new AnswerMemo<string>();
    memo.set('q', 1, -1, 'old', 50);
    memo.set('q', 2, -1, 'new', 70);
    expect(memo.get('q', 2, -1)).toBe('new');
    expect(memo.bytes()).toBe(70);
  });

  it('admits a question from its second ask; the doorkeeper forgets after 8,192 questions asked once', () => {
    const memo = new AnswerMemo<string>();
    expect(memo.admit('q')).toBe(false);
    expect(memo.admit('q')).toBe(true);
    expect(memo.admit('q')).toBe(true);
    // 8,191 questions asked once (q being the first): q is still remembered
    let once = 1;
    let early = 0;
    for (let i = 0; once < 8_191; i++) {
      if (memo.admit(`filter ${i}`)) early += 1;
      else once += 1;
    }
    expect(early).toBeLessThan(8_191 * 0.1); // false positives (hash collisions) only keep an answer early
    expect(memo.admit('q')).toBe(true);
    // the 8,192nd: the doorkeeper starts afresh, q counts as asked once again
    expect(memo.admit('one more question')).toBe(false);
    expect(memo.admit('q')).toBe(false);
    expect(memo.admit('q')).toBe(true);
  });

  it('keeps a question admitted when its kept answer is dropped (new version, least recently used out, cleared)', () => {
    const memo = new AnswerMemo<string>(2, 1_000);
    const fresh = () => new AnswerMemo<string>(); // its doorkeeper has seen nothing
    expect(fresh().admit('a')).toBe(false);
    memo.set('a', 1, -1, 'A', 10);
    expect(memo.get('a', 2, -1)).toBeUndefined(); // a new content version drops it
    expect(memo.admit('a')).toBe(true);
    memo.set('b', 1, -1, 'B', 10);
    memo.set('c', 1, -1, 'C', 10);
    memo.set('d', 1, -1, 'D', 10); // b is the least recently used: out
    expect(memo.admit('b')).toBe(true);
    memo.clear();
    expect([memo.admit('c'), memo.admit('d')]).toEqual([true, true]);
  });
});
