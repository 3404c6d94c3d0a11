import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, Module } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { API, createTestApp, ShopClient, TestApp, TestShop } from '../helpers/test-app.js';
import { CH_ADDRESS, checkoutWith, Ids, importShop } from './checkout.fixture.js';
import { raw } from './themes.helpers.js';

/**
 * SPEC's admin tables walked as an external tester would: exact key sets (SPEC's field lists), member types, and the
 * status of every listed error case; then the cross-cutting rules of SPEC and CONTRACT 1-4.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const keys = (o: object) => Object.keys(o).sort();
const sorted = (s: string) =>
  s
    .split(/[\s,;]+/)
    .filter(Boolean)
    .sort();

type Kind = 'uuid' | 'uuid?' | 'string' | 'string?' | 'boolean' | 'boolean?' | 'number' | 'int' | 'date' | 'date?' | 'object' | 'array';
function check(value: unknown, kind: Kind, path: string): void {
  const nullable = kind.endsWith('?');
  if (nullable && value === null) return;
  const k = kind.replace('?', '');
  const ok =
    k === 'uuid'
      ? typeof value === 'string' && UUID.test(value)
      : k === 'string'
        ? typeof value === 'string'
        : k === 'boolean'
          ? typeof value === 'boolean'
          : k === 'number'
            ? typeof value === 'number' && Number.isFinite(value)
            : k === 'int'
              ? typeof value === 'number' && Number.isInteger(value)
              : k === 'date'
                ? typeof value === 'string' && !Number.isNaN(Date.parse(value)) && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(value)
                : k === 'object'
                  ? typeof value === 'object' && value !== null && !Array.isArray(value)
                  : Array.isArray(value);
  if (!ok) throw new Error(`${path}: expected ${kind}, got ${JSON.stringify(value)}`);
}
/** Exact key set and member types. */
function shape(o: unknown, spec: Record<string, Kind>, path = 'body'): void {
  check(o, 'object', path);
  expect(keys(o as object)).toEqual(keys(spec));
  for (const [k, kind] of Object.entries(spec)) check((o as Record<string, unknown>)[k], kind, `${path}.${k}`);
}
/** Every non-2xx: `{errors, code?}` with errors a string. */
function envelope(body: unknown): void {
  check(body, 'object', 'error');
  const b = body as Record<string, unknown>;
  for (const k of Object.keys(b)) expect(['errors', 'code', 'request_id']).toContain(k);
  check(b.errors, 'string?', 'errors');
  if ('code' in b) check(b.code, 'string?', 'code');
}
async function fails(req: PromiseLike<{ status: number; body: unknown }>, status: number): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await req;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
  envelope(res.body);
  return res as { status: number; body: Record<string, unknown> };
}
function nextPath(link: string | undefined): string {
  expect(link).toMatch(/^<http:\/\/[^>]+>; rel="next"$/);
  const url = new URL(link!.slice(1, link!.indexOf('>')));
  expect(url.searchParams.get('limit')).not.toBeNull();
  expect(url.searchParams.get('page_info')).not.toBeNull();
  return url.pathname.slice(API.length) + url.search;
}

const IMAGE: Record<string, Kind> = { id: 'uuid', src: 'string?', preview_src: 'string?', alt: 'string?', position: 'int', width: 'int', height: 'int' };
const COLLECTION: Record<string, Kind> = {
  id: 'uuid',
  title: 'string?',
  handle: 'string?',
  body_html: 'string?',
  collection_type: 'string?',
  published: 'boolean',
  sort_order: 'string?',
  products_count: 'int',
  image: 'object',
  template_name: 'string?',
  rules_json: 'string?',
  meta_title: 'string?',
  meta_description: 'string?',
  created_at: 'date',
  updated_at: 'date?',
};
const THEME: Record<string, Kind> = { id: 'uuid', name: 'string?', role: 'string?', theme_key: 'string?', created_at: 'date', updated_at: 'date?' };
const TEXT_ASSET: Record<string, Kind> = { key: 'string', value: 'string', size: 'int', content_type: 'string' };
const TEXT_ASSET_ROW: Record<string, Kind> = { key: 'string', size: 'int', content_type: 'string', updated_at: 'date?' };
const BINARY_ASSET: Record<string, Kind> = { key: 'string', size: 'int', content_type: 'string', updated_at: 'date?', url: 'string' };
const CUSTOMER: Record<string, Kind> = {
  id: 'uuid',
  email: 'string?',
  is_active: 'boolean',
  is_email_confirmed: 'boolean',
  type: 'string?',
  currency_id: 'uuid?',
  default_address: 'object',
  created_at: 'date',
  updated_at: 'date?',
};
const ADMIN_ADDRESS: Record<string, Kind> = {
  id: 'uuid',
  first_name: 'string?',
  last_name: 'string?',
  company: 'string?',
  department: 'string?',
  street: 'string?',
  zip_code: 'string?',
  location: 'string?',
  country_id: 'uuid?',
  phone_number: 'string?',
  mobile_number: 'string?',
  fax_number: 'string?',
  email: 'string?',
  website: 'string?',
  title_id: 'uuid?',
};
const PAGE: Record<string, Kind> = {
  id: 'uuid',
  handle: 'string?',
  title: 'string?',
  body_html: 'string?',
  published: 'boolean',
  template: 'string?',
  type: 'string?',
  show_in_header: 'boolean',
  show_in_footer: 'boolean',
  sort_order: 'int',
  meta_description: 'string?',
  meta_keywords: 'string?',
  menu_title: 'string?',
  created_at: 'date',
  updated_at: 'date?',
};
const ARTICLE: Record<string, Kind> = {
  id: 'uuid',
  title: 'string?',
  summary_html: 'string?',
  body_html: 'string?',
  published: 'boolean',
  image: 'object',
  created_at: 'date',
  updated_at: 'date?',
};
const DISCOUNT: Record<string, Kind> = {
  id: 'uuid',
  code: 'string?',
  type: 'string?',
  value: 'number',
  is_active: 'boolean',
  is_used: 'boolean',
  is_infinite: 'boolean',
  using_date: 'date?',
  currency_id: 'uuid?',
  expiry_date: 'date?',
  min_value: 'number',
  is_check_all_products_for_category: 'boolean',
  created_at: 'date',
  updated_at: 'date?',
};
const CHECKOUT_SUMMARY: Record<string, Kind> = {
  token: 'uuid',
  email: 'string?',
  currency_code: 'string?',
  status: 'string?',
  total: 'number',
  line_items_count: 'int',
  created_at: 'date',
  updated_at: 'date?',
};
const CHECKOUT: Record<string, Kind> = {
  token: 'uuid',
  email: 'string?',
  currency_code: 'string?',
  status: 'string?',
  is_completed: 'boolean',
  note: 'string?',
  customer_name: 'string?',
  line_items: 'array',
  totals: 'object',
  shipping_address: 'object',
  billing_address: 'object',
  created_at: 'date',
  updated_at: 'date?',
};
const CHECKOUT_LINE: Record<string, Kind> = {
  id: 'uuid',
  article_id: 'uuid?',
  title: 'string?',
  sku: 'string?',
  quantity: 'number',
  unit_price: 'number',
  unit_price_with_tax: 'number',
  line_total: 'number',
  line_total_with_tax: 'number',
  image_url: 'string?',
};
const CHECKOUT_TOTALS: Record<string, Kind> = {
  subtotal: 'number',
  tax_amount: 'number',
  shipping_amount: 'number',
  discount: 'number',
  total: 'number',
  currency_code: 'string',
  price_includes_tax: 'boolean',
};
const CHECKOUT_ADDRESS: Record<string, Kind> = {
  id: 'uuid?',
  first_name: 'string?',
  last_name: 'string?',
  company: 'string?',
  department: 'string?',
  street: 'string?',
  po_box: 'string?',
  zip_code: 'string?',
  location: 'string?',
  email: 'string?',
  phone_number: 'string?',
  mobile_number: 'string?',
  country_code: 'string?',
  country_name: 'string?',
};
const TOKEN_ROW: Record<string, Kind> = { id: 'uuid', prefix: 'string', label: 'string', scopes: 'string', created_at: 'date', last_used_at: 'date?' };
const MINTED: Record<string, Kind> = { id: 'uuid', token: 'string', prefix: 'string', label: 'string', scopes: 'string' };
const LEVEL: Record<string, Kind> = { inventory_item_id: 'uuid', location_id: 'uuid', available: 'number' };

/** A route that fails the way a bug would, for the 500 envelope. */
@Controller('conformance-boom')
class BoomController {
  @Get()
  boom(): never {
    throw new Error('secret detail at /srv/app.ts:12');
  }
}
@Module({ controllers: [BoomController] })
class BoomModule {}

describe('SPEC conformance: admin tier and cross-cutting rules', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let ids: Ids;

  beforeAll(async () => {
    t = await createTestApp({ imports: [BoomModule] });
    shop = await t.createShop();
    other = await t.createShop();
    ids = await importShop(shop.admin);
  });
  afterAll(() => t.close());

  /** The four generic cases of a CRUD resource: invalid id 422, unknown id 404, foreign id 404, missing body 422. */
  async function genericErrors(path: string, createBody: object, updateBody: object): Promise<void> {
    await fails(shop.admin.get(`${path}/not-a-uuid`), 422);
    await fails(shop.admin.put(`${path}/not-a-uuid`, updateBody), 422);
    await fails(shop.admin.delete(`${path}/not-a-uuid`), 422);
    await fails(shop.admin.get(`${path}/${randomUUID()}`), 404);
    await fails(shop.admin.put(`${path}/${randomUUID()}`, updateBody), 404);
    await fails(shop.admin.delete(`${path}/${randomUUID()}`), 404);
    await fails(shop.admin.post(path), 422);
    await fails(shop.admin.post(path, '[]').set('Content-Type', 'application/json'), 422);
    const own = (await shop.admin.post(path, createBody).expect(201)).body;
    const id = (Object.values(own)[0] as { id: string }).id;
    await fails(other.admin.get(`${path}/${id}`), 404);
    await fails(other.admin.put(`${path}/${id}`, updateBody), 404);
    await fails(other.admin.delete(`${path}/${id}`), 404);
    await fails(shop.admin.put(`${path}/${id}`), 422);
    await shop.admin.delete(`${path}/${id}`).expect(204);
    await fails(shop.admin.delete(`${path}/${id}`), 404);
    await fails(shop.admin.get(`${path}/${id}`), 404);
    await fails(shop.admin.put(`${path}/${id}`, updateBody), 404);
  }

  /** Cursored list: Link rel="next" with limit and page_info, followed verbatim; stale or foreign page_info 422. */
  async function cursored(path: string, member: string, make: (client: ShopClient, i: number) => Promise<string>, newestFirst: boolean): Promise<void> {
    const sh = await t.createShop();
    const client = new ShopClient(t, sh.admin_token);
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push(await make(client, i));
    const first = await client.get(`${path}?limit=2`).expect(200);
    expect(Object.keys(first.body)).toEqual([member]);
    const next = nextPath(first.headers.link);
    const second = await client.get(next).expect(200);
    expect(second.headers.link).toBeUndefined();
    const all = [...first.body[member], ...second.body[member]].map((r: { id?: string; token?: string }) => r.id ?? r.token);
    expect(all).toEqual(newestFirst ? [...made].reverse() : made);
    // foreign (another list's cursor) and stale (other filters) cursors are 422
    const pageInfo = new URL(first.headers.link.slice(1, first.headers.link.indexOf('>'))).searchParams.get('page_info')!;
    await fails(client.get(`${path}?limit=2&page_info=${encodeURIComponent(pageInfo)}&locale=de`), 422);
    const foreignList = path === '/admin/customers' ? '/admin/discount_codes' : '/admin/customers';
    await fails(client.get(`${foreignList}?limit=2&page_info=${encodeURIComponent(pageInfo)}`), 422);
    await fails(client.get(`${path}?page_info=garbage`), 422);
    await fails(client.get(`${path}?limit=abc`), 422);
    // limit is clamped, not refused
    await client.get(`${path}?limit=0`).expect(200);
    await client.get(`${path}?limit=100000`).expect(200);
    // tenants do not see each other's rows
    const mine = (await shop.admin.get(`${path}?limit=250`).expect(200)).body[member].map((r: { id?: string; token?: string }) => r.id ?? r.token);
    for (const id of made) expect(mine).not.toContain(id);
  }

  // ------------------------------------------------------------------ collections

  describe('collections', () => {
    it('create/read/update/delete: exact fields, types, defaults, statuses', async () => {
      const created = await shop.admin.post('/admin/collections', { title: 'Summer wines' }).expect(201);
      expect(Object.keys(created.body)).toEqual(['collection']);
      const c = created.body.collection;
      shape(c, COLLECTION, 'collection');
      shape(c.image, IMAGE, 'collection.image');
      expect(c.image.id).toBe(c.id);
      expect(c.collection_type).toBe('manual');
      expect(c.updated_at).toBeNull();
      expect(c.rules_json).toBeNull();
      expect(c.template_name).toBeNull();
      shape((await shop.admin.get(`/admin/collections/${c.id}`).expect(200)).body.collection, COLLECTION);
      const upd = (await shop.admin.put(`/admin/collections/${c.id}`, { published: null, meta_title: 'Sun' }).expect(200)).body.collection;
      shape(upd, COLLECTION);
      expect(upd.published).toBe(c.published);
      expect(upd.meta_title).toBe('Sun');
      check(upd.updated_at, 'date', 'updated_at');
      // collection_type is not accepted on update: it never changes
      const kept = await shop.admin.put(`/admin/collections/${c.id}`, { collection_type: 'smart' });
      if (kept.status === 200) expect(kept.body.collection.collection_type).toBe('manual');
      else expect(kept.status).toBe(422);
      const del = await shop.admin.delete(`/admin/collections/${c.id}`).expect(204);
      expect(del.text).toBe('');
      await fails(shop.admin.delete(`/admin/collections/${c.id}`), 404);
    });

    it('rejected fields are 422: missing title, wrong types, unknown collection_type', async () => {
      await fails(shop.admin.post('/admin/collections', {}), 422);
      await fails(shop.admin.post('/admin/collections', { title: 5 }), 422);
      await fails(shop.admin.post('/admin/collections', { title: 'x', published: 'yes' }), 422);
      await fails(shop.admin.post('/admin/collections', { title: 'x', collection_type: 'dynamic' }), 422);
      await fails(shop.admin.post('/admin/collections', { title: 'x', rules_json: 7 }), 422);
      const c = (await shop.admin.post('/admin/collections', { title: 'Typed' }).expect(201)).body.collection;
      await fails(shop.admin.put(`/admin/collections/${c.id}`, { published: 'no' }), 422);
      await fails(shop.admin.put(`/admin/collections/${c.id}`, { title: ['a'] }), 422);
    });

    it('generic 404/422 cases', () => genericErrors('/admin/collections', { title: 'Gen' }, { title: 'Gen 2' }));

    it('list is cursored with Link rel="next"', () =>
      cursored(
        '/admin/collections',
        'collections',
        async (c, i) => {
          return (await c.post('/admin/collections', { title: `C${i}` }).expect(201)).body.collection.id;
        },
        false,
      ));

    it('GET /admin/collections/{id}/products: {products, price_range}, never facets; 404; 422', async () => {
      const c = (
        await shop.admin
          .post('/admin/collections', { title: 'All juice', collection_type: 'smart', rules_json: '{"all":[{"field":"title","contains":"juice"}]}' })
          .expect(201)
      ).body.collection;
      const res = await shop.admin.get(`/admin/collections/${c.id}/products?include=facets`).expect(200);
      expect(keys(res.body)).toEqual(['price_range', 'products']);
      expect(res.body.products.map((p: { id: string }) => p.id)).toEqual([ids.products['p-juice']]);
      shape(res.body.price_range, { min: 'number', max: 'number', currency: 'string' }, 'price_range');
      await fails(shop.admin.get(`/admin/collections/${randomUUID()}/products`), 404);
      await fails(other.admin.get(`/admin/collections/${c.id}/products`), 404);
      await fails(shop.admin.get('/admin/collections/nope/products'), 422);
      await fails(shop.admin.get(`/admin/collections/${c.id}/products?page_info=garbage`), 422);
      await fails(shop.admin.get(`/admin/collections/${c.id}/products?order=sideways`), 422);
    });
  });

  // ------------------------------------------------------------------ themes

  describe('themes and assets', () => {
    it('themes: unpaged, exactly one main, exact fields; PUT role swaps main; errors', async () => {
      const list = await shop.admin.get('/admin/themes').expect(200);
      expect(Object.keys(list.body)).toEqual(['themes']);
      expect(list.headers.link).toBeUndefined();
      list.body.themes.forEach((th: unknown) => shape(th, THEME, 'theme'));
      expect(list.body.themes.filter((th: { role: string }) => th.role === 'main')).toHaveLength(1);
      const main = list.body.themes.find((th: { role: string }) => th.role === 'main');
      shape((await shop.admin.get(`/admin/themes/${main.id}`).expect(200)).body.theme, THEME);
      await fails(shop.admin.put(`/admin/themes/${main.id}`, { role: 'draft' }), 422);
      await fails(shop.admin.put(`/admin/themes/${main.id}`), 422);
      await fails(shop.admin.put(`/admin/themes/${main.id}`, { name: 42 }), 422);
      await fails(shop.admin.get(`/admin/themes/${randomUUID()}`), 404);
      await fails(shop.admin.put(`/admin/themes/${randomUUID()}`, { name: 'x' }), 404);
      await fails(other.admin.get(`/admin/themes/${main.id}`), 404);
      await fails(shop.admin.get('/admin/themes/abc'), 422);
      const same = (await shop.admin.put(`/admin/themes/${main.id}`, { role: 'unpublished' }).expect(200)).body.theme;
      expect(same.role).toBe('main');
      const renamed = (await shop.admin.put(`/admin/themes/${main.id}`, { name: 'Renamed' }).expect(200)).body.theme;
      shape(renamed, THEME);
      expect(renamed.name).toBe('Renamed');
    });

    it('text assets: list rows, full asset, upsert; exactly one of asset/assets; 404 and 422 cases', async () => {
      const main = (await shop.admin.get('/admin/themes').expect(200)).body.themes.find((th: { role: string }) => th.role === 'main');
      const base = `/admin/themes/${main.id}/assets`;
      const put = await shop.admin.put(base, { key: 'templates/conf.liquid', value: 'héllo' }).expect(200);
      expect(Object.keys(put.body)).toEqual(['asset']);
      shape(put.body.asset, TEXT_ASSET, 'asset');
      expect(put.body.asset.size).toBe(Buffer.byteLength('héllo'));
      const one = await shop.admin.get(`${base}?key=templates/conf.liquid`).expect(200);
      expect(Object.keys(one.body)).toEqual(['asset']);
      shape(one.body.asset, TEXT_ASSET);
      const all = await shop.admin.get(base).expect(200);
      expect(Object.keys(all.body)).toEqual(['assets']);
      all.body.assets.forEach((a: Record<string, unknown>) => {
        expect(keys(a)).toEqual(keys(TEXT_ASSET_ROW));
        check(a.size, 'int?' as Kind, 'size');
      });
      await fails(shop.admin.get(`${base}?key=../secret`), 422);
      await fails(shop.admin.get(`${base}?key=/etc/passwd`), 422);
      await fails(shop.admin.get(`${base}?key=missing/none.liquid`), 404);
      await fails(shop.admin.put(base, { value: 'x' }), 422);
      await fails(shop.admin.put(base, { key: 'a/../../b.liquid', value: 'x' }), 422);
      await fails(shop.admin.put(base), 422);
      await fails(shop.admin.put(base, { key: 'x.liquid', value: 5 }), 422);
      await fails(shop.admin.delete(base), 422);
      await fails(shop.admin.delete(`${base}?key=..%2Fx`), 422);
      await fails(shop.admin.delete(`${base}?key=nothing.liquid`), 404);
      await fails(shop.admin.get(`/admin/themes/${randomUUID()}/assets`), 404);
      await fails(shop.admin.put(`/admin/themes/${randomUUID()}/assets`, { key: 'a.liquid', value: 'x' }), 404);
      await fails(other.admin.get(base), 404);
      const del = await shop.admin.delete(`${base}?key=templates/conf.liquid`).expect(204);
      expect(del.text).toBe('');
      await fails(shop.admin.delete(`${base}?key=templates/conf.liquid`), 404);
    });

    it('binary assets: raw upload, list with url, raw read, delete; 413 over 20 MB; 404 and 422 cases', async () => {
      const main = (await shop.admin.get('/admin/themes').expect(200)).body.themes.find((th: { role: string }) => th.role === 'main');
      const base = `${API}/admin/themes/${main.id}/assets/data`;
      const auth = { Authorization: `Bearer ${shop.admin_token}` };
      const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
      const up = await raw(t, 'PUT', `${base}?key=assets/conf.png`, { headers: { ...auth, 'Content-Type': 'image/png' }, body: bytes });
      expect(up.status).toBe(200);
      const body = JSON.parse(up.body.toString());
      expect(Object.keys(body)).toEqual(['asset']);
      shape(body.asset, BINARY_ASSET, 'asset');
      expect(body.asset.content_type).toBe('image/png');
      expect(body.asset.size).toBe(bytes.length);
      const list = await shop.admin.get(`/admin/themes/${main.id}/assets/data`).expect(200);
      expect(Object.keys(list.body)).toEqual(['assets']);
      list.body.assets.forEach((a: unknown) => shape(a, BINARY_ASSET));
      const read = await raw(t, 'GET', `${base}?key=assets/conf.png`, { headers: auth });
      expect(read.status).toBe(200);
      expect(read.headers['content-type']).toBe('image/png');
      expect(read.body.equals(bytes)).toBe(true);
      const served = await raw(t, 'GET', body.asset.url);
      expect(served.status).toBe(200);
      expect(served.body.equals(bytes)).toBe(true);
      const tooBig = await raw(t, 'PUT', `${base}?key=assets/big.bin`, {
        headers: { ...auth, 'Content-Type': 'application/octet-stream' },
        body: Buffer.alloc(20 * 1024 * 1024 + 1),
      });
      expect(tooBig.status).toBe(413);
      envelope(JSON.parse(tooBig.body.toString()));
      const exactly = await raw(t, 'PUT', `${base}?key=assets/max.bin`, {
        headers: { ...auth, 'Content-Type': 'application/octet-stream' },
        body: Buffer.alloc(20 * 1024 * 1024),
      });
      expect(exactly.status).toBe(200);
      const noKey = await raw(t, 'PUT', base, { headers: { ...auth, 'Content-Type': 'image/png' }, body: bytes });
      expect(noKey.status).toBe(422);
      envelope(JSON.parse(noKey.body.toString()));
      const escaping = await raw(t, 'PUT', `${base}?key=..%2Fevil.png`, { headers: { ...auth, 'Content-Type': 'image/png' }, body: bytes });
      expect(escaping.status).toBe(422);
      await fails(shop.admin.get(`/admin/themes/${main.id}/assets/data?key=../x.png`), 422);
      await fails(shop.admin.get(`/admin/themes/${main.id}/assets/data?key=assets/none.png`), 404);
      await fails(shop.admin.delete(`/admin/themes/${main.id}/assets/data`), 422);
      await fails(shop.admin.delete(`/admin/themes/${main.id}/assets/data?key=assets/none.png`), 404);
      await fails(shop.admin.get(`/admin/themes/${randomUUID()}/assets/data`), 404);
      const unknownTheme = await raw(t, 'PUT', `${API}/admin/themes/${randomUUID()}/assets/data?key=a.png`, {
        headers: { ...auth, 'Content-Type': 'image/png' },
        body: bytes,
      });
      expect(unknownTheme.status).toBe(404);
      await shop.admin.delete(`/admin/themes/${main.id}/assets/data?key=assets/conf.png`).expect(204);
      await fails(shop.admin.delete(`/admin/themes/${main.id}/assets/data?key=assets/conf.png`), 404);
    });
  });

  // ------------------------------------------------------------------ customers

  describe('customers', () => {
    it('exact fields and types; type defaults to customer; default_address is an admin default address', async () => {
      const res = await shop.admin.post('/admin/customers', { email: 'conf@example.com' }).expect(201);
      expect(Object.keys(res.body)).toEqual(['customer']);
      const c = res.body.customer;
      shape(c, CUSTOMER, 'customer');
      shape(c.default_address, ADMIN_ADDRESS, 'customer.default_address');
      expect(c.default_address).toMatchObject({ id: c.id, first_name: null, street: null, country_id: null });
      expect(c.type).toBe('customer');
      expect(c.currency_id).toBeNull();
      shape((await shop.admin.get(`/admin/customers/${c.id}`).expect(200)).body.customer, CUSTOMER);
      const upd = (await shop.admin.put(`/admin/customers/${c.id}`, { type: 'reseller', is_active: false }).expect(200)).body.customer;
      shape(upd, CUSTOMER);
      expect(upd.type).toBe('reseller');
      const list = (await shop.admin.get('/admin/customers').expect(200)).body.customers;
      list.forEach((row: unknown) => shape(row, CUSTOMER));
    });

    it('422: duplicate email, changed email, wrong types, unknown type, unknown currency', async () => {
      const c = (await shop.admin.post('/admin/customers', { email: 'dup@example.com' }).expect(201)).body.customer;
      await fails(shop.admin.post('/admin/customers', { email: 'dup@example.com' }), 422);
      await fails(shop.admin.post('/admin/customers', {}), 422);
      await fails(shop.admin.post('/admin/customers', { email: 'a@example.com', type: 'vip' }), 422);
      await fails(shop.admin.post('/admin/customers', { email: 'b@example.com', is_active: 'true' }), 422);
      await fails(shop.admin.post('/admin/customers', { email: 'c@example.com', currency_id: randomUUID() }), 422);
      await fails(shop.admin.put(`/admin/customers/${c.id}`, { email: 'other@example.com' }), 422);
      await fails(shop.admin.put(`/admin/customers/${c.id}`, { type: 'vip' }), 422);
      await shop.admin.put(`/admin/customers/${c.id}`, { email: 'dup@example.com' }).expect(200);
    });

    it('generic 404/422 cases', () => genericErrors('/admin/customers', { email: 'gen@example.com' }, { is_active: true }));

    it('list is cursored with Link rel="next"', () =>
      cursored(
        '/admin/customers',
        'customers',
        async (c, i) => {
          return (await c.post('/admin/customers', { email: `p${i}@example.com` }).expect(201)).body.customer.id;
        },
        false,
      ));
  });

  // ------------------------------------------------------------------ content

  describe('content pages and articles', () => {
    it('pages: exact fields and types, type defaults to common, handle required', async () => {
      const res = await shop.admin.post('/admin/content/pages', { handle: 'about-conf', title: 'About' }).expect(201);
      expect(Object.keys(res.body)).toEqual(['page']);
      const p = res.body.page;
      shape(p, PAGE, 'page');
      expect(p.type).toBe('common');
      shape((await shop.admin.get(`/admin/content/pages/${p.id}`).expect(200)).body.page, PAGE);
      const upd = (
        await shop.admin.put(`/admin/content/pages/${p.id}`, { show_in_header: null, sort_order: null, published: null, title: 'About us' }).expect(200)
      ).body.page;
      shape(upd, PAGE);
      expect(upd.sort_order).toBe(p.sort_order);
      await fails(shop.admin.post('/admin/content/pages', { title: 'no handle' }), 422);
      await fails(shop.admin.post('/admin/content/pages', { handle: 'x-1', type: 'markdown' }), 422);
      await fails(shop.admin.post('/admin/content/pages', { handle: 'x-2', sort_order: '3' }), 422);
      await fails(shop.admin.post('/admin/content/pages', { handle: 'x-3', sort_order: 1.5 }), 422);
      await fails(shop.admin.post('/admin/content/pages', { handle: 'about-conf' }), 422);
      await fails(shop.admin.put(`/admin/content/pages/${p.id}`, { show_in_footer: 'yes' }), 422);
      (await shop.admin.get('/admin/content/pages').expect(200)).body.pages.forEach((row: unknown) => shape(row, PAGE));
    });

    it('articles: exact fields (no handle) and types, title required', async () => {
      const res = await shop.admin.post('/admin/content/articles', { title: 'News' }).expect(201);
      expect(Object.keys(res.body)).toEqual(['article']);
      const a = res.body.article;
      shape(a, ARTICLE, 'article');
      shape(a.image, IMAGE, 'article.image');
      expect(a.image).toEqual({ id: a.id, src: null, preview_src: null, alt: null, position: 0, width: 0, height: 0 });
      shape((await shop.admin.get(`/admin/content/articles/${a.id}`).expect(200)).body.article, ARTICLE);
      shape((await shop.admin.put(`/admin/content/articles/${a.id}`, { published: false }).expect(200)).body.article, ARTICLE);
      await fails(shop.admin.post('/admin/content/articles', { summary_html: 'x' }), 422);
      await fails(shop.admin.post('/admin/content/articles', { title: 'x', published: 1 }), 422);
      (await shop.admin.get('/admin/content/articles').expect(200)).body.articles.forEach((row: unknown) => shape(row, ARTICLE));
    });

    it('pages: generic 404/422 cases', () => genericErrors('/admin/content/pages', { handle: 'gen-page' }, { title: 'x' }));
    it('articles: generic 404/422 cases', () => genericErrors('/admin/content/articles', { title: 'Gen' }, { title: 'x' }));

    it('pages list is cursored', () =>
      cursored(
        '/admin/content/pages',
        'pages',
        async (c, i) => {
          return (await c.post('/admin/content/pages', { handle: `pg-${i}` }).expect(201)).body.page.id;
        },
        false,
      ));
    it('articles list is cursored, and page cursors are not article cursors', async () => {
      await cursored(
        '/admin/content/articles',
        'articles',
        async (c, i) => {
          return (await c.post('/admin/content/articles', { title: `A${i}` }).expect(201)).body.article.id;
        },
        false,
      );
      for (let i = 0; i < 2; i++) await shop.admin.post('/admin/content/pages', { handle: `xc-${i}` }).expect(201);
      const link = (await shop.admin.get('/admin/content/pages?limit=1').expect(200)).headers.link;
      const pageInfo = new URL(link.slice(1, link.indexOf('>'))).searchParams.get('page_info')!;
      await fails(shop.admin.get(`/admin/content/articles?limit=1&page_info=${encodeURIComponent(pageInfo)}`), 422);
    });
  });

  // ------------------------------------------------------------------ discount codes

  describe('discount codes', () => {
    it('exact fields and types; type defaults to value; code and type ignored on update', async () => {
      const res = await shop.admin.post('/admin/discount_codes', { code: 'CONF10', value: 10 }).expect(201);
      expect(Object.keys(res.body)).toEqual(['discount_code']);
      const d = res.body.discount_code;
      shape(d, DISCOUNT, 'discount_code');
      expect(d.type).toBe('value');
      expect(d.is_used).toBe(false);
      expect(d.min_value).toBe(0);
      const upd = (await shop.admin.put(`/admin/discount_codes/${d.id}`, { code: 'OTHER', type: 'percent', value: 5, min_value: null }).expect(200)).body
        .discount_code;
      shape(upd, DISCOUNT);
      expect([upd.code, upd.type, upd.value, upd.min_value]).toEqual(['CONF10', 'value', 5, 0]);
      await fails(shop.admin.post('/admin/discount_codes', { value: 5 }), 422);
      await fails(shop.admin.post('/admin/discount_codes', { code: 'T1', value: 5, type: 'bogo' }), 422);
      await fails(shop.admin.post('/admin/discount_codes', { code: 'T2', value: '5' }), 422);
      await fails(shop.admin.post('/admin/discount_codes', { code: 'T3', value: 5, expiry_date: 'tomorrow' }), 422);
      await fails(shop.admin.post('/admin/discount_codes', { code: 'CONF10', value: 5 }), 422);
      await fails(shop.admin.put(`/admin/discount_codes/${d.id}`, { is_active: 'no' }), 422);
      (await shop.admin.get('/admin/discount_codes').expect(200)).body.discount_codes.forEach((row: unknown) => shape(row, DISCOUNT));
    });

    it('generic 404/422 cases', () => genericErrors('/admin/discount_codes', { code: 'GEN', value: 1 }, { value: 2 }));

    it('list is cursored, newest first', () =>
      cursored(
        '/admin/discount_codes',
        'discount_codes',
        async (c, i) => {
          return (await c.post('/admin/discount_codes', { code: `N${i}`, value: 1 }).expect(201)).body.discount_code.id;
        },
        true,
      ));
  });

  // ------------------------------------------------------------------ checkouts

  describe('checkouts', () => {
    it('summary rows and the full checkout: exact fields and types; PUT note/email; 409 once completed; 404; 422', async () => {
      const client = t.client(shop.storefront_token);
      const c = await checkoutWith(client, [[ids.variants['v-juice'], 2]]);
      await client
        .put(`/checkouts/${c.id}`, { shipping_address: CH_ADDRESS, billing_same_as_shipping: true, shipping_method_id: ids.shipping_methods.post })
        .expect(200);
      const list = await shop.admin.get('/admin/checkouts').expect(200);
      expect(Object.keys(list.body)).toEqual(['checkouts']);
      list.body.checkouts.forEach((row: unknown) => shape(row, CHECKOUT_SUMMARY, 'checkouts[]'));
      const full = await shop.admin.get(`/admin/checkouts/${c.id}`).expect(200);
      expect(Object.keys(full.body)).toEqual(['checkout']);
      const k = full.body.checkout;
      shape(k, CHECKOUT, 'checkout');
      k.line_items.forEach((l: unknown) => shape(l, CHECKOUT_LINE, 'line'));
      shape(k.totals, CHECKOUT_TOTALS, 'totals');
      shape(k.shipping_address, CHECKOUT_ADDRESS, 'shipping_address');
      shape(k.billing_address, CHECKOUT_ADDRESS, 'billing_address');
      expect(k.is_completed).toBe(k.status === 'Completed');
      const upd = (await shop.admin.put(`/admin/checkouts/${c.id}`, { note: 'call first', email: 'new@example.ch' }).expect(200)).body.checkout;
      shape(upd, CHECKOUT);
      expect([upd.note, upd.email]).toEqual(['call first', 'new@example.ch']);
      await fails(shop.admin.put(`/admin/checkouts/${c.id}`, { note: 5 }), 422);
      await fails(shop.admin.put(`/admin/checkouts/${c.id}`, { email: 'not an email' }), 422);
      await fails(shop.admin.put(`/admin/checkouts/${c.id}`), 422);
      await fails(shop.admin.get(`/admin/checkouts/${randomUUID()}`), 404);
      await fails(shop.admin.put(`/admin/checkouts/${randomUUID()}`, { note: 'x' }), 404);
      await fails(other.admin.get(`/admin/checkouts/${c.id}`), 404);
      await fails(shop.admin.get('/admin/checkouts/abc'), 422);
      await client.post(`/checkouts/${c.id}/complete`, { payment_type_id: ids.payment_types.invoice, accepted_terms: true }).expect(200);
      const done = (await shop.admin.get(`/admin/checkouts/${c.id}`).expect(200)).body.checkout;
      shape(done, CHECKOUT);
      expect(done.is_completed).toBe(true);
      expect(done.status).toBe('Completed');
      await fails(shop.admin.put(`/admin/checkouts/${c.id}`, { note: 'late' }), 409);
    });

    it('list is cursored, Link rel="next"', async () => {
      for (let i = 0; i < 3; i++) await checkoutWith(t.client(shop.storefront_token), [[ids.variants['v-juice'], 1]]);
      const first = await shop.admin.get('/admin/checkouts?limit=2').expect(200);
      const second = await shop.admin.get(nextPath(first.headers.link)).expect(200);
      expect(second.body.checkouts.length).toBeGreaterThan(0);
      await fails(shop.admin.get('/admin/checkouts?page_info=garbage'), 422);
    });
  });

  // ------------------------------------------------------------------ access tokens

  describe('access tokens', () => {
    it('minted and listed shapes; last_used_at explicit null; tenant-scoped; 401/404/422', async () => {
      const minted = await shop.admin.post('/admin/access_tokens', { label: '  conf  ', tier: 'admin', scopes: ['Shop/collections/read'] }).expect(201);
      expect(Object.keys(minted.body)).toEqual(['access_token']);
      const m = minted.body.access_token;
      shape(m, MINTED, 'access_token');
      expect(m.prefix).toBe('vnstat');
      expect(m.token).toMatch(/^vnstat_[A-Za-z0-9_-]{32,}$/);
      expect(m.label).toBe('conf');
      expect(m.scopes).toBe('Shop/collections/read');
      const sf = (
        await shop.admin.post('/admin/access_tokens', { label: 'sf', tier: 'storefront', scopes: ['storefront/cart', 'storefront/catalogue'] }).expect(201)
      ).body.access_token;
      expect(sf.token).toMatch(/^vnstss_[A-Za-z0-9_-]{32,}$/);
      expect(sorted(sf.scopes)).toEqual(['storefront/cart', 'storefront/catalogue']);
      expect(sf.scopes).toMatch(/^\S+ \S+$/);
      const list = await shop.admin.get('/admin/access_tokens').expect(200);
      expect(Object.keys(list.body)).toEqual(['access_tokens']);
      expect(list.headers.link).toBeUndefined();
      list.body.access_tokens.forEach((r: Record<string, unknown>) => {
        shape(r, TOKEN_ROW, 'access_tokens[]');
        expect('last_used_at' in r).toBe(true);
      });
      const row = list.body.access_tokens.find((r: { id: string }) => r.id === m.id);
      expect(row.last_used_at).toBeNull();
      expect(JSON.stringify(list.body)).not.toContain(m.token);
      expect(list.body.access_tokens[0].id).toBe(sf.id);
      // tenant-scoped
      expect((await other.admin.get('/admin/access_tokens').expect(200)).body.access_tokens.map((r: { id: string }) => r.id)).not.toContain(m.id);
      await fails(other.admin.delete(`/admin/access_tokens/${m.id}`), 404);
      await fails(t.client(null).post('/admin/access_tokens', { label: 'x', tier: 'admin', scopes: ['Shop/collections/read'] }), 401);
      await fails(t.client('vnstat_' + 'x'.repeat(40)).post('/admin/access_tokens', { label: 'x', tier: 'admin', scopes: ['Shop/collections/read'] }), 401);
      await fails(shop.admin.post('/admin/access_tokens'), 422);
      await fails(shop.admin.post('/admin/access_tokens', { label: '   ', tier: 'admin', scopes: ['Shop/collections/read'] }), 422);
      await fails(shop.admin.post('/admin/access_tokens', { label: 'x', tier: 'root', scopes: ['Shop/collections/read'] }), 422);
      await fails(shop.admin.post('/admin/access_tokens', { label: 'x', tier: 'storefront', scopes: ['Shop/collections/read'] }), 422);
      await fails(shop.admin.post('/admin/access_tokens', { label: 'x', tier: 'admin', scopes: ['storefront/cart'] }), 422);
      await shop.admin.delete(`/admin/access_tokens/${m.id}`).expect(204);
      await fails(shop.admin.delete(`/admin/access_tokens/${m.id}`), 404);
      await fails(shop.admin.delete('/admin/access_tokens/zzz'), 422);
      await fails(t.client(m.token).get('/admin/collections'), 401);
    });

    it('scopes: a storefront token on the admin tier is 401, a missing scope 403', async () => {
      await fails(t.client(shop.storefront_token).get('/admin/collections'), 401);
      const narrow = (await shop.admin.post('/admin/access_tokens', { label: 'narrow', tier: 'admin', scopes: ['Shop/collections/write'] }).expect(201)).body
        .access_token.token;
      await fails(t.client(narrow).get('/admin/collections'), 403);
      await fails(t.client(narrow).get('/admin/customers'), 403);
      await t.client(narrow).post('/admin/collections', { title: 'By narrow' }).expect(201);
      // the X-Service-Access-Token header is accepted too
      await t.http().get(`${API}/admin/themes`).set('X-Service-Access-Token', shop.admin_token).expect(200);
    });
  });

  // ------------------------------------------------------------------ inventory

  describe('inventory levels', () => {
    it('list, set, adjust: exact fields; not padded; unparseable ids dropped; 404 and 422 cases', async () => {
      const wine = ids.variants['v-wine'];
      const cellar = ids.locations.cellar;
      const store = ids.locations.store;
      const res = await shop.admin.get(`/admin/inventory_levels?inventory_item_ids=${wine},nonsense,${randomUUID()}`).expect(200);
      expect(Object.keys(res.body)).toEqual(['inventory_levels']);
      res.body.inventory_levels.forEach((l: unknown) => shape(l, LEVEL, 'level'));
      expect(res.body.inventory_levels.map((l: { location_id: string }) => l.location_id).sort()).toEqual([cellar, store].sort());
      const filtered = (await shop.admin.get(`/admin/inventory_levels?inventory_item_ids=${wine}&location_ids=${store}`).expect(200)).body.inventory_levels;
      expect(filtered).toEqual([{ inventory_item_id: wine, location_id: store, available: 20 }]);
      await fails(shop.admin.get('/admin/inventory_levels'), 422);
      await fails(shop.admin.get('/admin/inventory_levels?inventory_item_ids=a,b'), 422);
      await fails(shop.admin.get(`/admin/inventory_levels?inventory_item_ids=${Array.from({ length: 251 }, () => randomUUID()).join(',')}`), 422);
      await shop.admin.get(`/admin/inventory_levels?inventory_item_ids=${Array.from({ length: 250 }, () => randomUUID()).join(',')}`).expect(200);
      const set = await shop.admin.post('/admin/inventory_levels/set', { inventory_item_id: wine, location_id: store, available: 7 }).expect(200);
      expect(Object.keys(set.body)).toEqual(['inventory_level']);
      expect(set.body.inventory_level).toEqual({ inventory_item_id: wine, location_id: store, available: 7 });
      const adj = await shop.admin
        .post('/admin/inventory_levels/adjust', { inventory_item_id: wine, location_id: store, available_adjustment: -2.5 })
        .expect(200);
      expect(adj.body.inventory_level).toEqual({ inventory_item_id: wine, location_id: store, available: 4.5 });
      for (const op of ['set', 'adjust']) {
        const body = (extra: object) => ({
          inventory_item_id: wine,
          location_id: store,
          ...(op === 'set' ? { available: 1 } : { available_adjustment: 1 }),
          ...extra,
        });
        await fails(shop.admin.post(`/admin/inventory_levels/${op}`), 422);
        await fails(shop.admin.post(`/admin/inventory_levels/${op}`, body({ inventory_item_id: randomUUID() })), 404);
        await fails(shop.admin.post(`/admin/inventory_levels/${op}`, body({ location_id: randomUUID() })), 404);
        await fails(other.admin.post(`/admin/inventory_levels/${op}`, body({})), 404);
        await fails(shop.admin.post(`/admin/inventory_levels/${op}`, body(op === 'set' ? { available: 'x' } : { available_adjustment: 'x' })), 422);
        await fails(shop.admin.post(`/admin/inventory_levels/${op}`, body({ inventory_item_id: 'nope' })), 422);
      }
      // a pair with no level reads as nothing (zero on hand), and a tenant never sees another's levels
      expect((await other.admin.get(`/admin/inventory_levels?inventory_item_ids=${wine}`).expect(200)).body.inventory_levels).toEqual([]);
    });
  });

  // ------------------------------------------------------------------ catalogue import

  describe('catalogue import', () => {
    it('200 {import: {created, updated, ids}}; 422 names the first bad member; scope Shop/catalogue/write', async () => {
      const res = await shop.admin.post('/admin/catalogue/import', { locations: [{ key: 'annex', name: 'Annex' }] }).expect(200);
      expect(Object.keys(res.body)).toEqual(['import']);
      expect(keys(res.body.import)).toEqual(['created', 'ids', 'updated']);
      check(res.body.import.ids.locations.annex, 'uuid', 'ids.locations.annex');
      const again = await shop.admin.post('/admin/catalogue/import', { locations: [{ key: 'annex', name: 'Annex' }] }).expect(200);
      for (const n of Object.values(again.body.import.created)) expect(n).toBe(0);
      for (const n of Object.values(again.body.import.updated)) expect(n).toBe(0);
      const bad = await fails(
        shop.admin.post('/admin/catalogue/import', { products: [{ key: 'p', title: 'x', variants: [{ key: 'v', price: 'cheap' }] }] }),
        422,
      );
      expect(bad.body.errors).toContain('products[0].variants[0].price');
      const narrow = (await shop.admin.post('/admin/access_tokens', { label: 'ro', tier: 'admin', scopes: ['Shop/catalogue/read'] }).expect(201)).body
        .access_token.token;
      await fails(t.client(narrow).post('/admin/catalogue/import', {}), 403);
    });
  });

  // ------------------------------------------------------------------ cross-cutting

  describe('cross-cutting rules', () => {
    it('an unknown version segment is 404 with the envelope', async () => {
      const res = await t.http().get('/api/2025-01-01/admin/collections').set('Authorization', `Bearer ${shop.admin_token}`);
      expect(res.status).toBe(404);
      envelope(res.body);
      const res2 = await t.http().get('/api/v9/products');
      expect(res2.status).toBe(404);
      envelope(res2.body);
    });

    it('accepts application/json, text/json and application/*+json; any other type is 422', async () => {
      for (const type of ['application/json', 'application/json; charset=utf-8', 'text/json', 'application/vnd.shop+json', 'application/merge-patch+json']) {
        const res = await shop.admin.post('/admin/collections', JSON.stringify({ title: `typed ${type}` })).set('Content-Type', type);
        expect([type, res.status]).toEqual([type, 201]);
      }
      await fails(shop.admin.post('/admin/collections', 'title=x').set('Content-Type', 'application/x-www-form-urlencoded'), 422);
      await fails(shop.admin.post('/admin/collections', '{"title":"x"}').set('Content-Type', 'text/plain'), 422);
    });

    it('malformed JSON, wrong member type, unknown enum, invalid UUID in a path: 422 naming the member, never 500', async () => {
      await fails(shop.admin.post('/admin/collections', '{"title": ').set('Content-Type', 'application/json'), 422);
      await fails(shop.admin.post('/admin/collections', '{"title": "x",}').set('Content-Type', 'application/json'), 422);
      const wrongType = await fails(shop.admin.post('/admin/collections', { title: 12 }), 422);
      expect(wrongType.body.errors).toContain('title');
      const badEnum = await fails(shop.admin.post('/admin/customers', { email: 'enum@example.com', type: 'emperor' }), 422);
      expect(badEnum.body.errors).toContain('type');
      const badUuid = await fails(shop.admin.get('/admin/customers/123'), 422);
      expect(badUuid.body.errors).toContain('id');
      await fails(shop.admin.get('/admin/checkouts/123'), 422);
      await fails(shop.admin.put('/admin/themes/123', { name: 'x' }), 422);
      // a JSON null or scalar body where an object is expected
      await fails(shop.admin.post('/admin/collections', 'null').set('Content-Type', 'application/json'), 422);
      await fails(shop.admin.post('/admin/collections', '"x"').set('Content-Type', 'application/json'), 422);
    });

    it('a JSON body over 1 MB is 413 with the envelope', async () => {
      const res = await shop.admin.post('/admin/collections', { title: 'big', body_html: 'x'.repeat(1024 * 1024 + 10) });
      expect(res.status).toBe(413);
      envelope(res.body);
    });

    it('X-Request-Id is echoed or generated; health endpoints answer outside the versioned path', async () => {
      const echoed = await shop.admin.get('/admin/themes').set('X-Request-Id', 'req-abc-123').expect(200);
      expect(echoed.headers['x-request-id']).toBe('req-abc-123');
      const generated = await shop.admin.get('/admin/themes').expect(200);
      expect(generated.headers['x-request-id']).toMatch(/\S+/);
      const err = await shop.admin.get(`/admin/collections/${randomUUID()}`).expect(404);
      expect(err.headers['x-request-id']).toMatch(/\S+/);
      const live = await t.http().get('/health').expect(200);
      expect(live.headers['content-type']).toMatch(/json/);
      await t.http().get('/health/ready').expect(200);
    });

    it('a 500 is the envelope with errors "internal error" and the request id, nothing else', async () => {
      const res = await t.http().get(`${API}/conformance-boom`).set('X-Request-Id', 'boom-1');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ errors: 'internal error', request_id: 'boom-1' });
      expect(res.text).not.toContain('secret detail');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    });

    it('Content-Language names the active language', async () => {
      const res = await shop.admin.get('/admin/collections?locale=de').expect(200);
      expect(res.headers['content-language']).toBe('de');
      expect((await shop.admin.get('/admin/collections').set('Accept-Language', 'fr-CH, de;q=0.5').expect(200)).headers['content-language']).toBe('de');
      expect((await shop.admin.get('/admin/collections?locale=xx').expect(200)).headers['content-language']).toBe('en');
      await fails(shop.admin.get('/admin/collections?currency=XYZ'), 422);
    });

    it('OpenAPI document and docs page', async () => {
      const doc = await t.http().get(`${API}/openapi.json`).expect(200);
      expect(doc.body.openapi).toMatch(/^3\./);
      expect(Object.keys(doc.body.paths)).toEqual(
        expect.arrayContaining([`${API}/admin/collections`, `${API}/admin/collections/{id}/products`, `${API}/admin/inventory_levels/adjust`]),
      );
      // every admin JSON answer is described, envelope included (catalogue routes are the catalogue's own: not checked here)
      const undocumented: string[] = [];
      for (const [path, ops] of Object.entries(doc.body.paths as Record<string, Record<string, { responses?: Record<string, { content?: unknown }> }>>)) {
        if (!path.includes('/admin/') || path.includes('/catalogue/') || path.endsWith('/products')) continue;
        for (const [method, op] of Object.entries(ops)) {
          const ok = Object.entries(op.responses ?? {}).filter(([status]) => status.startsWith('2'));
          if (ok.length === 0 || ok.some(([status, r]) => status !== '204' && !r.content)) undocumented.push(`${method.toUpperCase()} ${path}`);
        }
      }
      expect(undocumented).toEqual([]);
      const putAsset = doc.body.paths[`${API}/admin/themes/{id}/assets/data`].put.responses['200'].content['application/json'].schema;
      expect(putAsset.required).toEqual(['asset']);
      const page = await t.http().get('/api/docs');
      expect([200, 301, 302]).toContain(page.status);
    });

    it('every error status of the admin tier uses the envelope (401 without token, 403, 404, 405 path)', async () => {
      for (const path of [
        '/admin/collections',
        '/admin/themes',
        '/admin/customers',
        '/admin/content/pages',
        '/admin/content/articles',
        '/admin/discount_codes',
        '/admin/checkouts',
        '/admin/access_tokens',
        `/admin/inventory_levels?inventory_item_ids=${randomUUID()}`,
      ]) {
        await fails(t.client(null).get(path), 401);
        await fails(t.client('garbage').get(path), 401);
        await fails(
          t
            .http()
            .get(API + path)
            .set('Authorization', 'Basic abc'),
          401,
        );
        const ok = await shop.admin.get(path);
        expect([path, ok.status, ok.body]).toEqual([path, 200, expect.anything()]);
      }
    });
  });
});

/** Its own app, last: passport's named strategy is process-wide, so a second app must not outlive the first's tests. */
describe('SPEC conformance: rate-limit headers', () => {
  it('rate-limit headers on every limited response', async () => {
    const limited = await createTestApp({ config: { RATE_LIMIT: true } });
    try {
      const s = await limited.createShop();
      const res = await s.admin.get('/admin/themes').expect(200);
      expect(res.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
      expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
      const err = await s.admin.get(`/admin/collections/${randomUUID()}`).expect(404);
      expect(err.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
      // also on refusals by the guard that follows the limiter (401, 403) and by validation (422)
      for (const r of [
        await limited.client(null).get('/admin/collections').expect(401),
        await limited
          .client('vnstat_' + 'x'.repeat(40))
          .get('/admin/collections')
          .expect(401),
        await s.admin.post('/admin/collections', { title: 5 }).expect(422),
      ]) {
        expect(r.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
        expect(r.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
      }
    } finally {
      await limited.close();
    }
  });
});
