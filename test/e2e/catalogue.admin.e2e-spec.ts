import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { generateDemoCatalogue } from '../../src/catalogue/import/demo-catalogue.js';
import { CatalogueImportService } from '../../src/catalogue/import/catalogue-import.service.js';
import { RequestContext } from '../../src/common/context/request-context.js';
import { fixtureImport, PRODUCTS } from './catalogue.fixture.js';

describe('admin catalogue import and collection products', () => {
  let t: TestApp;
  let shop: TestShop;
  let report: { created: Record<string, number>; updated: Record<string, number>; ids: Record<string, Record<string, unknown>> };

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
  });
  afterAll(() => t.close());

  it('imports the catalogue and reports created counts and ids by key', async () => {
    const res = await shop.admin.post('/admin/catalogue/import', fixtureImport()).expect(200);
    report = res.body.import;
    expect(Object.keys(res.body)).toEqual(['import']);
    const variants = PRODUCTS.flatMap((p) => p.variants);
    expect(report.created).toMatchObject({
      products: PRODUCTS.length,
      variants: variants.length,
      manufacturers: 4,
      categories: 4,
      collections: 3,
      locations: 1,
      custom_field_options: 4,
      'facets.colors': 3,
    });
    expect(Object.keys(report.ids.products).sort()).toEqual(PRODUCTS.map((p) => p.key).sort());
    expect(Object.keys(report.ids.variants)).toHaveLength(variants.length);
    for (const id of Object.values(report.ids.products)) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(report.ids.facets)).toEqual(expect.arrayContaining(['colors', 'regions', 'sizes', 'years', 'countries']));
    expect((report.ids.facets as Record<string, Record<string, string>>).colors.red).toMatch(/^[0-9a-f-]{36}$/);
    for (const kind of [
      'collections',
      'locations',
      'currencies',
      'countries',
      'shipping_methods',
      'payment_types',
      'custom_field_options',
      'categories',
      'manufacturers',
    ]) {
      expect(Object.keys(report.ids[kind]).length).toBeGreaterThan(0);
    }
    // the shop's settings and currencies came with it
    const rows = await t.db.query(`SELECT code, rate, is_default FROM currencies WHERE tenant_id = $1 ORDER BY code`, [shop.tenant.id]);
    expect(rows.map((r: { code: string }) => r.code)).toEqual(['CHF', 'EUR']);
    const [stock] = await t.db.query(`SELECT sum(delta) AS n FROM stock_movements WHERE tenant_id = $1`, [shop.tenant.id]);
    expect(Number(stock.n)).toBe(PRODUCTS.flatMap((p) => p.variants).reduce((a, v) => a + (v.stock ?? 0), 0));
  });

  it('is idempotent: a second identical import creates and updates nothing, same ids', async () => {
    const res = await shop.admin.post('/admin/catalogue/import', fixtureImport()).expect(200);
    const again = res.body.import;
    for (const [kind, n] of Object.entries(again.created)) expect([kind, n]).toEqual([kind, 0]);
    for (const [kind, n] of Object.entries(again.updated)) expect([kind, n]).toEqual([kind, 0]);
    expect(again.ids.products).toEqual(report.ids.products);
    expect(again.ids.variants).toEqual(report.ids.variants);
    const [moves] = await t.db.query(`SELECT count(*) AS n FROM stock_movements WHERE tenant_id = $1`, [shop.tenant.id]);
    expect(Number(moves.n)).toBe(PRODUCTS.flatMap((p) => p.variants).filter((v) => v.stock).length);
  });

  it('updates only what changed', async () => {
    const body = fixtureImport() as { products: Array<{ title: unknown; variants: Array<{ price: number; stock?: Record<string, number> }> }> };
    body.products[1].title = 'Bravo Riesling Kabinett';
    body.products[2].variants[0].stock = { cellar: 4 };
    const res = await shop.admin.post('/admin/catalogue/import', body).expect(200);
    expect(res.body.import.updated.products).toBe(1);
    expect(res.body.import.updated.variants).toBe(1);
    expect(res.body.import.created.products).toBe(0);
    const sf = await shop.storefront.get(`/products/${report.ids.products.p2}`).expect(200);
    expect(sf.body.product.title).toBe('Bravo Riesling Kabinett');
    await shop.admin.post('/admin/catalogue/import', fixtureImport()).expect(200);
  });

  it.each([
    ['a price of the wrong type', (b: any) => (b.products[3].variants[0].price = 'cheap'), 'products[3].variants[0].price'],
    ['a missing price', (b: any) => delete b.products[1].variants[0].price, 'products[1].variants[0].price'],
    ['an unknown manufacturer', (b: any) => (b.products[2].manufacturer = 'nobody'), 'products[2].manufacturer'],
    ['an unknown facet value', (b: any) => (b.products[0].variants[1].color = 'blue'), 'products[0].variants[1].color'],
    [
      'an unknown custom-field option',
      (b: any) => (b.products[0].variants[0].custom_fields = { grape: ['pinot'] }),
      'products[0].variants[0].custom_fields.grape[0]',
    ],
    ['an unknown category parent', (b: any) => (b.categories[1].parent = 'beer'), 'categories[1].parent'],
    ['a duplicate product key', (b: any) => (b.products[4].key = 'p1'), 'products[4].key'],
    ['a bad currency code', (b: any) => (b.currencies[1].code = 'EURO'), 'currencies[1].code'],
    ['a bad smart rule', (b: any) => (b.collections[1].rules_json = '{"all":[{"field":"colour","eq":"red"}]}'), 'collections[1].rules_json'],
    ['a collection of an unknown product', (b: any) => (b.collections[0].products = ['p1', 'p99']), 'collections[0].products[1]'],
    ['products not an array', (b: any) => (b.products = { p1: {} }), 'products'],
  ])('rejects %s with 422 naming the path, and changes nothing', async (_name, mutate, path) => {
    const body = fixtureImport();
    (body.products as any[])[0].title = 'Should not be stored';
    mutate(body);
    const res = await shop.admin.post('/admin/catalogue/import', body).expect(422);
    expect(res.body.errors).toEqual(expect.stringContaining(path));
    expect(res.body.errors.startsWith(path)).toBe(true);
    const [row] = await t.db.query(`SELECT title FROM products WHERE tenant_id = $1 AND key = 'p1'`, [shop.tenant.id]);
    expect(row.title.en).toBe('Alpha Merlot');
  });

  it('refuses a body that is not an object', async () => {
    await shop.admin.post('/admin/catalogue/import', [1, 2]).expect(422);
  });

  it('needs an admin token with Shop/catalogue/write', async () => {
    await t.client(null).post('/admin/catalogue/import', {}).expect(401);
    await t.client(shop.storefront_token).post('/admin/catalogue/import', {}).expect(401);
    const minted = (await shop.admin.post('/admin/access_tokens', { label: 'ro', tier: 'admin', scopes: ['Shop/catalogue/read'] }).expect(201)).body
      .access_token;
    await t.client(minted.token).post('/admin/catalogue/import', {}).expect(403);
  });

  it('lists a collection’s published products without facets, unpublished collections too', async () => {
    const picks = report.ids.collections.picks as string;
    const res = await shop.admin.get(`/admin/collections/${picks}/products?include=facets`).expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['price_range', 'products']);
    // manual order, the unpublished p8 left out
    expect(res.body.products.map((p: { id: string }) => p.id)).toEqual(['p7', 'p2', 'p1'].map((k) => report.ids.products[k]));
    const hidden = report.ids.collections.hidden as string;
    const h = await shop.admin.get(`/admin/collections/${hidden}/products`).expect(200);
    expect(h.body.products.map((p: { id: string }) => p.id)).toEqual([report.ids.products.p1]);
    await shop.admin.get(`/admin/collections/00000000-0000-4000-8000-000000000000/products`).expect(404);
    await shop.admin.get(`/admin/collections/nope/products`).expect(422);
    await shop.admin.get(`/admin/collections/${picks}/products?order=sideways`).expect(422);
    // the path id is checked before the filters (the query pipe)
    const both = await shop.admin.get(`/admin/collections/nope/products?order=sideways`).expect(422);
    expect(JSON.stringify(both.body.errors)).toContain('id must be a UUID');
    // an unknown collection is named before a bad filter (404 before 422), as before the query pipe
    await shop.admin.get(`/admin/collections/00000000-0000-4000-8000-000000000000/products?order=sideways`).expect(404);
  });

  it('admin collections show real products_count and the imported image', async () => {
    const one = await shop.admin.get(`/admin/collections/${report.ids.collections.picks}`).expect(200);
    expect(one.body.collection.products_count).toBe(3);
    const smart = await shop.admin.get(`/admin/collections/${report.ids.collections['cheap-reds']}`).expect(200);
    expect(smart.body.collection.products_count).toBeGreaterThan(0);
    const list = await shop.admin.get('/admin/collections').expect(200);
    const hidden = list.body.collections.find((c: { id: string }) => c.id === report.ids.collections.hidden);
    expect(hidden.products_count).toBe(1);
  });

  it('imports the generated demo catalogue through the service (the CLI path), idempotently, with meaningful facets', async () => {
    const demoShop = await t.createShop();
    const svc = t.get(CatalogueImportService);
    const demo = generateDemoCatalogue(2000);
    expect(generateDemoCatalogue(2000)).toEqual(demo); // deterministic
    const started = Date.now();
    const first = await svc.import(RequestContext.forTenant(demoShop.tenant.id), demo);
    const took = Date.now() - started;
    expect(first.created.products).toBe(2000);
    expect(took).toBeLessThan(30_000);
    const second = await svc.import(RequestContext.forTenant(demoShop.tenant.id), generateDemoCatalogue(2000));
    expect(Object.values(second.created).every((n) => n === 0)).toBe(true);
    expect(Object.values(second.updated).every((n) => n === 0)).toBe(true);
    const res = await demoShop.storefront.get('/products?include=facets&limit=24').expect(200);
    expect(res.body.products).toHaveLength(24);
    expect(res.body.facets.map((f: { key: string }) => f.key)).toEqual([
      'manufacturers',
      'categories',
      'colors',
      'sizes',
      'years',
      'countries',
      'regions',
      'custom_fields',
    ]);
    expect(res.body.price_range.max).toBeGreaterThan(res.body.price_range.min);
  });

  it('a second shop sees none of it', async () => {
    const other = await t.createShop();
    await other.admin.get(`/admin/collections/${report.ids.collections.picks}/products`).expect(404);
    await other.storefront.get(`/products/${report.ids.products.p1}`).expect(404);
    const list = await other.storefront.get('/products').expect(200);
    expect(list.body.products).toEqual([]);
  });
});
