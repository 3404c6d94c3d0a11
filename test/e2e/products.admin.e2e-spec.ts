import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { request as httpRequest, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API, createTestApp, ShopClient, TestApp, TestShop } from '../helpers/test-app.js';
import { CatalogueImportService } from '../../src/catalogue/import/catalogue-import.service.js';
import { generateDemoCatalogue } from '../../src/catalogue/import/demo-catalogue.js';
import { RequestContext } from '../../src/common/context/request-context.js';
import { fixtureImport } from './catalogue.fixture.js';

type Ids = Record<string, Record<string, string>> & { facets: Record<string, Record<string, string>> };
type Json = Record<string, any>;

const CH_ADDRESS = {
  first_name: 'Anna',
  last_name: 'Muster',
  street: 'Bahnhofstrasse',
  house_number: '1',
  zip_code: '8001',
  location: 'Zürich',
  email: 'anna@example.ch',
  country_code: 'CH',
};

/** Every page of a cursored admin list, following `Link` verbatim. */
async function all(client: ShopClient, path: string): Promise<Json[]> {
  const out: Json[] = [];
  let url: string | null = path;
  for (let guard = 0; url && guard < 50; guard++) {
    const res = await client.get(url).expect(200);
    out.push(...res.body.products);
    const link = res.headers.link as string | undefined;
    url = link ? new URL(/<([^>]+)>/.exec(link)![1]).pathname.replace(API, '') + new URL(/<([^>]+)>/.exec(link)![1]).search : null;
  }
  return out;
}

describe('admin catalogue API: products, variants, export', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;
  const keysOf = (rows: Json[]) => rows.map((r) => r.key);

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    ids = (await shop.admin.post('/admin/catalogue/import', fixtureImport()).expect(200)).body.import.ids;
  });
  afterAll(() => t.close());

  describe('GET /admin/products', () => {
    it('lists every live product, published or not, newest first, cursored without skips or repeats', async () => {
      const first = await shop.admin.get('/admin/products?limit=4').expect(200);
      expect(Object.keys(first.body)).toEqual(['products']);
      expect(first.body.products).toHaveLength(4);
      expect(first.headers.link).toMatch(/^<http[^>]+page_info=[^>]+>; rel="next"$/);
      const rows = await all(shop.admin, '/admin/products?limit=4');
      // created desc, id breaks the tie of p7 and p10 (same created_at)
      expect(keysOf(rows).slice(0, 2)).toEqual(['p9', 'p8']);
      expect(keysOf(rows).slice(4)).toEqual(['p6', 'p5', 'p4', 'p3', 'p2', 'p1']);
      expect(new Set(keysOf(rows).slice(2, 4))).toEqual(new Set(['p7', 'p10']));
      const p1 = rows.find((r) => r.key === 'p1')!;
      expect(p1).toEqual({
        id: ids.products.p1,
        key: 'p1',
        handle: 'p1-alpha-merlot',
        title: { en: 'Alpha Merlot', de: 'Alpha Merlot DE' },
        published: true,
        archived_at: null,
        vendor: 'Château Lafleur',
        categories: [{ id: ids.categories.red, key: 'red' }],
        variants_count: 2,
        min_price: 24.9,
        max_price: 45,
        currency: 'CHF',
        total_stock: 10,
        created_at: '2026-01-01T10:00:00.000Z',
        updated_at: null,
      });
      expect(rows.find((r) => r.key === 'p8')!.published).toBe(false);
    });

    it.each([
      ['published=false', () => 'published=false', ['p8']],
      ['vendor', () => `vendor=${ids.manufacturers.chateau}`, ['p1', 'p4', 'p8']],
      ['two vendors', () => `vendor=${ids.manufacturers.muller},${ids.manufacturers.dupont}`, ['p2', 'p5', 'p6', 'p7']],
      ['category_id with descendants', () => `category_id=${ids.categories.white}`, ['p2', 'p7']],
      ['a parent category', () => `category_id=${ids.categories.wine}`, ['p1', 'p10', 'p2', 'p3', 'p4', 'p5', 'p7', 'p8', 'p9']],
      ['a manual collection (unpublished members too)', () => `collection_id=${ids.collections.picks}`, ['p1', 'p2', 'p7', 'p8']],
      ['a smart collection (by its rules)', () => `collection_id=${ids.collections['cheap-reds']}`, ['p1', 'p10', 'p3']],
      ['q on a title word', () => 'q=riesling', ['p2', 'p7']],
      ['q on another language', () => 'q=merlot%20de', ['p1']],
      ['q on a SKU', () => 'q=CHA-SAN-19-150', ['p3']],
      ['q on the handle', () => 'q=p10-juliet', ['p10']],
      ['created_at_min', () => 'created_at_min=2026-01-07T10:00:00Z', ['p10', 'p7', 'p8', 'p9']],
      ['filters together', () => `vendor=${ids.manufacturers.chateau}&published=true&q=a`, ['p1', 'p4']],
    ])('filters by %s', async (_name, query, expected) => {
      const rows = await all(shop.admin, `/admin/products?limit=2&${query()}`);
      expect(keysOf(rows).sort()).toEqual(expected);
    });

    it('orders by title asc and updated desc; updated_at_min', async () => {
      const byTitle = await all(shop.admin, '/admin/products?order=title%20asc&limit=3');
      expect(byTitle.map((r) => r.title.en)).toEqual([...byTitle.map((r) => r.title.en)].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
      expect(byTitle).toHaveLength(10);
      const before = new Date().toISOString();
      await shop.admin.put(`/admin/products/${ids.products.p3}`, { tags: ['touched'] }).expect(200);
      const byUpdate = await all(shop.admin, '/admin/products?order=updated%20desc&limit=3');
      expect(byUpdate[0].key).toBe('p3');
      expect(byUpdate[0].updated_at >= before).toBe(true);
      expect(byUpdate).toHaveLength(10);
      expect(keysOf(await all(shop.admin, `/admin/products?updated_at_min=${encodeURIComponent(before)}`))).toEqual(['p3']);
      await shop.admin.put(`/admin/products/${ids.products.p3}`, { tags: [] }).expect(200);
    });

    it.each([
      'published=maybe',
      'order=sideways',
      'vendor=nope',
      'category_id=1,2',
      'created_at_min=yesterday',
      'updated_at_min=x',
      'published=true&published=false',
    ])('refuses %s with 422', async (query) => {
      const res = await shop.admin.get(`/admin/products?${query}`).expect(422);
      expect(typeof res.body.errors).toBe('string');
    });

    it('refuses a cursor reused with other filters', async () => {
      const first = await shop.admin.get('/admin/products?limit=2').expect(200);
      const pageInfo = new URL(/<([^>]+)>/.exec(first.headers.link as string)![1]).searchParams.get('page_info')!;
      await shop.admin.get(`/admin/products?limit=2&published=true&page_info=${encodeURIComponent(pageInfo)}`).expect(422);
    });
  });

  describe('GET and PUT /admin/products/{id}', () => {
    it('shows everything the import set, in every language, with read-only facts', async () => {
      const res = await shop.admin.get(`/admin/products/${ids.products.p1}`).expect(200);
      const p = res.body.product;
      expect(p).toMatchObject({
        id: ids.products.p1,
        key: 'p1',
        handle: 'p1-alpha-merlot',
        title: { en: 'Alpha Merlot', de: 'Alpha Merlot DE' },
        body_html: { en: '<p>Alpha Merlot</p>' },
        summary_html: {},
        manufacturer: 'chateau',
        vendor: 'Château Lafleur',
        categories: ['red'],
        flag: 'new',
        tags: ['organic'],
        published: true,
        archived_at: null,
        created_at: '2026-01-01T10:00:00.000Z',
        updated_at: null,
        images: [
          { src: 'https://cdn.example/p1.jpg', alt: 'Alpha Merlot', width: 800, height: 1200 },
          { src: 'https://cdn.example/p1-back.jpg', alt: null, width: 800, height: 1200 },
        ],
        ratings: [5, 4, 4],
        rating: { average: 4.33, count: 3 },
      });
      expect(p.collections.map((c: Json) => c.key).sort()).toEqual(['cheap-reds', 'hidden', 'picks']);
      expect(p.variants.map((v: Json) => v.key)).toEqual(['v1a', 'v1b']);
      expect(p.variants[0]).toEqual({
        id: ids.variants.v1a,
        key: 'v1a',
        handle: 'v1a',
        sku: 'ALP-MER-18-75',
        title: { en: '75 cl' },
        price: 24.9,
        compare_at_price: 29.9,
        tax_rate: 8.1,
        published: true,
        active: true,
        color: 'red',
        region: 'bordeaux',
        year: '2018',
        size: '75cl',
        country: 'FR',
        alcohol_volume: 13.5,
        grams: 1300,
        option_group: null,
        description: {},
        description_additional: {},
        area: null,
        quantity_rule: { min: 1, max: null, increment: 1 },
        custom_fields: { grape: ['merlot'] },
        track_inventory: true,
        allow_backorder: false,
        gift_card: false,
        stock: { cellar: 10 },
        inventory_quantity: 10,
        prices: [
          { currency: 'CHF', price: 24.9, compare_at_price: 29.9 },
          { currency: 'EUR', price: 26.39, compare_at_price: 31.69 },
        ],
        created_at: expect.any(String),
        updated_at: null,
      });
    });

    it('round-trips: GET, PUT of it unchanged, and GET again is identical (nothing written)', async () => {
      for (const key of ['p1', 'p3', 'p6']) {
        const before = (await shop.admin.get(`/admin/products/${ids.products[key]}`).expect(200)).body;
        const put = await shop.admin.put(`/admin/products/${ids.products[key]}`, before.product).expect(200);
        expect(put.body).toEqual(before);
        const after = (await shop.admin.get(`/admin/products/${ids.products[key]}`).expect(200)).body;
        expect(after).toEqual(before);
      }
    });

    it('a partial update changes one member and leaves every other one', async () => {
      const before = (await shop.admin.get(`/admin/products/${ids.products.p2}`).expect(200)).body.product;
      const res = await shop.admin.put(`/admin/products/${ids.products.p2}`, { title: { de: 'Bravo Riesling DE' } }).expect(200);
      const after = res.body.product;
      expect(after.title).toEqual({ en: 'Bravo Riesling', de: 'Bravo Riesling DE' });
      expect(after.updated_at).not.toBeNull();
      const strip = (p: Json) => ({ ...p, title: null, updated_at: null, variants: p.variants.map((v: Json) => ({ ...v, updated_at: null })) });
      expect(strip(after)).toEqual(strip(before));
      // a plain string sets the default language; {"de": null} removes one; null clears a nullable member
      const cleared = (
        await shop.admin.put(`/admin/products/${ids.products.p2}`, { title: { de: null }, flag: 'new', body_html: null, images: null }).expect(200)
      ).body.product;
      expect(cleared).toMatchObject({ title: { en: 'Bravo Riesling' }, flag: 'new', body_html: {}, images: [], ratings: [3], manufacturer: 'muller' });
      const restored = (
        await shop.admin.put(`/admin/products/${ids.products.p2}`, { flag: null, body_html: '<p>Bravo Riesling</p>', images: before.images }).expect(200)
      ).body.product;
      expect(strip(restored)).toEqual(strip(before));
    });

    it('a partial variant update leaves the other members and variants', async () => {
      const before = (await shop.admin.get(`/admin/products/${ids.products.p1}`).expect(200)).body.product;
      const res = await shop.admin
        .put(`/admin/products/${ids.products.p1}/variants/${ids.variants.v1b}`, { sku: 'ALP-MER-18-150-NEW', stock: { cellar: 6 } })
        .expect(200);
      expect(Object.keys(res.body)).toEqual(['variant']);
      expect(res.body.variant).toMatchObject({
        id: ids.variants.v1b,
        sku: 'ALP-MER-18-150-NEW',
        stock: { cellar: 6 },
        inventory_quantity: 6,
        price: 45,
        color: 'red',
      });
      const after = (await shop.admin.get(`/admin/products/${ids.products.p1}`).expect(200)).body.product;
      expect(after.variants[0]).toEqual(before.variants[0]);
      const [move] = await t.db.query(`SELECT delta, reason FROM stock_movements WHERE tenant_id = $1 AND variant_id = $2 ORDER BY id DESC LIMIT 1`, [
        shop.tenant.id,
        ids.variants.v1b,
      ]);
      expect([Number(move.delta), move.reason]).toEqual([6, 'admin']);
    });

    it('a price change is visible at once on the storefront list, facets, detail and cart', async () => {
      const v = ids.variants.v2a;
      await shop.storefront.get('/products?include=facets').expect(200); // warm every cache
      await shop.admin.put(`/admin/products/${ids.products.p2}/variants/${v}`, { price: 12.5 }).expect(200);
      const list = await shop.storefront.get(`/products?category_id=${ids.categories.white}&include=facets`).expect(200);
      const p2 = list.body.products.find((p: Json) => p.id === ids.products.p2);
      expect(p2.price_min).toBe(12.5);
      expect(list.body.price_range.min).toBe(12.5);
      const cheap = await shop.storefront.get('/products?price_max=13').expect(200);
      expect(cheap.body.products.map((p: Json) => p.id)).toEqual([ids.products.p2]);
      const detail = await shop.storefront.get(`/products/${ids.products.p2}`).expect(200);
      expect(detail.body.product.variants[0].price).toBe(12.5);
      const cart = await t.client(shop.storefront_token).post('/cart/items', { article_id: v, quantity: 2 }).expect(200);
      expect(cart.body.cart.items_subtotal_price).toBe(25);
      await shop.admin.put(`/admin/products/${ids.products.p2}/variants/${v}`, { price: 18.5 }).expect(200);
    });

    it('a facet change is counted at once', async () => {
      const colors = async () => {
        const res = await shop.storefront.get('/products/facets').expect(200);
        return Object.fromEntries(res.body.facets.find((f: Json) => f.key === 'colors').values.map((v: Json) => [v.id, v.count]));
      };
      const before = await colors();
      await shop.admin.put(`/admin/products/${ids.products.p2}/variants/${ids.variants.v2a}`, { color: 'rose' }).expect(200);
      const after = await colors();
      expect(after[ids.facets.colors.rose]).toBe((before[ids.facets.colors.rose] ?? 0) + 1);
      expect(after[ids.facets.colors.white]).toBe(before[ids.facets.colors.white] - 1);
      await shop.admin.put(`/admin/products/${ids.products.p2}/variants/${ids.variants.v2a}`, { color: 'white' }).expect(200);
      expect(await colors()).toEqual(before);
    });

    it('concurrent changes of different members of one product all land (the product row is locked per change)', async () => {
      const p = ids.products.p6;
      await Promise.all([
        shop.admin.put(`/admin/products/${p}`, { title: { de: 'Foxtrot Brut DE' } }).expect(200),
        shop.admin.put(`/admin/products/${p}`, { tags: ['bubbles'] }).expect(200),
        shop.admin.put(`/admin/products/${p}/variants/${ids.variants.v6a}`, { sku: 'FOX-NEW' }).expect(200),
        shop.admin.put(`/admin/products/${p}/variants/${ids.variants.v6b}`, { stock: { cellar: 11 } }).expect(200),
      ]);
      const after = (await shop.admin.get(`/admin/products/${p}`).expect(200)).body.product;
      expect(after.title).toEqual({ en: 'Foxtrot Brut', de: 'Foxtrot Brut DE' });
      expect(after.tags).toEqual(['bubbles']);
      expect(after.variants.map((v: Json) => [v.sku, v.stock])).toEqual([
        ['FOX-NEW', { cellar: 7 }],
        ['FOX-BRU-19-150', { cellar: 11 }],
      ]);
    });

    it('unpublishing removes the product from the storefront and its smart collections; publishing brings it back', async () => {
      const smart = ids.collections['cheap-reds'];
      const inSmart = async () => (await shop.storefront.get(`/collections/${smart}/products`).expect(200)).body.products.map((p: Json) => p.id);
      expect(await inSmart()).toContain(ids.products.p10);
      await shop.admin.put(`/admin/products/${ids.products.p10}`, { published: false }).expect(200);
      await shop.storefront.get(`/products/${ids.products.p10}`).expect(404);
      expect(await inSmart()).not.toContain(ids.products.p10);
      const facets = await shop.storefront.get('/products/facets').expect(200);
      const sparkling = facets.body.facets.find((f: Json) => f.key === 'categories').values.find((v: Json) => v.id === ids.categories.sparkling);
      expect(sparkling.count).toBe(1); // p6 only
      await shop.admin.put(`/admin/products/${ids.products.p10}`, { published: true }).expect(200);
      expect(await inSmart()).toContain(ids.products.p10);
    });

    it('a variant leaving the price rule leaves the smart collection', async () => {
      const smart = ids.collections['cheap-reds'];
      await shop.admin.put(`/admin/products/${ids.products.p10}/variants/${ids.variants.v10a}`, { price: 35 }).expect(200);
      const res = await shop.storefront.get(`/collections/${smart}/products`).expect(200);
      expect(res.body.products.map((p: Json) => p.id)).not.toContain(ids.products.p10);
      const admin = await shop.admin.get(`/admin/products/${ids.products.p10}`).expect(200);
      expect(admin.body.product.collections.map((c: Json) => c.key)).not.toContain('cheap-reds');
      await shop.admin.put(`/admin/products/${ids.products.p10}/variants/${ids.variants.v10a}`, { price: 24.9 }).expect(200);
    });

    it('PUT of a product adds and changes variants by id or key; a key change keeps the row', async () => {
      const res = await shop.admin
        .put(`/admin/products/${ids.products.p4}`, {
          key: 'p4-renamed',
          variants: [
            { id: ids.variants.v4a, key: 'v4a-renamed', title: { de: '75 cl DE' } },
            { key: 'v4b', title: '150 cl', price: 99, size: '150cl', stock: { cellar: 2 } },
          ],
        })
        .expect(200);
      const p = res.body.product;
      expect(p.id).toBe(ids.products.p4);
      expect(p.key).toBe('p4-renamed');
      expect(p.variants.map((v: Json) => [v.key, v.title])).toEqual([
        ['v4a-renamed', { en: '75 cl', de: '75 cl DE' }],
        ['v4b', { en: '150 cl' }],
      ]);
      expect(p.variants[0].id).toBe(ids.variants.v4a);
      const sf = await shop.storefront.get(`/products/${ids.products.p4}`).expect(200);
      expect(sf.body.product.variants).toHaveLength(2);
    });
  });

  describe('422 paths', () => {
    it.each([
      [
        'a price of the wrong type in a product PUT',
        'put',
        () => `/admin/products/${ids.products.p1}`,
        { variants: [{ key: 'v1b', price: 'cheap' }] },
        'product.variants[0].price must be a number',
      ],
      [
        'an unknown variant id',
        'put',
        () => `/admin/products/${ids.products.p1}`,
        () => ({ variants: [{ id: ids.variants.v2a, price: 1 }] }),
        'product.variants[0].id',
      ],
      ['an unknown manufacturer', 'put', () => `/admin/products/${ids.products.p1}`, { manufacturer: 'nobody' }, 'product.manufacturer names no manufacturer'],
      ['an unknown category', 'put', () => `/admin/products/${ids.products.p1}`, { categories: ['red', 'beer'] }, 'product.categories[1]'],
      [
        'a title in a bad language code',
        'put',
        () => `/admin/products/${ids.products.p1}`,
        { title: { 'not a language': 'x' } },
        'product.title.not a language',
      ],
      ['a cleared title', 'put', () => `/admin/products/${ids.products.p1}`, { title: null }, 'product.title is required'],
      ['a rating out of range', 'put', () => `/admin/products/${ids.products.p1}`, { ratings: [6] }, 'product.ratings[0]'],
      ['another product’s key', 'put', () => `/admin/products/${ids.products.p1}`, { key: 'p2' }, 'product.key'],
      ['another variant’s key', 'put', () => `/admin/products/${ids.products.p1}/variants/${ids.variants.v1a}`, { key: 'v2a' }, 'variant.key'],
      [
        'an unknown facet value on a variant',
        'put',
        () => `/admin/products/${ids.products.p1}/variants/${ids.variants.v1a}`,
        { color: 'blue' },
        'variant.color names no color',
      ],
      ['a negative price', 'put', () => `/admin/products/${ids.products.p1}/variants/${ids.variants.v1a}`, { price: -1 }, 'variant.price must be at least 0'],
      [
        'an unknown custom-field option',
        'put',
        () => `/admin/products/${ids.products.p1}/variants/${ids.variants.v1a}`,
        { custom_fields: { grape: ['pinot'] } },
        'variant.custom_fields.grape[0]',
      ],
      ['an unknown location', 'put', () => `/admin/products/${ids.products.p1}/variants/${ids.variants.v1a}`, { stock: { attic: 3 } }, 'variant.stock.attic'],
      ['a product without title', 'post', () => '/admin/products', { key: 'new-1' }, 'product.title is required'],
      ['a product with a taken key', 'post', () => '/admin/products', { key: 'p1', title: 'Copy' }, 'product.key'],
      ['a variant without price', 'post', () => `/admin/products/${ids.products.p1}/variants`, { key: 'v1c' }, 'variant.price is required'],
      ['a variant with a taken key', 'post', () => `/admin/products/${ids.products.p1}/variants`, { key: 'v2a', price: 3 }, 'variant.key'],
      ['a body that is not an object', 'put', () => `/admin/products/${ids.products.p1}`, [1, 2], 'must be a JSON object'],
    ])('refuses %s and changes nothing', async (_name, method, path, body, message) => {
      const before = (await shop.admin.get(`/admin/products/${ids.products.p1}`).expect(200)).body;
      const client = shop.admin;
      const payload = (typeof body === 'function' ? body() : body) as object;
      const res = await (method === 'put' ? client.put(path(), payload) : client.post(path(), payload)).expect(422);
      expect(res.body.errors).toEqual(expect.stringContaining(message));
      expect((await shop.admin.get(`/admin/products/${ids.products.p1}`).expect(200)).body).toEqual(before);
      const [count] = await t.db.query(`SELECT count(*)::int AS n FROM products WHERE tenant_id = $1`, [shop.tenant.id]);
      expect(count.n).toBe(10);
    });

    it.each([
      ['an empty image src', { images: [{ src: '' }] }, 'images[0].src must not be empty'],
      ['a fractional weight', { variants: [{ key: 'v1a', price: 24.9, grams: 1.5 }] }, 'variants[0].grams must be an integer'],
      ['a date that is not one', { created_at: 'yesterday' }, 'created_at must be an ISO 8601 date-time'],
      ['an empty tag', { tags: [''] }, 'tags[0] must be a non-empty string of at most 255 characters'],
      ['a facet value that is not a key', { variants: [{ key: 'v1a', price: 24.9, color: 7 }] }, 'variants[0].color must be a string'],
      ['a variant id that is not a string', { variants: [{ id: 7, key: 'v1a', price: 24.9 }] }, 'variants[0].id must be a string'],
    ])('refuses %s with the same schema and message on PUT and in the import', async (_name, member, message) => {
      const put = await shop.admin.put(`/admin/products/${ids.products.p1}`, member).expect(422);
      expect(put.body.errors).toBe(`product.${message}`);
      const imported = await shop.admin.post('/admin/catalogue/import', { products: [{ key: 'p1', title: 'Alpha Merlot', ...member }] }).expect(422);
      expect(imported.body.errors).toBe(`products[0].${message}`);
    });

    it('refuses a variant member per schema on the variant PUT and POST, naming it', async () => {
      const put = await shop.admin.put(`/admin/products/${ids.products.p1}/variants/${ids.variants.v1a}`, { quantity_rule: { increment: 0 } }).expect(422);
      expect(put.body.errors).toBe('variant.quantity_rule.increment must be at least 0.001');
      const post = await shop.admin.post(`/admin/products/${ids.products.p1}/variants`, { price: null }).expect(422);
      expect(post.body.errors).toBe('variant.price must be a number');
      const create = await shop.admin.post('/admin/products', { title: 'New', variants: [{ sku: 'x' }] }).expect(422);
      expect(create.body.errors).toBe('product.variants[0].price is required');
    });

    it('a non-UUID id is 422, an unknown one 404', async () => {
      await shop.admin.get('/admin/products/nope').expect(422);
      await shop.admin.get('/admin/products/00000000-0000-4000-8000-000000000000').expect(404);
      await shop.admin.put('/admin/products/00000000-0000-4000-8000-000000000000', { tags: [] }).expect(404);
      await shop.admin.put(`/admin/products/${ids.products.p1}/variants/${ids.variants.v2a}`, { price: 1 }).expect(404);
      await shop.admin.delete(`/admin/products/${ids.products.p1}/variants/${ids.variants.v2a}`).expect(404);
    });
  });

  describe('POST, DELETE, events, idempotency', () => {
    it('creates a product with generated keys, on the storefront at once, and emits product.created', async () => {
      const res = await shop.admin
        .post('/admin/products', {
          title: { en: 'Kilo Pinot', de: 'Kilo Pinot DE' },
          manufacturer: 'rossi',
          categories: ['red'],
          variants: [{ price: 19, color: 'red', size: '75cl', stock: { cellar: 3 } }],
        })
        .expect(201);
      const p = res.body.product;
      expect(p.key).toMatch(/^[0-9a-f-]{36}$/);
      expect(p.handle).toBe('kilo-pinot');
      expect(p.variants).toHaveLength(1);
      expect(p.variants[0].key).toMatch(/^[0-9a-f-]{36}$/);
      expect(p.variants[0].inventory_quantity).toBe(3);
      const sf = await shop.storefront.get(`/products?category_id=${ids.categories.red}&order=created%20desc&limit=1`).expect(200);
      expect(sf.body.products[0].id).toBe(p.id);
      const [event] = await t.db.query(`SELECT payload FROM outbox_events WHERE tenant_id = $1 AND topic = 'product.created'`, [shop.tenant.id]);
      expect(event.payload.product.id).toBe(p.id);
      const variant = await shop.admin.post(`/admin/products/${p.id}/variants`, { key: 'kilo-150', price: 36, size: '150cl', color: 'red' }).expect(201);
      expect(variant.body.variant).toMatchObject({ key: 'kilo-150', price: 36, size: '150cl' });
      const detail = await shop.storefront.get(`/products/${p.id}`).expect(200);
      expect(detail.body.product.variants).toHaveLength(2);
      await shop.admin.delete(`/admin/products/${p.id}`).expect(204);
    });

    it('honours Idempotency-Key on POST: a retry returns the first answer and creates nothing more', async () => {
      const body = { key: 'idem-1', title: 'Lima Gamay', variants: [{ price: 14 }] };
      const first = await shop.admin.post('/admin/products', body).set('Idempotency-Key', 'create-lima').expect(201);
      const again = await shop.admin.post('/admin/products', body).set('Idempotency-Key', 'create-lima').expect(201);
      expect(again.body).toEqual(first.body);
      const [n] = await t.db.query(`SELECT count(*)::int AS n FROM products WHERE tenant_id = $1 AND key = 'idem-1'`, [shop.tenant.id]);
      expect(n.n).toBe(1);
      await shop.admin
        .post('/admin/products', { ...body, title: 'Other' })
        .set('Idempotency-Key', 'create-lima')
        .expect(422);
      await shop.admin.delete(`/admin/products/${first.body.product.id}`).expect(204);
    });

    it('deleting a product without orders removes it; with orders it is archived and the order keeps its lines', async () => {
      // an order of p7
      const visitor = t.client(shop.storefront_token);
      await visitor.post('/cart/items', { article_id: ids.variants.v7a, quantity: 1 }).expect(200);
      const checkout = (await visitor.post('/checkouts').expect(200)).body.checkout;
      await visitor.put(`/checkouts/${checkout.id}`, { shipping_address: CH_ADDRESS, shipping_method_id: ids.shipping_methods.post }).expect(200);
      const placed = (
        await visitor
          .post(`/checkouts/${checkout.id}/complete`, { payment_type_id: ids.payment_types.invoice, accepted_terms: true, age_confirmed: true })
          .expect(200)
      ).body.checkout;
      const receipt = async () => (await t.client(shop.storefront_token).get(`/orders/${placed.order_id}?hash=${placed.hash}`).expect(200)).body.order;
      const before = await receipt();

      await shop.admin.delete(`/admin/products/${ids.products.p7}`).expect(204);
      await shop.storefront.get(`/products/${ids.products.p7}`).expect(404);
      const archived = (await shop.admin.get(`/admin/products/${ids.products.p7}`).expect(200)).body.product;
      expect(archived.published).toBe(false);
      expect(archived.archived_at).not.toBeNull();
      expect(keysOf(await all(shop.admin, '/admin/products'))).not.toContain('p7');
      expect(keysOf(await all(shop.admin, '/admin/products?archived=true'))).toEqual(['p7']);
      expect(await receipt()).toEqual(before);
      const [line] = await t.db.query(`SELECT product_id, variant_id, title FROM order_lines WHERE tenant_id = $1 AND order_id = $2`, [
        shop.tenant.id,
        placed.order_id,
      ]);
      expect(line).toMatchObject({ product_id: ids.products.p7, variant_id: ids.variants.v7a });
      await shop.admin.delete(`/admin/products/${ids.products.p7}`).expect(404);
      await shop.admin.put(`/admin/products/${ids.products.p7}`, { published: true }).expect(404);

      await shop.admin.delete(`/admin/products/${ids.products.p5}`).expect(204);
      await shop.admin.get(`/admin/products/${ids.products.p5}`).expect(404);
      const events = await t.db.query(`SELECT payload FROM outbox_events WHERE tenant_id = $1 AND topic = 'product.deleted' ORDER BY occurred_at, id`, [
        shop.tenant.id,
      ]);
      expect(events.map((e: Json) => e.payload.product).filter((p: Json) => ['p5', 'p7'].includes(p.key))).toEqual([
        { id: ids.products.p7, key: 'p7', archived: true },
        { id: ids.products.p5, key: 'p5', archived: false },
      ]);
    });

    it('deleting a variant hides it from the storefront and the admin detail', async () => {
      await shop.admin.delete(`/admin/products/${ids.products.p3}/variants/${ids.variants.v3b}`).expect(204);
      const sf = await shop.storefront.get(`/products/${ids.products.p3}`).expect(200);
      expect(sf.body.product.variants.map((v: Json) => v.id)).toEqual([ids.variants.v3a]);
      const admin = await shop.admin.get(`/admin/products/${ids.products.p3}`).expect(200);
      expect(admin.body.product.variants.map((v: Json) => v.key)).toEqual(['v3a']);
      await shop.admin.delete(`/admin/products/${ids.products.p3}/variants/${ids.variants.v3b}`).expect(404);
      const [event] = await t.db.query(
        `SELECT payload FROM outbox_events WHERE tenant_id = $1 AND topic = 'product.updated' ORDER BY occurred_at DESC, id DESC LIMIT 1`,
        [shop.tenant.id],
      );
      expect(event.payload.product.variants.map((v: Json) => v.key)).toEqual(['v3a']);
    });

    it('product topics are webhook topics', async () => {
      for (const topic of ['product.created', 'product.updated', 'product.deleted']) {
        await shop.admin.post('/admin/webhooks', { topic, address: `https://hooks.example/${topic}` }).expect(201);
      }
    });
  });

  describe('GET /admin/catalogue/export', () => {
    // ids differ between shops, and so does the order of ties (broken by id): compare without ids, products by handle
    const normalize = (body: Json): unknown => {
      const out = JSON.parse(JSON.stringify(body).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'ID'));
      for (const list of [out.products, out.collections]) if (Array.isArray(list)) list.sort((a: Json, b: Json) => a.handle.localeCompare(b.handle));
      return out;
    };

    it('exports the catalogue as the import document; importing it into another shop gives identical storefront answers', async () => {
      const res = await shop.admin.get('/admin/catalogue/export').expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['transfer-encoding']).toBe('chunked');
      const doc = res.body;
      expect(Object.keys(doc)).toEqual([
        'settings',
        'currencies',
        'countries',
        'locations',
        'manufacturers',
        'categories',
        'facets',
        'custom_fields',
        'flags',
        'shipping_methods',
        'payment_types',
        'products',
        'collections',
        'search_synonyms',
      ]);
      expect(doc.products.map((p: Json) => p.key)).not.toContain('p7'); // archived

      const copy = await t.createShop();
      const report = (await copy.admin.post('/admin/catalogue/import', doc).expect(200)).body.import;
      expect(report.created.products).toBe(doc.products.length);

      const paths = [
        '/products?include=facets&limit=50&order=title%20asc',
        `/products?include=facets&q=riesling`,
        '/products?price_min=20&price_max=40&order=price%20asc&currency=EUR',
        '/products?available=true&on_sale=true&order=title%20asc',
        '/collections',
      ];
      for (const path of paths) {
        const a = (await shop.storefront.get(path).expect(200)).body;
        const b = (await copy.storefront.get(path).expect(200)).body;
        expect([path, normalize(b)]).toEqual([path, normalize(a)]);
      }
      const byHandle = async (client: ShopClient) => {
        const list = (await client.get('/products?limit=250&order=title%20asc').expect(200)).body.products;
        return Promise.all(list.map(async (p: Json) => normalize((await client.get(`/products/${p.id}`).expect(200)).body)));
      };
      expect(await byHandle(copy.storefront)).toEqual(await byHandle(shop.storefront));
      // and the copy exports the same document
      const again = (await copy.admin.get('/admin/catalogue/export').expect(200)).body;
      expect(again).toEqual(doc);
    });

    it('streams a larger catalogue in many chunks, batch by batch, and it round-trips', async () => {
      const demo = await t.createShop();
      await t.get(CatalogueImportService).import(RequestContext.forTenant(demo.tenant.id), generateDemoCatalogue(450));
      let chunks = 0;
      const res = await demo.admin
        .get('/admin/catalogue/export')
        .buffer(true)
        .parse((r, cb) => {
          let text = '';
          r.setEncoding('utf8');
          r.on('data', (c: string) => {
            chunks += 1;
            text += c;
          });
          r.on('end', () => cb(null, text));
        })
        .expect(200);
      expect(chunks).toBeGreaterThan(3);
      const doc = JSON.parse(res.body as string);
      expect(doc.products).toHaveLength(450);
      const copy = await t.createShop();
      await t.get(CatalogueImportService).import(RequestContext.forTenant(copy.tenant.id), doc);
      const again = (await copy.admin.get('/admin/catalogue/export').expect(200)).body;
      expect(again).toEqual(doc);
    });

    it('streams NDJSON fragments that concatenate to the same document (by ?format or Accept)', async () => {
      const json = (await shop.admin.get('/admin/catalogue/export?format=json').expect(200)).body;
      for (const req of [
        shop.admin.get('/admin/catalogue/export?format=ndjson'),
        shop.admin.get('/admin/catalogue/export').set('Accept', 'application/x-ndjson'),
      ]) {
        const res = await req
          .buffer(true)
          .parse((r, cb) => {
            let text = '';
            r.setEncoding('utf8');
            r.on('data', (c: string) => (text += c));
            r.on('end', () => cb(null, text));
          })
          .expect(200);
        expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
        const merged: Json = {};
        for (const line of (res.body as string).trim().split('\n')) {
          const fragment = JSON.parse(line);
          expect(Object.keys(fragment)).toHaveLength(1);
          const [k, v] = Object.entries(fragment)[0];
          merged[k] = Array.isArray(v) ? [...(merged[k] ?? []), ...v] : v;
        }
        merged.collections ??= [];
        expect(merged).toEqual(json);
      }
      await shop.admin.get('/admin/catalogue/export?format=xml').expect(422);
    });

    const ndjsonOf = async (client: ShopClient): Promise<string> =>
      (
        await client
          .get('/admin/catalogue/export?format=ndjson')
          .buffer(true)
          .parse((r, cb) => {
            let text = '';
            r.setEncoding('utf8');
            r.on('data', (c: string) => (text += c));
            r.on('end', () => cb(null, text));
          })
          .expect(200)
      ).body as string;

    it('an NDJSON export imported as NDJSON into another shop gives identical storefront answers', async () => {
      const ndjson = await ndjsonOf(shop.admin);
      const copy = await t.createShop();
      const report = (await copy.admin.post('/admin/catalogue/import').set('Content-Type', 'application/x-ndjson').send(ndjson).expect(200)).body.import;
      const json = (await shop.admin.get('/admin/catalogue/export').expect(200)).body;
      expect(report.created.products).toBe(json.products.length);
      expect(report.created.collections).toBe(json.collections.length);
      for (const path of [
        '/products?include=facets&limit=50&order=title%20asc',
        '/products?include=facets&q=riesling',
        '/products?price_min=20&price_max=40&order=price%20asc&currency=EUR',
        '/products?available=true&on_sale=true&order=title%20asc',
        '/collections',
      ]) {
        const a = (await shop.storefront.get(path).expect(200)).body;
        const b = (await copy.storefront.get(path).expect(200)).body;
        expect([path, normalize(b)]).toEqual([path, normalize(a)]);
      }
      // the copy exports the same document (products with equal created_at may come in another order: ids differ)
      const byKey = (d: Json) => ({ ...d, products: [...d.products].sort((x: Json, y: Json) => x.key.localeCompare(y.key)) });
      expect(byKey((await copy.admin.get('/admin/catalogue/export').expect(200)).body)).toEqual(byKey(json));
      // idempotent like the JSON form: the same lines again change nothing
      const again = (await copy.admin.post('/admin/catalogue/import').set('Content-Type', 'application/x-ndjson').send(ndjson).expect(200)).body.import;
      expect(Object.values(again.created).every((n) => n === 0) && Object.values(again.updated).every((n) => n === 0)).toBe(true);
    });

    it('an NDJSON import is validated like the JSON one, naming the member and its line, and writes nothing', async () => {
      const copy = await t.createShop();
      const send = (text: string) => copy.admin.post('/admin/catalogue/import').set('Content-Type', 'application/x-ndjson').send(text);
      const product = (key: string, price: unknown) => JSON.stringify({ products: [{ key, title: key, variants: [{ key: `${key}-v`, price }] }] });
      const lines = (...l: string[]) => l.join('\n');
      const cases: Array<[string, string]> = [
        [lines(product('a', 1), product('b', 'cheap'), ''), 'products[1].variants[0].price must be a number (line 2)'],
        [lines(product('a', 1), '{"products": [oops', ''), 'line 2 is not JSON'],
        [lines(product('a', 1), '', product('b', 2)), 'line 2 is empty'],
        [lines('{"settings": {}, "products": []}', ''), 'line 1 must be an object with exactly one member'],
        [lines('{"settings": {}}', '{"settings": {}}', ''), 'line 2: settings appears on an earlier line'],
        [lines(product('a', 1), '{"products": {"key": "b"}}', ''), 'line 2: products appears on an earlier line'],
        [lines('{"facets": {}}', '{"facets": []}'), 'line 2: facets appears on an earlier line as a single value'],
        [lines('{"products": {"key": "b"}}'), 'products must be an array'],
      ];
      for (const [text, message] of cases) {
        const res = await send(text).expect(422);
        expect([text, res.body.errors]).toEqual([text, expect.stringContaining(message)]);
      }
      const [count] = await t.db.query(`SELECT count(*)::int AS n FROM products WHERE tenant_id = $1`, [copy.tenant.id]);
      expect(count.n).toBe(0);
      // NDJSON is the import's alone; other routes still take JSON only
      await copy.admin.post('/admin/products').set('Content-Type', 'application/x-ndjson').send(lines('{"title": "x"}', '')).expect(422);
      // the last line may end without a newline; application/jsonl is read the same
      const ok = await copy.admin
        .post('/admin/catalogue/import')
        .set('Content-Type', 'application/jsonl')
        .send(lines(product('a', 1), product('b', 2)))
        .expect(200);
      expect(ok.body.import.created.products).toBe(2);
    });

    it('an NDJSON import announcing more than 50 MB is 413 before its body is read', async () => {
      const server = t.server as Server;
      if (!server.listening) await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      const port = (server.address() as AddressInfo).port;
      const headers = { 'Content-Type': 'application/x-ndjson', 'Content-Length': String(60 * 1024 * 1024), Authorization: `Bearer ${shop.admin.token}` };
      const result = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: `${API}/admin/catalogue/import`, headers }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => {
            req.destroy();
            resolve({ status: res.statusCode ?? 0, body });
          });
        });
        req.on('error', reject);
        req.write('{"products": []}\n');
      });
      expect(result.status).toBe(413);
      expect(JSON.parse(result.body)).toEqual({ errors: expect.any(String) });
    });
  });

  describe('scopes and isolation', () => {
    it('reads need Shop/catalogue/read, writes Shop/catalogue/write', async () => {
      await t.client(null).get('/admin/products').expect(401);
      await t.client(shop.storefront_token).get('/admin/products').expect(401);
      const mint = async (scopes: string[]) =>
        (await shop.admin.post('/admin/access_tokens', { label: scopes.join(), tier: 'admin', scopes }).expect(201)).body.access_token.token as string;
      const reader = t.client(await mint(['Shop/catalogue/read']));
      const writer = t.client(await mint(['Shop/catalogue/write']));
      await reader.get('/admin/products').expect(200);
      await reader.get(`/admin/products/${ids.products.p1}`).expect(200);
      await reader.get('/admin/catalogue/export').expect(200);
      await reader.put(`/admin/products/${ids.products.p1}`, { tags: [] }).expect(403);
      await reader.post('/admin/products', { title: 'x', variants: [] }).expect(403);
      await reader.delete(`/admin/products/${ids.products.p1}`).expect(403);
      await reader.put(`/admin/products/${ids.products.p1}/variants/${ids.variants.v1a}`, {}).expect(403);
      await writer.get('/admin/products').expect(403);
      await writer.get('/admin/catalogue/export').expect(403);
      await writer.put(`/admin/products/${ids.products.p1}`, {}).expect(200);
    });

    it('another shop’s ids are 404 and its list is its own', async () => {
      const other = await t.createShop();
      await other.admin.get(`/admin/products/${ids.products.p1}`).expect(404);
      await other.admin.put(`/admin/products/${ids.products.p1}`, { tags: ['x'] }).expect(404);
      await other.admin.delete(`/admin/products/${ids.products.p1}`).expect(404);
      await other.admin.post(`/admin/products/${ids.products.p1}/variants`, { price: 1 }).expect(404);
      await other.admin.put(`/admin/products/${ids.products.p1}/variants/${ids.variants.v1a}`, { price: 1 }).expect(404);
      await other.admin.delete(`/admin/products/${ids.products.p1}/variants/${ids.variants.v1a}`).expect(404);
      expect((await other.admin.get('/admin/products').expect(200)).body.products).toEqual([]);
      expect((await other.admin.get(`/admin/products?vendor=${ids.manufacturers.chateau}`).expect(200)).body.products).toEqual([]);
      const doc = (await other.admin.get('/admin/catalogue/export').expect(200)).body;
      expect(doc.products).toEqual([]);
      const [row] = await t.db.query(`SELECT tags FROM products WHERE id = $1`, [ids.products.p1]);
      expect(row.tags).toEqual(['organic']);
    });
  });

  it('an import of an archived product’s key brings it back', async () => {
    const doc = fixtureImport() as { products: Json[] };
    const report = (await shop.admin.post('/admin/catalogue/import', { products: doc.products.filter((p) => p.key === 'p7') }).expect(200)).body.import;
    expect(report.updated.products).toBe(1);
    const p7 = (await shop.admin.get(`/admin/products/${ids.products.p7}`).expect(200)).body.product;
    expect(p7).toMatchObject({ published: true, archived_at: null });
    await shop.storefront.get(`/products/${ids.products.p7}`).expect(200);
    expect(keysOf(await all(shop.admin, '/admin/products'))).toContain('p7');
  });

  it('OpenAPI documents the endpoints with the import’s product schema', async () => {
    const doc = (await t.http().get(`${API}/openapi.json`).expect(200)).body;
    for (const [path, methods] of Object.entries({
      '/api/2026-04-01/admin/products': ['get', 'post'],
      '/api/2026-04-01/admin/products/{id}': ['get', 'put', 'delete'],
      '/api/2026-04-01/admin/products/{id}/variants': ['post'],
      '/api/2026-04-01/admin/products/{id}/variants/{variant_id}': ['put', 'delete'],
      '/api/2026-04-01/admin/catalogue/export': ['get'],
    })) {
      for (const m of methods) expect([path, m, !!doc.paths[path]?.[m]]).toEqual([path, m, true]);
    }
    const ref = (op: Json) => op.requestBody.content['application/json'].schema.$ref;
    const schemas = doc.components.schemas;
    // one set of member schemas: the PUT bodies are the very components the import document's products are made of
    const importProducts = schemas.CatalogueImportDocument.properties.products;
    expect(importProducts.type).toEqual(['array', 'null']);
    expect(ref(doc.paths['/api/2026-04-01/admin/products/{id}'].put)).toBe('#/components/schemas/ImportProduct');
    expect(importProducts.items.allOf[0].$ref).toBe(ref(doc.paths['/api/2026-04-01/admin/products/{id}'].put));
    expect(importProducts.items.allOf[1].required).toEqual(['key', 'title']);
    expect(ref(doc.paths['/api/2026-04-01/admin/products/{id}/variants/{variant_id}'].put)).toBe('#/components/schemas/ImportVariant');
    expect(schemas.ImportProduct.properties.variants.items.$ref).toBe('#/components/schemas/ImportVariant');
    expect(schemas.ImportProduct.required).toBeUndefined();
    expect(schemas.ImportVariant.required).toBeUndefined();
    expect(ref(doc.paths['/api/2026-04-01/admin/products'].post)).toBe('#/components/schemas/AdminProductCreate');
    expect(schemas.AdminProductCreate.allOf[0].$ref).toBe('#/components/schemas/ImportProduct');
    expect(ref(doc.paths['/api/2026-04-01/admin/products/{id}/variants'].post)).toBe('#/components/schemas/AdminVariantCreate');
    expect(schemas.AdminVariantCreate.allOf[0].$ref).toBe('#/components/schemas/ImportVariant');
    for (const name of ['ProductInputDto', 'VariantInputDto', 'CatalogueDocumentDto']) expect(schemas[name]).toBeUndefined();
    // the import reads JSON or NDJSON, the export writes either
    const importBody = doc.paths['/api/2026-04-01/admin/catalogue/import'].post.requestBody.content;
    expect(importBody['application/json'].schema.$ref).toBe('#/components/schemas/CatalogueImportDocument');
    expect(importBody['application/x-ndjson'].schema.$ref).toBe('#/components/schemas/CatalogueImportFragment');
    const exported = doc.paths['/api/2026-04-01/admin/catalogue/export'].get.responses['200'].content;
    expect(exported['application/json'].schema.$ref).toBe('#/components/schemas/CatalogueImportDocument');
    expect(exported['application/x-ndjson'].schema.$ref).toBe('#/components/schemas/CatalogueImportFragment');
    expect(schemas.AdminProductDto.properties.variants.items.$ref).toBe('#/components/schemas/AdminVariantDto');
  });
});
