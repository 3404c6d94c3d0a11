import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RequestContext } from '../../src/common/context/request-context.js';
import { AssetStores } from '../../src/themes/storage/asset-store.js';
import { ConfiguredAssetStores } from '../../src/themes/storage/asset-stores.provider.js';
import { ThemesService } from '../../src/themes/themes.service.js';
import { API, createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { raw } from './themes.helpers.js';

async function mainThemeId(s: TestShop): Promise<string> {
  const list = (await s.admin.get('/admin/themes').expect(200)).body.themes as Array<{ id: string; role: string }>;
  return list.find((x) => x.role === 'main')!.id;
}

function upload(t: TestApp, s: TestShop, themeId: string, key: string, body: Buffer, contentType: string) {
  return raw(t, 'PUT', `${API}/admin/themes/${themeId}/assets/data?key=${encodeURIComponent(key)}`, {
    headers: { Authorization: `Bearer ${s.admin_token}`, 'Content-Type': contentType },
    body,
  });
}

describe('storefront theme assets', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let themeId: string;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    other = await t.createShop();
    themeId = await mainThemeId(shop);
  });
  afterAll(() => t.close());

  it('serves a binary asset at its url right after upload, without auth, with the CONTRACT 4 headers', async () => {
    const bytes = randomBytes(300_000);
    const put = await upload(t, shop, themeId, 'assets/photo.jpg', bytes, 'image/jpeg');
    expect(put.status).toBe(200);
    const { url } = JSON.parse(put.body.toString()).asset;
    expect(url).toBe(`/storefront/themes/${themeId}/assets/assets/photo.jpg`);

    const res = await raw(t, 'GET', url);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(Buffer.compare(res.body, bytes)).toBe(0);
    // same ETag as the admin read
    const admin = await raw(t, 'GET', `${API}/admin/themes/${themeId}/assets/data?key=assets/photo.jpg`, {
      headers: { Authorization: `Bearer ${shop.admin_token}` },
    });
    expect(admin.headers.etag).toBe(res.headers.etag);

    const cached = await raw(t, 'GET', url, { headers: { 'If-None-Match': String(res.headers.etag) } });
    expect(cached.status).toBe(304);
    expect(cached.body.length).toBe(0);
    expect(cached.headers.etag).toBe(res.headers.etag);
    const weak = await raw(t, 'GET', url, { headers: { 'If-None-Match': `"x", W/${res.headers.etag}` } });
    expect(weak.status).toBe(304);

    const head = await raw(t, 'HEAD', url);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(bytes.length));
    expect(head.body.length).toBe(0);

    // a replacement is served at once, with a new ETag
    const next = randomBytes(1000);
    expect((await upload(t, shop, themeId, 'assets/photo.jpg', next, 'image/webp')).status).toBe(200);
    const again = await raw(t, 'GET', url, { headers: { 'If-None-Match': String(res.headers.etag) } });
    expect(again.status).toBe(200);
    expect(again.headers['content-type']).toBe('image/webp');
    expect(again.headers.etag).not.toBe(res.headers.etag);
    expect(Buffer.compare(again.body, next)).toBe(0);
  });

  it('sandboxes HTML and SVG with Content-Security-Policy', async () => {
    const html = Buffer.from('<!doctype html><script>alert(document.cookie)</script>');
    expect((await upload(t, shop, themeId, 'pages/x.html', html, 'text/html; charset=utf-8')).status).toBe(200);
    const page = await raw(t, 'GET', `/storefront/themes/${themeId}/assets/pages/x.html`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe('sandbox');
    expect(page.headers['x-content-type-options']).toBe('nosniff');

    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect((await upload(t, shop, themeId, 'icons/evil.svg', svg, 'image/svg+xml')).status).toBe(200);
    const icon = await raw(t, 'GET', `/storefront/themes/${themeId}/assets/icons/evil.svg`);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['content-security-policy']).toBe('sandbox');

    // text assets of the theme (the library's stylesheet and logo) are served too, typed by extension
    const css = await raw(t, 'GET', `/storefront/themes/${themeId}/assets/assets/theme.css`);
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['content-security-policy']).toBeUndefined();
    expect(css.body.toString()).toContain('--color-accent');
    const logo = await raw(t, 'GET', `/storefront/themes/${themeId}/assets/assets/logo.svg`);
    expect(logo.headers['content-security-policy']).toBe('sandbox');
    const favicon = await raw(t, 'GET', `/storefront/themes/${themeId}/assets/assets/favicon.png`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers['content-type']).toBe('image/png');
    expect(favicon.body.subarray(1, 4).toString()).toBe('PNG');
  });

  it('serves any theme of the shop, the unpublished ones too', async () => {
    const draft = (await t.get(ThemesService).createFromLibrary(RequestContext.forTenant(shop.tenant.id), 'vineyard')).id;
    expect((await upload(t, shop, draft, 'preview.gif', Buffer.from('GIF89a'), 'image/gif')).status).toBe(200);
    const res = await raw(t, 'GET', `/storefront/themes/${draft}/assets/preview.gif`);
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('GIF89a');
    expect((await raw(t, 'GET', `/storefront/themes/${draft}/assets/assets/base.css`)).status).toBe(200);
  });

  it('unknown assets and themes are 404 with the error envelope', async () => {
    for (const path of [
      `/storefront/themes/${themeId}/assets/nope.png`,
      `/storefront/themes/00000000-0000-4000-8000-000000000000/assets/assets/favicon.png`,
      `/storefront/themes/${themeId}/assets/`,
    ]) {
      const res = await raw(t, 'GET', path);
      expect(res.status).toBe(404);
      expect(JSON.parse(res.body.toString())).toEqual({ errors: expect.any(String) });
    }
    // deleted through the admin API: gone from the storefront at once
    expect((await upload(t, shop, themeId, 'tmp.bin', Buffer.from('x'), 'application/octet-stream')).status).toBe(200);
    expect((await raw(t, 'GET', `/storefront/themes/${themeId}/assets/tmp.bin`)).status).toBe(200);
    await shop.admin.delete(`/admin/themes/${themeId}/assets/data?key=tmp.bin`).expect(204);
    expect((await raw(t, 'GET', `/storefront/themes/${themeId}/assets/tmp.bin`)).status).toBe(404);
  });

  it("keeps shops apart: a key of one shop's theme is not reachable through another's theme id", async () => {
    const theirs = await mainThemeId(other);
    expect((await upload(t, other, theirs, 'secret/only-theirs.bin', Buffer.from('theirs'), 'application/octet-stream')).status).toBe(200);
    expect((await raw(t, 'GET', `/storefront/themes/${themeId}/assets/secret/only-theirs.bin`)).status).toBe(404);
    expect((await raw(t, 'GET', `/storefront/themes/${theirs}/assets/secret/only-theirs.bin`)).body.toString()).toBe('theirs');
  });

  it('lives outside the versioned prefix', async () => {
    const res = await raw(t, 'GET', `${API}/storefront/themes/${themeId}/assets/assets/favicon.png`);
    expect(res.status).toBe(404);
    expect((await raw(t, 'POST', `/storefront/themes/${themeId}/assets/assets/favicon.png`)).status).toBe(405);
  });

  it.each([
    ['..%2Fx', 422],
    ['%2e%2e/x', 422],
    ['a/%2e%2e/%2e%2e/b', 422],
    ['a%5Cb', 422],
    ['a%00b', 422],
    ['a%20b', 422],
    ['a'.repeat(256), 422],
  ])('a malformed key in the path (%s) is refused', async (key, status) => {
    const res = await raw(t, 'GET', `/storefront/themes/${themeId}/assets/${key}`);
    expect(res.status).toBe(status);
    expect(JSON.parse(res.body.toString())).toEqual({ errors: expect.any(String) });
  });

  it('a malformed theme id is 422', async () => {
    expect((await raw(t, 'GET', '/storefront/themes/not-a-uuid/assets/a.css')).status).toBe(422);
  });
});

describe('filesystem asset store (THEME_ASSET_STORE=filesystem)', () => {
  let t: TestApp;
  let shop: TestShop;
  let themeId: string;
  const dir = mkdtempSync(join(tmpdir(), 'theme-assets-'));
  const files = (tenantId: string) => (existsSync(join(dir, tenantId)) ? readdirSync(join(dir, tenantId)) : []);

  beforeAll(async () => {
    t = await createTestApp({ config: { THEME_ASSET_STORE: 'filesystem', THEME_ASSET_DIR: dir } });
    shop = await t.createShop();
    themeId = await mainThemeId(shop);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the bytes as files, round-trips them, and deleting leaves no orphan', async () => {
    // the default theme's binary file went to the filesystem too
    const refs: Array<{ blob_ref: string }> = await t.db.query(`SELECT blob_ref FROM theme_assets WHERE tenant_id = $1 AND kind = 'binary'`, [shop.tenant.id]);
    expect(refs.map((r) => r.blob_ref)).toEqual([expect.stringMatching(/^fs:/)]);
    expect(Number((await t.db.query('SELECT count(*)::int AS n FROM theme_asset_blob_chunks'))[0].n)).toBe(0);
    const before = files(shop.tenant.id).length;
    expect(before).toBe(1);

    const bytes = randomBytes(5 * 1024 * 1024);
    const put = await upload(t, shop, themeId, 'media/clip.mp4', bytes, 'video/mp4');
    expect(put.status).toBe(200);
    expect(files(shop.tenant.id)).toHaveLength(before + 1);
    const [{ blob_ref: ref }] = await t.db.query(`SELECT blob_ref FROM theme_assets WHERE theme_id = $1 AND key = 'media/clip.mp4'`, [themeId]);
    const store = t.app.get<AssetStores, ConfiguredAssetStores>(AssetStores).filesystem;
    expect(Buffer.compare(readFileSync(store.path(ref)), bytes)).toBe(0);

    const admin = await raw(t, 'GET', `${API}/admin/themes/${themeId}/assets/data?key=media/clip.mp4`, {
      headers: { Authorization: `Bearer ${shop.admin_token}` },
    });
    expect(admin.status).toBe(200);
    expect(admin.headers['content-type']).toBe('video/mp4');
    expect(Buffer.compare(admin.body, bytes)).toBe(0);
    const sf = await raw(t, 'GET', `/storefront/themes/${themeId}/assets/media/clip.mp4`);
    expect(sf.status).toBe(200);
    expect(sf.headers['content-length']).toBe(String(bytes.length));
    expect(Buffer.compare(sf.body, bytes)).toBe(0);
    expect((await raw(t, 'GET', `/storefront/themes/${themeId}/assets/media/clip.mp4`, { headers: { 'If-None-Match': String(sf.headers.etag) } })).status).toBe(
      304,
    );

    // replacing removes the old file
    expect((await upload(t, shop, themeId, 'media/clip.mp4', Buffer.from('short'), 'video/mp4')).status).toBe(200);
    expect(existsSync(store.path(ref))).toBe(false);
    expect(files(shop.tenant.id)).toHaveLength(before + 1);

    await shop.admin.delete(`/admin/themes/${themeId}/assets/data?key=media/clip.mp4`).expect(204);
    expect(files(shop.tenant.id)).toHaveLength(before);
  });

  it('413 while streaming leaves no partial file', async () => {
    const piece = Buffer.alloc(1024 * 1024, 9);
    const res = await raw(t, 'PUT', `${API}/admin/themes/${themeId}/assets/data?key=big.bin`, {
      headers: { Authorization: `Bearer ${shop.admin_token}`, 'Content-Type': 'application/octet-stream' },
      chunks: async function* () {
        for (let i = 0; i < 21; i++) yield piece;
      },
    });
    expect(res.status).toBe(413);
    expect(files(shop.tenant.id).filter((f) => f.endsWith('.part'))).toEqual([]);
    expect(files(shop.tenant.id)).toHaveLength(1);
  });

  it('deleting a theme deletes its files', async () => {
    const draft = (await t.get(ThemesService).createFromLibrary(RequestContext.forTenant(shop.tenant.id), 'cellar', 'Copy')).id;
    expect(files(shop.tenant.id)).toHaveLength(2);
    expect((await upload(t, shop, draft, 'x/y.bin', randomBytes(10), 'application/octet-stream')).status).toBe(200);
    expect(files(shop.tenant.id)).toHaveLength(3);
    await shop.admin.delete(`/admin/themes/${draft}`).expect(204);
    expect(files(shop.tenant.id)).toHaveLength(1);
  });
});
