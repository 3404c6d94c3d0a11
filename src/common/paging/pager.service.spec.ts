import { createHmac } from 'node:crypto';
import type { AppConfig } from '../../config/app-config.js';
import { unprocessable } from '../../../test/helpers/app-error.js';
import type { ListParams } from './list-params.js';
import { clampLimit, DEFAULT_PAGE_SIZE, keysetCondition, MAX_PAGE_SIZE, Pager, type PageRequest } from './pager.service.js';

const pager = (secret = 'unit-secret') => new Pager({ APP_SECRET: secret } as AppConfig);
const request = (query: Record<string, unknown>, path = '/admin/collections'): ListParams => ({ tenantId: '', path: `/api/2026-04-01${path}`, query });

const refusal = unprocessable;

describe('keysetCondition', () => {
  it('one key: a single comparison in the key direction', () => {
    expect(keysetCondition([{ expr: 'c.id', dir: 'ASC' }], ['a'])).toEqual({ sql: '((c.id > :ks0))', params: { ks0: 'a' } });
    expect(keysetCondition([{ expr: 'c.id', dir: 'DESC' }], ['a'])).toEqual({ sql: '((c.id < :ks0))', params: { ks0: 'a' } });
  });

  it('several keys of mixed directions: an OR chain, each branch fixing the keys before it', () => {
    const keys = [
      { expr: 'lower(p.title)', dir: 'ASC' as const },
      { expr: 'p.created_at', dir: 'DESC' as const },
      { expr: 'p.id', dir: 'DESC' as const },
    ];
    expect(keysetCondition(keys, ['b', '2026-01-01T00:00:00.000Z', 'id-9'])).toEqual({
      sql:
        '((lower(p.title) > :ks0)' +
        ' OR (lower(p.title) = :ks0 AND p.created_at < :ks1)' +
        ' OR (lower(p.title) = :ks0 AND p.created_at = :ks1 AND p.id < :ks2))',
      params: { ks0: 'b', ks1: '2026-01-01T00:00:00.000Z', ks2: 'id-9' },
    });
  });

  it('passes values through as bound parameters, never into the SQL text', () => {
    const { sql, params } = keysetCondition(
      [
        { expr: 'c.title', dir: 'ASC' },
        { expr: 'c.id', dir: 'ASC' },
      ],
      ["x' OR 1=1 --", null],
    );
    expect(sql).not.toContain('OR 1=1');
    expect(params).toEqual({ ks0: "x' OR 1=1 --", ks1: null });
  });
});

describe('clampLimit', () => {
  it('defaults when absent or empty', () => {
    expect(clampLimit(undefined)).toBe(DEFAULT_PAGE_SIZE);
    expect(clampLimit('')).toBe(DEFAULT_PAGE_SIZE);
    expect(clampLimit(undefined, 10)).toBe(10);
  });

  it('clamps integers into 1..MAX_PAGE_SIZE', () => {
    expect(clampLimit('7')).toBe(7);
    expect(clampLimit('0')).toBe(1);
    expect(clampLimit('-5')).toBe(1);
    expect(clampLimit('100000')).toBe(MAX_PAGE_SIZE);
  });

  it('refuses what is not one integer', () => {
    for (const raw of ['abc', '1.5', 'Infinity', ['1', '2'], { a: '1' }, 5]) expect(refusal(() => clampLimit(raw))).toBe('limit must be an integer');
  });
});

describe('Pager', () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `id-${i}` }));

  it('page(): limit + 1 rows give a page with a next cursor; limit rows or fewer give none', () => {
    const p = pager();
    const req: PageRequest = { limit: 2, after: null, fingerprint: 'f' };
    const full = p.page(ids(3), req, (r) => [r.id]);
    expect(full.items).toEqual(ids(2));
    expect(full.nextPageInfo).toEqual(expect.any(String));
    const last = p.page(ids(2), req, (r) => [r.id]);
    expect(last.items).toEqual(ids(2));
    expect(last.nextPageInfo).toBeNull();
  });

  it('request(): the first page has no position; a cursor it issued reads back to the last row position', () => {
    const p = pager();
    const first = p.request(request({ limit: '2', q: 'x' }), 'admin.collections');
    expect(first).toEqual({ limit: 2, after: null, fingerprint: expect.any(String) });
    const cursor = p.page(ids(3), first, (r) => [r.id, 7]).nextPageInfo!;
    const second = p.request(request({ q: 'x', limit: '2', page_info: cursor }), 'admin.collections');
    expect(second).toEqual({ limit: 2, after: ['id-1', 7], fingerprint: first.fingerprint });
  });

  it('the fingerprint ignores limit and the order of parameters, not their values, the list or the path', () => {
    const p = pager();
    const base = p.request(request({ a: '1', b: '2', limit: '5' }), 'list').fingerprint;
    expect(p.request(request({ b: '2', a: '1' }), 'list').fingerprint).toBe(base);
    expect(p.request(request({ a: '1', b: '3' }), 'list').fingerprint).not.toBe(base);
    expect(p.request(request({ a: '1', b: '2' }), 'other').fingerprint).not.toBe(base);
    expect(p.request(request({ a: '1', b: '2' }, '/admin/other'), 'list').fingerprint).not.toBe(base);
  });

  it('refuses a cursor used with other filters, forged, from another secret, or malformed', () => {
    const p = pager();
    const first = p.request(request({ q: 'x' }), 'list');
    const cursor = p.encode(first.fingerprint, ['id-1']);
    expect(refusal(() => p.request(request({ q: 'y', page_info: cursor }), 'list'))).toMatch(/^page_info does not match this query/);
    const [payload] = cursor.split('.');
    const forged = `${Buffer.from(JSON.stringify({ f: first.fingerprint, a: ['id-0'] })).toString('base64url')}.${cursor.split('.')[1]}`;
    expect(refusal(() => p.request(request({ q: 'x', page_info: forged }), 'list'))).toBe('page_info is invalid');
    expect(refusal(() => pager('other').request(request({ q: 'x', page_info: cursor }), 'list'))).toBe('page_info is invalid');
    for (const bad of ['nodot', `${payload}.`, '.sig', ['a', 'b']]) {
      expect(refusal(() => p.request(request({ q: 'x', page_info: bad }), 'list'))).toBe('page_info is invalid');
    }
  });

  it('refuses a correctly signed payload that is not JSON or holds no position list', () => {
    const p = pager('s');
    const fp = p.request(request({}), 'list').fingerprint;
    // the signature scheme of Pager.sign(): HMAC(HMAC(APP_SECRET, "page_info"), payload), base64url, 32 characters
    const key = createHmac('sha256', 's').update('page_info').digest();
    const signed = (payload: string) => `${payload}.${createHmac('sha256', key).update(payload).digest('base64url').slice(0, 32)}`;
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    expect(p.request(request({ page_info: signed(b64(JSON.stringify({ f: fp, a: ['x'] }))) }), 'list').after).toEqual(['x']);
    expect(refusal(() => p.request(request({ page_info: signed(b64('not json')) }), 'list'))).toBe('page_info is invalid');
    expect(refusal(() => p.request(request({ page_info: signed(b64(JSON.stringify({ f: fp, a: 'x' }))) }), 'list'))).toBe('page_info is invalid');
  });
});
