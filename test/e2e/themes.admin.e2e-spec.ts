import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { RequestContext } from '../../src/common/context/request-context.js';
import { ThemesService } from '../../src/themes/themes.service.js';
import { listLibraryThemes } from '../../src/themes/theme-library.js';
import { API, createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { raw } from './themes.helpers.js';

const MB20 = 20 * 1024 * 1024;

describe('admin themes', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let mainId: string;

  const themes = () => t.get(ThemesService);
  const ctxOf = (s: TestShop) => RequestContext.forTenant(s.tenant.id);
  const newTheme = async (s: TestShop, key = 'vineyard', name?: string) => (await themes().createFromLibrary(ctxOf(s), key, name)).id;
  const mains = async (s: TestShop) =>
    ((await s.admin.get('/admin/themes').expect(200)).body.themes as Array<{ id: string; role: string }>).filter((x) => x.role === 'main');
  const chunkRows = async (tenantId: string) =>
    Number((await t.db.query('SELECT count(*)::int AS n FROM theme_asset_blob_chunks WHERE tenant_id = $1', [tenantId]))[0].n);
  const putData = (s: TestShop, themeId: string, key: string, body: Buffer, contentType = 'application/octet-stream') =>
    raw(t, 'PUT', `${API}/admin/themes/${themeId}/assets/data?key=${encodeURIComponent(key)}`, {
      headers: { Authorization: `Bearer ${s.admin_token}`, 'Content-Type': contentType },
      body,
    });
  const getData = (s: TestShop, themeId: string, key: string, headers: Record<string, string> = {}) =>
    raw(t, 'GET', `${API}/admin/themes/${themeId}/assets/data?key=${encodeURIComponent(key)}`, {
      headers: { Authorization: `Bearer ${s.admin_token}`, ...headers },
    });

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    other = await t.createShop();
    mainId = (await mains(shop))[0].id;
  });
  afterAll(() => t.close());

  describe('themes', () => {
    it('a new shop has exactly one theme, the main one, copied from the library', async () => {
      const res = await shop.admin.get('/admin/themes').expect(200);
      expect(Object.keys(res.body)).toEqual(['themes']);
      expect(res.body.themes).toEqual([
        { id: expect.any(String), name: 'Cellar', role: 'main', theme_key: 'cellar', created_at: expect.stringMatching(/^\d{4}-/), updated_at: null },
      ]);
      const one = await shop.admin.get(`/admin/themes/${mainId}`).expect(200);
      expect(one.body).toEqual({ theme: res.body.themes[0] });
    });

    it('ships at least two library themes, each a real file set', async () => {
      const keys = listLibraryThemes();
      expect(keys).toEqual(expect.arrayContaining(['cellar', 'vineyard']));
      const id = await newTheme(shop, 'vineyard', 'Summer look');
      const theme = (await shop.admin.get(`/admin/themes/${id}`).expect(200)).body.theme;
      expect(theme).toMatchObject({ id, name: 'Summer look', role: 'unpublished', theme_key: 'vineyard' });
      const text = (await shop.admin.get(`/admin/themes/${id}/assets`).expect(200)).body.assets as Array<{ key: string; content_type: string }>;
      const keysOf = text.map((a) => a.key);
      expect(keysOf).toEqual(
        expect.arrayContaining(['layout/theme.liquid', 'templates/index.liquid', 'templates/product.liquid', 'assets/base.css', 'config/settings_data.json']),
      );
      expect(text.find((a) => a.key === 'assets/base.css')?.content_type).toBe('text/css');
      expect(text.find((a) => a.key === 'layout/theme.liquid')?.content_type).toBe('text/x-liquid');
      // the default theme also carries a binary file, stored in the asset store
      const media = (await shop.admin.get(`/admin/themes/${mainId}/assets/data`).expect(200)).body.assets;
      expect(media).toEqual([
        {
          key: 'assets/favicon.png',
          size: expect.any(Number),
          content_type: 'image/png',
          updated_at: expect.any(String),
          url: `/storefront/themes/${mainId}/assets/assets/favicon.png`,
        },
      ]);
      await expect(themes().createFromLibrary(ctxOf(shop), 'nope')).rejects.toMatchObject({ status: 422 });
    });

    it('unknown theme is 404, a malformed id 422', async () => {
      const unknown = '00000000-0000-4000-8000-000000000000';
      const res = await shop.admin.get(`/admin/themes/${unknown}`).expect(404);
      expect(res.body).toEqual({ errors: expect.any(String) });
      await shop.admin.put(`/admin/themes/${unknown}`, { name: 'x' }).expect(404);
      await shop.admin.get(`/admin/themes/${unknown}/assets`).expect(404);
      await shop.admin.get(`/admin/themes/${unknown}/assets?key=a.css`).expect(404);
      await shop.admin.put(`/admin/themes/${unknown}/assets`, { key: 'a.css', value: 'x' }).expect(404);
      await shop.admin.delete(`/admin/themes/${unknown}/assets?key=a.css`).expect(404);
      await shop.admin.get(`/admin/themes/${unknown}/assets/data`).expect(404);
      await shop.admin.get(`/admin/themes/${unknown}/assets/data?key=a.png`).expect(404);
      expect((await putData(shop, unknown, 'a.png', Buffer.from('x'))).status).toBe(404);
      await shop.admin.delete(`/admin/themes/${unknown}/assets/data?key=a.png`).expect(404);
      await shop.admin.get('/admin/themes/not-a-uuid').expect(422);
    });

    it('PUT role main demotes the old main; unpublished on the main is a no-op', async () => {
      const s = await t.createShop();
      const first = (await mains(s))[0].id;
      const second = await newTheme(s);
      const res = await s.admin.put(`/admin/themes/${second}`, { role: 'main' }).expect(200);
      expect(res.body.theme).toMatchObject({ id: second, role: 'main', updated_at: expect.any(String) });
      expect((await s.admin.get(`/admin/themes/${first}`)).body.theme.role).toBe('unpublished');
      expect((await mains(s)).map((m) => m.id)).toEqual([second]);

      const noop = await s.admin.put(`/admin/themes/${second}`, { role: 'unpublished' }).expect(200);
      expect(noop.body.theme.role).toBe('main');
      expect((await mains(s)).map((m) => m.id)).toEqual([second]);

      // main again on the main theme changes nothing either
      await s.admin.put(`/admin/themes/${second}`, { role: 'main' }).expect(200);
      expect((await mains(s)).map((m) => m.id)).toEqual([second]);
      const renamed = await s.admin.put(`/admin/themes/${first}`, { name: '  Winter  ' }).expect(200);
      expect(renamed.body.theme).toMatchObject({ name: 'Winter', role: 'unpublished' });
    });

    it.each([
      ['an unknown role', { role: 'published' }],
      ['a role of the wrong type', { role: 1 }],
      ['a blank name', { name: '   ' }],
      ['a name of the wrong type', { name: 5 }],
      ['a missing body', undefined],
      ['a body that is not an object', '[1]'],
    ])('PUT with %s is 422 and changes nothing', async (_what, body) => {
      const before = (await shop.admin.get(`/admin/themes/${mainId}`)).body.theme;
      const req = shop.admin.put(`/admin/themes/${mainId}`);
      const res = await (
        body === undefined ? req : req.set('Content-Type', 'application/json').send(typeof body === 'string' ? body : JSON.stringify(body))
      ).expect(422);
      expect(res.body).toEqual({ errors: expect.any(String) });
      expect((await shop.admin.get(`/admin/themes/${mainId}`)).body.theme).toEqual(before);
    });

    it('concurrent PUTs making different themes main leave exactly one main', async () => {
      const s = await t.createShop();
      const ids = [(await mains(s))[0].id, await newTheme(s), await newTheme(s, 'cellar'), await newTheme(s)];
      for (let round = 0; round < 5; round++) {
        const results = await Promise.all(ids.map((id) => s.admin.put(`/admin/themes/${id}`, { role: 'main' })));
        expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
        const now = await mains(s);
        expect(now).toHaveLength(1);
        const rows = await t.db.query(`SELECT count(*)::int AS n FROM themes WHERE tenant_id = $1 AND role = 'main'`, [s.tenant.id]);
        expect(rows[0].n).toBe(1);
      }
    });

    it('deleting a theme removes its assets and their bytes; the main theme cannot be deleted', async () => {
      const s = await t.createShop();
      const main = (await mains(s))[0].id;
      const before = await chunkRows(s.tenant.id);
      const id = await newTheme(s);
      expect((await putData(s, id, 'img/big.bin', randomBytes(600_000))).status).toBe(200);
      expect(await chunkRows(s.tenant.id)).toBe(before + 3);
      await s.admin.delete(`/admin/themes/${main}`).expect(422);
      await s.admin.delete(`/admin/themes/${id}`).expect(204);
      await s.admin.delete(`/admin/themes/${id}`).expect(404);
      expect(await chunkRows(s.tenant.id)).toBe(before);
      expect((await t.db.query('SELECT count(*)::int AS n FROM theme_assets WHERE theme_id = $1', [id]))[0].n).toBe(0);
    });
  });

  describe('text assets', () => {
    it('upserts, reads by key, lists rows without content, deletes', async () => {
      const value = '.price { color: #7b1e3a; } /* Grüsse */';
      const put = await shop.admin.put(`/admin/themes/${mainId}/assets`, { key: 'assets/custom.css', value }).expect(200);
      expect(put.body).toEqual({ asset: { key: 'assets/custom.css', value, size: Buffer.byteLength(value), content_type: 'text/css' } });
      expect(Buffer.byteLength(value)).toBe(value.length + 1);

      const one = await shop.admin.get(`/admin/themes/${mainId}/assets?key=assets/custom.css`).expect(200);
      expect(one.body).toEqual(put.body);

      const list = await shop.admin.get(`/admin/themes/${mainId}/assets`).expect(200);
      expect(Object.keys(list.body)).toEqual(['assets']);
      const row = list.body.assets.find((a: { key: string }) => a.key === 'assets/custom.css');
      expect(row).toEqual({ key: 'assets/custom.css', size: Buffer.byteLength(value), content_type: 'text/css', updated_at: expect.stringMatching(/^\d{4}-/) });
      expect(list.body.assets.every((a: object) => !('value' in a))).toBe(true);
      expect(list.body.assets.map((a: { key: string }) => a.key)).toEqual([...list.body.assets.map((a: { key: string }) => a.key)].sort());

      await new Promise((r) => setTimeout(r, 20));
      const again = await shop.admin.put(`/admin/themes/${mainId}/assets`, { key: 'assets/custom.css', value: 'a{}' }).expect(200);
      expect(again.body.asset).toMatchObject({ value: 'a{}', size: 3 });
      const row2 = (await shop.admin.get(`/admin/themes/${mainId}/assets`)).body.assets.find((a: { key: string }) => a.key === 'assets/custom.css');
      expect(new Date(row2.updated_at).getTime()).toBeGreaterThan(new Date(row.updated_at).getTime());

      await shop.admin
        .delete(`/admin/themes/${mainId}/assets?key=assets/custom.css`)
        .expect(204)
        .expect((r) => expect(r.text).toBe(''));
      const gone = await shop.admin.get(`/admin/themes/${mainId}/assets?key=assets/custom.css`).expect(404);
      expect(gone.body).toEqual({ errors: expect.any(String) });
      await shop.admin.delete(`/admin/themes/${mainId}/assets?key=assets/custom.css`).expect(404);
    });

    it('derives content types from the extension', async () => {
      const cases: Array<[string, string]> = [
        ['templates/x.liquid', 'text/x-liquid'],
        ['config/x.json', 'application/json'],
        ['assets/x.js', 'text/javascript'],
        ['assets/x.svg', 'image/svg+xml'],
        ['README', 'text/plain'],
        ['assets/x.png', 'text/plain'],
      ];
      for (const [key, type] of cases) {
        const res = await shop.admin.put(`/admin/themes/${mainId}/assets`, { key, value: '{}' }).expect(200);
        expect(res.body.asset.content_type).toBe(type);
        await shop.admin.delete(`/admin/themes/${mainId}/assets?key=${key}`).expect(204);
      }
    });

    it.each([
      ['a missing body', undefined],
      ['a missing key', { value: 'x' }],
      ['a missing value', { key: 'a.css' }],
      ['a key of the wrong type', { key: 5, value: 'x' }],
      ['a value of the wrong type', { key: 'a.css', value: { x: 1 } }],
      ['an empty key', { key: '', value: 'x' }],
    ])('PUT with %s is 422', async (_what, body) => {
      const res = await shop.admin.put(`/admin/themes/${mainId}/assets`, body).expect(422);
      expect(res.body).toEqual({ errors: expect.any(String) });
    });

    it('DELETE without a key, or with an empty or repeated key, is 422', async () => {
      await shop.admin.delete(`/admin/themes/${mainId}/assets`).expect(422);
      await shop.admin.delete(`/admin/themes/${mainId}/assets?key=`).expect(422);
      await shop.admin.delete(`/admin/themes/${mainId}/assets?key=a.css&key=b.css`).expect(422);
      await shop.admin.get(`/admin/themes/${mainId}/assets?key[x]=a.css`).expect(422);
    });

    it('a key holding a binary asset is not a text asset, and a text upsert replaces it', async () => {
      expect((await putData(shop, mainId, 'assets/swap.bin', Buffer.from([1, 2, 3]))).status).toBe(200);
      await shop.admin.get(`/admin/themes/${mainId}/assets?key=assets/swap.bin`).expect(404);
      await shop.admin.delete(`/admin/themes/${mainId}/assets?key=assets/swap.bin`).expect(404);
      const chunks = await chunkRows(shop.tenant.id);
      await shop.admin.put(`/admin/themes/${mainId}/assets`, { key: 'assets/swap.bin', value: 'now text' }).expect(200);
      expect(await chunkRows(shop.tenant.id)).toBe(chunks - 1);
      await shop.admin.get(`/admin/themes/${mainId}/assets/data?key=assets/swap.bin`).expect(404);
      await shop.admin.delete(`/admin/themes/${mainId}/assets?key=assets/swap.bin`).expect(204);
    });
  });

  describe('asset keys', () => {
    const malicious: Array<[string, string]> = [
      ['../x', encodeURIComponent('../x')],
      ['a/../../b', encodeURIComponent('a/../../b')],
      ['/etc/passwd', encodeURIComponent('/etc/passwd')],
      ['a\\b', encodeURIComponent('a\\b')],
      ['%2e%2e/x (decoded by the query parser)', '%2e%2e/x'],
      ['a NUL', 'a%00b.css'],
      ['256 characters', 'a'.repeat(256)],
      ['a . segment', './x.css'],
      ['an empty segment', 'a//b.css'],
      ['a trailing slash', 'a/'],
      ['a space', 'a%20b.css'],
      ['a non-ASCII character', encodeURIComponent('ä.css')],
    ];

    it.each(malicious)('%s is 422 on every asset endpoint', async (_what, q) => {
      const base = `/admin/themes/${mainId}`;
      const results = [
        await shop.admin.get(`${base}/assets?key=${q}`),
        await shop.admin.delete(`${base}/assets?key=${q}`),
        await shop.admin.get(`${base}/assets/data?key=${q}`),
        await shop.admin.delete(`${base}/assets/data?key=${q}`),
      ];
      const put = await raw(t, 'PUT', `${API}${base}/assets/data?key=${q}`, {
        headers: { Authorization: `Bearer ${shop.admin_token}`, 'Content-Type': 'image/png' },
        body: Buffer.from('x'),
      });
      expect(results.map((r) => r.status)).toEqual([422, 422, 422, 422]);
      for (const r of results) expect(r.body).toEqual({ errors: expect.stringContaining('key') });
      expect(put.status).toBe(422);
      expect(JSON.parse(put.body.toString())).toEqual({ errors: expect.stringContaining('key') });
    });

    it.each([['../x'], ['a/../../b'], ['/etc/passwd'], ['a\\b'], ['a\u0000b'], ['a'.repeat(256)], ['..']])('PUT text with key %j is 422', async (key) => {
      const res = await shop.admin.put(`/admin/themes/${mainId}/assets`, { key, value: 'x' }).expect(422);
      expect(res.body.errors).toContain('key');
    });

    it('accepts a 255-character key and nested paths', async () => {
      const key = `${'d/'.repeat(10)}${'k'.repeat(235)}`;
      expect(key).toHaveLength(255);
      await shop.admin.put(`/admin/themes/${mainId}/assets`, { key, value: 'ok' }).expect(200);
      await shop.admin.get(`/admin/themes/${mainId}/assets?key=${key}`).expect(200);
      await shop.admin.delete(`/admin/themes/${mainId}/assets?key=${key}`).expect(204);
      const res = await shop.admin.put(`/admin/themes/${mainId}/assets`, { key: 'assets/.hidden_file-1.v2.css', value: '' }).expect(200);
      expect(res.body.asset).toMatchObject({ size: 0, value: '' });
    });

    it('no asset row ever holds a bad key', async () => {
      const rows: Array<{ key: string }> = await t.db.query('SELECT key FROM theme_assets');
      for (const r of rows) expect(r.key).toMatch(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/);
    });
  });

  describe('binary assets', () => {
    it('round-trips 5 MB byte for byte with the stored Content-Type, Content-Length and ETag; 304 on If-None-Match', async () => {
      const bytes = randomBytes(5 * 1024 * 1024);
      const put = await putData(shop, mainId, 'assets/hero.png', bytes, 'image/png');
      expect(put.status).toBe(200);
      const asset = JSON.parse(put.body.toString()).asset;
      expect(asset).toEqual({
        key: 'assets/hero.png',
        size: bytes.length,
        content_type: 'image/png',
        updated_at: expect.stringMatching(/^\d{4}-/),
        url: `/storefront/themes/${mainId}/assets/assets/hero.png`,
      });

      const got = await getData(shop, mainId, 'assets/hero.png');
      expect(got.status).toBe(200);
      expect(got.headers['content-type']).toBe('image/png');
      expect(got.headers['content-length']).toBe(String(bytes.length));
      expect(got.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
      expect(got.headers['x-content-type-options']).toBe('nosniff');
      expect(Buffer.compare(got.body, bytes)).toBe(0);

      const cached = await getData(shop, mainId, 'assets/hero.png', { 'If-None-Match': String(got.headers.etag) });
      expect(cached.status).toBe(304);
      expect(cached.body.length).toBe(0);
      const stale = await getData(shop, mainId, 'assets/hero.png', { 'If-None-Match': '"something-else"' });
      expect(stale.status).toBe(200);

      const list = await shop.admin.get(`/admin/themes/${mainId}/assets/data`).expect(200);
      expect(Object.keys(list.body)).toEqual(['assets']);
      expect(list.body.assets).toContainEqual(asset);
      // binary assets are not text assets
      const text = (await shop.admin.get(`/admin/themes/${mainId}/assets`)).body.assets.map((a: { key: string }) => a.key);
      expect(text).not.toContain('assets/hero.png');
    });

    it('replacing and deleting leave no orphaned bytes', async () => {
      const base = await chunkRows(shop.tenant.id);
      expect((await putData(shop, mainId, 'fonts/a.woff2', randomBytes(700_000), 'font/woff2')).status).toBe(200);
      expect(await chunkRows(shop.tenant.id)).toBe(base + 3);
      const second = randomBytes(100);
      const put = await putData(shop, mainId, 'fonts/a.woff2', second, 'font/woff2');
      expect(put.status).toBe(200);
      expect(JSON.parse(put.body.toString()).asset.size).toBe(100);
      expect(await chunkRows(shop.tenant.id)).toBe(base + 1);
      expect(Buffer.compare((await getData(shop, mainId, 'fonts/a.woff2')).body, second)).toBe(0);
      await shop.admin.delete(`/admin/themes/${mainId}/assets/data?key=fonts/a.woff2`).expect(204);
      expect(await chunkRows(shop.tenant.id)).toBe(base);
      await shop.admin.delete(`/admin/themes/${mainId}/assets/data?key=fonts/a.woff2`).expect(404);
      const gone = await shop.admin.get(`/admin/themes/${mainId}/assets/data?key=fonts/a.woff2`).expect(404);
      expect(gone.body).toEqual({ errors: expect.any(String) });
    });

    it('stores an empty body and defaults a missing Content-Type to application/octet-stream', async () => {
      const res = await raw(t, 'PUT', `${API}/admin/themes/${mainId}/assets/data?key=empty.bin`, {
        headers: { Authorization: `Bearer ${shop.admin_token}` },
        body: Buffer.alloc(0),
      });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body.toString()).asset).toMatchObject({ size: 0, content_type: 'application/octet-stream' });
      const got = await getData(shop, mainId, 'empty.bin');
      expect(got.status).toBe(200);
      expect(got.headers['content-length']).toBe('0');
      const bad = await raw(t, 'PUT', `${API}/admin/themes/${mainId}/assets/data?key=bad.bin`, {
        headers: { Authorization: `Bearer ${shop.admin_token}`, 'Content-Type': 'not a type' },
        body: Buffer.from('x'),
      });
      expect(bad.status).toBe(422);
    });

    it('takes JSON-typed bodies raw, as bytes', async () => {
      const body = Buffer.from('{"not": "parsed"');
      const res = await putData(shop, mainId, 'data/broken.json', body, 'application/json');
      expect(res.status).toBe(200);
      expect((await getData(shop, mainId, 'data/broken.json')).body.toString()).toBe('{"not": "parsed"');
    });

    it('accepts exactly 20 MB', async () => {
      const res = await putData(shop, mainId, 'big/exact.bin', Buffer.alloc(MB20, 7));
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body.toString()).asset.size).toBe(MB20);
      await shop.admin.delete(`/admin/themes/${mainId}/assets/data?key=big/exact.bin`).expect(204);
    });

    it('20 MB + 1 byte is 413 with the error envelope, and nothing is stored', async () => {
      const chunks = await chunkRows(shop.tenant.id);
      const res = await putData(shop, mainId, 'big/over.bin', Buffer.alloc(MB20 + 1, 1));
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body.toString())).toEqual({ errors: expect.stringContaining('20 MB') });
      await shop.admin.get(`/admin/themes/${mainId}/assets/data?key=big/over.bin`).expect(404);
      expect(await chunkRows(shop.tenant.id)).toBe(chunks);
    });

    it('a Content-Length over 20 MB is refused before the body is read', async () => {
      // announces 20 MB + 1 but sends only a few bytes: the answer cannot depend on reading the body
      const server = await raw(t, 'PUT', `${API}/admin/themes/${mainId}/assets/data?key=big/liar.bin`, {
        headers: { Authorization: `Bearer ${shop.admin_token}`, 'Content-Type': 'image/png', 'Content-Length': String(MB20 + 1) },
        chunks: async function* () {
          yield Buffer.alloc(10);
        },
      }).catch((err: unknown) => err);
      expect((server as { status?: number }).status).toBe(413);
    });

    it('a chunked body passing 20 MB is 413 while streaming, and nothing is stored', async () => {
      const chunks = await chunkRows(shop.tenant.id);
      const piece = Buffer.alloc(1024 * 1024, 3);
      const res = await raw(t, 'PUT', `${API}/admin/themes/${mainId}/assets/data?key=big/chunked.bin`, {
        headers: { Authorization: `Bearer ${shop.admin_token}`, 'Content-Type': 'application/octet-stream' },
        chunks: async function* () {
          for (let i = 0; i < 20; i++) yield piece;
          yield Buffer.alloc(1);
        },
      });
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body.toString())).toEqual({ errors: expect.any(String) });
      await shop.admin.get(`/admin/themes/${mainId}/assets/data?key=big/chunked.bin`).expect(404);
      expect(await chunkRows(shop.tenant.id)).toBe(chunks);
      // the connection-level state is sane afterwards
      await shop.admin.get(`/admin/themes/${mainId}`).expect(200);
    });

    it('a chunked body within the limit is stored', async () => {
      const parts = [randomBytes(300_000), randomBytes(5), randomBytes(1_000_000)];
      const res = await raw(t, 'PUT', `${API}/admin/themes/${mainId}/assets/data?key=chunked/ok.bin`, {
        headers: { Authorization: `Bearer ${shop.admin_token}`, 'Content-Type': 'application/octet-stream' },
        chunks: async function* () {
          yield* parts;
        },
      });
      expect(res.status).toBe(200);
      expect(Buffer.compare((await getData(shop, mainId, 'chunked/ok.bin')).body, Buffer.concat(parts))).toBe(0);
    });

    it('PUT or DELETE without a key is 422', async () => {
      const put = await raw(t, 'PUT', `${API}/admin/themes/${mainId}/assets/data`, {
        headers: { Authorization: `Bearer ${shop.admin_token}` },
        body: Buffer.from('x'),
      });
      expect(put.status).toBe(422);
      await shop.admin.delete(`/admin/themes/${mainId}/assets/data`).expect(422);
    });
  });

  it('documents the theme endpoints in OpenAPI', async () => {
    const doc = (await t.http().get(`${API}/openapi.json`).expect(200)).body as { paths: Record<string, Record<string, unknown>> };
    const paths = Object.keys(doc.paths).filter((p) => p.includes('themes'));
    expect(paths).toEqual(
      expect.arrayContaining([`${API}/admin/themes`, `${API}/admin/themes/{id}`, `${API}/admin/themes/{id}/assets`, `${API}/admin/themes/{id}/assets/data`]),
    );
    expect(Object.keys(doc.paths[`${API}/admin/themes/{id}/assets/data`])).toEqual(expect.arrayContaining(['get', 'put', 'delete']));
  });

  describe('access', () => {
    it('needs Shop/themes/read to read and Shop/themes/write to write (403), a token at all (401)', async () => {
      const mint = async (scopes: string[]) =>
        (await shop.admin.post('/admin/access_tokens', { label: 't', tier: 'admin', scopes }).expect(201)).body.access_token.token as string;
      const reader = t.client(await mint(['Shop/themes/read']));
      const writer = t.client(await mint(['Shop/themes/write']));
      await reader.get('/admin/themes').expect(200);
      await reader.get(`/admin/themes/${mainId}/assets`).expect(200);
      await reader.get(`/admin/themes/${mainId}/assets/data`).expect(200);
      await reader.put(`/admin/themes/${mainId}`, { name: 'x' }).expect(403);
      await reader.put(`/admin/themes/${mainId}/assets`, { key: 'a.css', value: 'x' }).expect(403);
      await reader.delete(`/admin/themes/${mainId}/assets?key=a.css`).expect(403);
      await reader.delete(`/admin/themes/${mainId}/assets/data?key=a.css`).expect(403);
      const put = await raw(t, 'PUT', `${API}/admin/themes/${mainId}/assets/data?key=a.bin`, {
        headers: { Authorization: `Bearer ${reader.token}` },
        body: Buffer.from('x'),
      });
      expect(put.status).toBe(403);
      await writer.get('/admin/themes').expect(403);
      await writer.get(`/admin/themes/${mainId}/assets/data?key=assets/favicon.png`).expect(403);
      await writer.put(`/admin/themes/${mainId}`, { name: 'Cellar' }).expect(200);
      await t.client(null).get('/admin/themes').expect(401);
      await t.client(shop.storefront_token).get('/admin/themes').expect(401);
    });

    it("another shop's theme ids are 404 everywhere", async () => {
      const theirs = (await mains(other))[0].id;
      await shop.admin.get(`/admin/themes/${theirs}`).expect(404);
      await shop.admin.put(`/admin/themes/${theirs}`, { role: 'main' }).expect(404);
      await shop.admin.delete(`/admin/themes/${theirs}`).expect(404);
      await shop.admin.get(`/admin/themes/${theirs}/assets`).expect(404);
      await shop.admin.get(`/admin/themes/${theirs}/assets?key=layout/theme.liquid`).expect(404);
      await shop.admin.put(`/admin/themes/${theirs}/assets`, { key: 'x.css', value: 'x' }).expect(404);
      await shop.admin.delete(`/admin/themes/${theirs}/assets?key=layout/theme.liquid`).expect(404);
      await shop.admin.get(`/admin/themes/${theirs}/assets/data`).expect(404);
      await shop.admin.get(`/admin/themes/${theirs}/assets/data?key=assets/favicon.png`).expect(404);
      expect((await putData(shop, theirs, 'x.bin', Buffer.from('x'))).status).toBe(404);
      await shop.admin.delete(`/admin/themes/${theirs}/assets/data?key=assets/favicon.png`).expect(404);
      // theirs is untouched
      expect((await mains(other)).map((m) => m.id)).toEqual([theirs]);
      expect((await other.admin.get(`/admin/themes/${theirs}/assets?key=layout/theme.liquid`).expect(200)).body.asset.key).toBe('layout/theme.liquid');
      expect((await shop.admin.get('/admin/themes')).body.themes.map((x: { id: string }) => x.id)).not.toContain(theirs);
    });
  });
});
