import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { PrincipalCache } from './principal-cache.js';

describe('PrincipalCache', () => {
  let listening = true;
  const cache = () => new PrincipalCache<{ id: string }>(1_000, 3, () => listening);
  beforeEach(() => {
    listening = true;
    jest.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('serves what was stored until its time to live or the token expiry, whichever is first', () => {
    const c = cache();
    const p = { id: 'p' };
    c.set('a', c.begin(), 't1', p);
    c.set('b', c.begin(), 't1', { id: 'q' }, Date.now() + 300);
    expect(c.get('a')).toBe(p);
    jest.advanceTimersByTime(300);
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBe(p);
    jest.advanceTimersByTime(700);
    expect(c.get('a')).toBeUndefined();
  });

  it('stores nothing from a lookup that began before a drop, and drops one tenant or every tenant', () => {
    const c = cache();
    const before = c.begin();
    c.drop('t2');
    c.set('a', before, 't1', { id: 'stale' });
    expect(c.get('a')).toBeUndefined();
    c.set('a', c.begin(), 't1', { id: 'a' });
    c.set('b', c.begin(), 't2', { id: 'b' });
    c.drop('t2');
    expect([c.get('a')?.id, c.get('b')]).toEqual(['a', undefined]);
    c.drop(null);
    expect(c.get('a')).toBeUndefined();
  });

  it('serves and stores nothing while the bus does not listen', () => {
    const c = cache();
    c.set('a', c.begin(), 't1', { id: 'a' });
    listening = false;
    expect(c.get('a')).toBeUndefined();
    c.set('b', c.begin(), 't1', { id: 'b' });
    listening = true;
    expect([c.get('a')?.id, c.get('b')]).toEqual(['a', undefined]);
  });

  it('keeps at most `max` entries, the least recently stored out', () => {
    const c = cache();
    for (const k of ['a', 'b', 'c', 'd']) c.set(k, c.begin(), 't', { id: k });
    expect(['a', 'b', 'c', 'd'].map((k) => c.get(k)?.id)).toEqual([undefined, 'b', 'c', 'd']);
  });
});
