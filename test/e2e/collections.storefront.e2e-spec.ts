import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, ShopClient, TestApp, TestShop } from '../helpers/test-app.js';
import { F, facetCounts, FILTER_CASES, filterQuery, fixtureImport, matchingProducts, priceRange, Row, ROWS, walkProducts } from './catalogue.fixture.js';

/*
 * Issue 29: the catalogue filters, facets and price range inside a collection (manual, smart "all", smart "any"),
 * each answer compared with a brute-force model of the fixture restricted to the collection's products.
 */

type Ids = Record<string, any>;

/** A smart rule condition of the fixture's collections, read as CONTRACT 6 says: some visible variant meets it. */
type Cond = { field: 'category' | 'color' | 'manufacturer' | 'price'; op: 'eq' | 'lt' | 'gt'; value: string | number };
const meets = (r: Row, c: Cond): boolean => {
  switch (c.field) {
    case 'category':
      return r.categories.includes(String(c.value));
    case 'color':
      return r.color === c.value;
    case 'manufacturer':
      return r.manufacturer === c.value;
    case 'price':
      return c.op === 'lt' ? r.price < Number(c.value) : c.op === 'gt' ? r.price > Number(c.value) : r.price === Number(c.value);
  }
};
const rulesJson = (mode: 'all' | 'any', conds: Cond[]) => JSON.stringify({ [mode]: conds.map((c) => ({ field: c.field, [c.op]: c.value })) });

interface Coll {
  key: string;
  kind: string;
  /** The collection's products (fixture keys) among the visible ones. */
  members: () => Set<string>;
}

const SMART_ALL: Cond[] = [
  { field: 'category', op: 'eq', value: 'wine' },
  { field: 'price', op: 'gt', value: 16 },
];
const SMART_ANY: Cond[] = [
  { field: 'color', op: 'eq', value: 'rose' },
  { field: 'manufacturer', op: 'eq', value: 'muller' },
  { field: 'category', op: 'eq', value: 'sparkling' },
];
const MANUAL = ['p10', 'p5', 'p1', 'p8', 'p3', 'p6', 'p2', 'p4'];

const visibleProducts = () => new Set(ROWS.map((r) => r.product));
const smartMembers = (mode: 'all' | 'any', conds: Cond[]) => () =>
  new Set(
    [...visibleProducts()].filter((p) => {
      const rows = ROWS.filter((r) => r.product === p);
      const ok = (c: Cond) => rows.some((r) => meets(r, c));
      return mode === 'all' ? conds.every(ok) : conds.some(ok);
    }),
  );

const COLLECTIONS: Coll[] = [
  { key: 'mixed', kind: 'manual', members: () => new Set(MANUAL.filter((p) => visibleProducts().has(p))) },
  { key: 'wine-over-16', kind: 'smart all', members: smartMembers('all', SMART_ALL) },
  { key: 'rose-muller-sparkling', kind: 'smart any', members: smartMembers('any', SMART_ANY) },
];

const CASES: Array<[string, F]> = [
  ...FILTER_CASES,
  ['two custom field options', { grapes: ['riesling', 'sangiovese'] }],
  ['child category', { categories: ['white'] }],
  ['price floor', { priceMin: 30 }],
  ['available and size (one variant)', { available: true, sizes: ['75cl'] }],
  ['on sale and color', { onSale: true, colors: ['white'] }],
  ['q', { words: ['riesling'] }],
  ['q manufacturer', { words: ['rossi'] }],
  ['q and color', { words: ['chateau'], colors: ['red'] }],
  ['category and vendor', { categories: ['red'], vendor: ['rossi'] }],
];

const FACET_ORDER = ['manufacturers', 'categories', 'colors', 'sizes', 'years', 'countries', 'regions', 'custom_fields'];

describe('collections: filters, facets and price range inside a collection (issue 29)', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;
  const keyOfProduct = new Map<string, string>();
  const keyOfValue = new Map<string, string>();

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    const body = fixtureImport() as { collections: unknown[]; products: Array<{ key: string; categories: string[] }> };
    // assigned to a parent and its child (the same variants and ancestors as the fixture's model: Wine > White wine)
    body.products.find((p) => p.key === 'p2')!.categories = ['wine', 'white'];
    body.collections.push(
      { key: 'mixed', title: 'Mixed case', collection_type: 'manual', published: true, products: MANUAL },
      { key: 'wine-over-16', title: 'Wine over 16', collection_type: 'smart', published: true, rules_json: rulesJson('all', SMART_ALL) },
      { key: 'rose-muller-sparkling', title: 'Rosé, Müller or sparkling', collection_type: 'smart', published: true, rules_json: rulesJson('any', SMART_ANY) },
    );
    ids = (await shop.admin.post('/admin/catalogue/import', body).expect(200)).body.import.ids;
    for (const [k, id] of Object.entries(ids.products)) keyOfProduct.set(id as string, k);
    for (const dim of Object.keys(ids.facets)) for (const [k, id] of Object.entries(ids.facets[dim])) keyOfValue.set(id as string, k);
    for (const kind of ['categories', 'manufacturers', 'custom_field_options'])
      for (const [k, id] of Object.entries(ids[kind])) keyOfValue.set(id as string, k);
  });
  afterAll(() => t.close());

  const qs = (f: F, extra: Record<string, string> = {}) => filterQuery(ids, f, extra);
  /** Every product of a list (fixture keys), following the Link header. */
  const walk = async (client: ShopClient, path: string) => (await walkProducts(client, path)).map((p: { id: string }) => keyOfProduct.get(p.id)!);

  /** The facets of an answer by fixture key, in the answer's key order. */
  const facetsByKey = (facets: Array<{ key: string; values: Array<{ id: string; count: number }> }>) =>
    facets.map((g) => [g.key, Object.fromEntries(g.values.map((v) => [keyOfValue.get(v.id), v.count]))] as const);
  const expectedFacets = (f: F, rows: Row[]) => {
    const counts = facetCounts(f, rows);
    return FACET_ORDER.filter((k) => counts[k]).map((k) => [k, counts[k]] as const);
  };

  const grid = COLLECTIONS.flatMap((c) => CASES.map(([name, f]) => [c.kind, name, c, f] as const));

  it.each(grid)('%s collection, %s: products, facets and price range match the model', async (_kind, _name, coll, f) => {
    const members = coll.members();
    const rows = ROWS.filter((r) => members.has(r.product));
    const id = ids.collections[coll.key];
    const expected = matchingProducts(f, rows);
    // products, storefront and admin, over every page
    expect((await walk(shop.storefront, `/collections/${id}/products${qs(f, { limit: '2' })}`)).sort()).toEqual(expected);
    expect((await walk(shop.admin, `/admin/collections/${id}/products${qs(f, { limit: '2' })}`)).sort()).toEqual(expected);
    // include=facets: facets and price range over the collection's products matching the other filters
    const withFacets = await shop.storefront.get(`/collections/${id}/products${qs(f, { include: 'facets' })}`).expect(200);
    expect(facetsByKey(withFacets.body.facets)).toEqual(expectedFacets(f, rows));
    expect(withFacets.body.price_range).toEqual({ ...priceRange(f, rows), currency: 'CHF' });
    // the facets endpoint answers the same
    const only = await shop.storefront.get(`/collections/${id}/facets${qs(f)}`).expect(200);
    expect(only.body).toEqual({ facets: withFacets.body.facets, price_range: withFacets.body.price_range });
    // the admin list never has facets; its price range is the same
    const admin = await shop.admin.get(`/admin/collections/${id}/products${qs(f, { include: 'facets' })}`).expect(200);
    expect('facets' in admin.body).toBe(false);
    expect(admin.body.price_range).toEqual(withFacets.body.price_range);
  });

  it.each(grid)('%s collection, %s: same answer as GET /products?collection_id=', async (_kind, _name, coll, f) => {
    const id = ids.collections[coll.key];
    const order = f.words ? 'relevance' : 'price asc';
    const viaCollection = await shop.storefront.get(`/collections/${id}/products${qs(f, { include: 'facets', order })}`).expect(200);
    const viaProducts = await shop.storefront.get(`/products${qs(f, { include: 'facets', order, collection_id: id })}`).expect(200);
    expect(viaCollection.body).toEqual(viaProducts.body);
  });

  it('bad order values are 422 naming order on both collection lists', async () => {
    for (const coll of COLLECTIONS) {
      const id = ids.collections[coll.key];
      for (const order of ['bogus', 'price:sideways', 'price sideways', 'relevance']) {
        for (const [client, path] of [
          [shop.storefront, `/collections/${id}/products`],
          [shop.admin, `/admin/collections/${id}/products`],
        ] as const) {
          const res = await client.get(`${path}?order=${encodeURIComponent(order)}`).expect(422);
          expect(JSON.stringify(res.body.errors)).toMatch(/\border\b/);
        }
      }
    }
  });

  it('category_path is the chain to the deepest assigned category (the first branch when there are two)', async () => {
    const names = async (key: string) =>
      ((await shop.storefront.get(`/products/${ids.products[key]}`).expect(200)).body.product.category_path as Array<{ id: string; name: string }>).map((c) => [
        keyOfValue.get(c.id),
        c.name,
      ]);
    // assigned to Wine and to Wine > White wine
    expect(await names('p2')).toEqual([
      ['wine', 'Wine'],
      ['white', 'White wine'],
    ]);
    // assigned to Wine only
    expect(await names('p5')).toEqual([['wine', 'Wine']]);
    // two branches (Wine > Red wine, Sparkling): the first assigned one's
    expect(await names('p10')).toEqual([
      ['wine', 'Wine'],
      ['red', 'Red wine'],
    ]);
  });
});
