import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import {
  F,
  facetCounts,
  FILTER_CASES,
  filterQuery,
  fixtureImport,
  matchingProducts,
  norm,
  priceRange,
  PRODUCTS,
  ROWS,
  walkProducts,
} from './catalogue.fixture.js';

type Ids = Record<string, any>;

describe('storefront catalogue', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;
  const keyOfProduct = new Map<string, string>();
  const keyOfValue = new Map<string, string>(); // any facet id -> fixture key

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    ids = (await shop.admin.post('/admin/catalogue/import', fixtureImport()).expect(200)).body.import.ids;
    for (const [k, id] of Object.entries(ids.products)) keyOfProduct.set(id as string, k);
    for (const dim of Object.keys(ids.facets)) for (const [k, id] of Object.entries(ids.facets[dim])) keyOfValue.set(id as string, k);
    for (const kind of ['categories', 'manufacturers', 'custom_field_options'])
      for (const [k, id] of Object.entries(ids[kind])) keyOfValue.set(id as string, k);
  });
  afterAll(() => t.close());

  /** Query string of fixture-key filters. */
  const qs = (f: F, extra: Record<string, string> = {}) => filterQuery(ids, f, extra);
  /** Every product of a list, following the Link header. */
  const walk = (path: string) => walkProducts(shop.storefront, path);
  const keys = (products: Array<{ id: string }>) => products.map((p) => keyOfProduct.get(p.id)!);

  const cases = FILTER_CASES;

  it.each(cases)('filters: %s', async (_name, f) => {
    const products = await walk(`/products${qs(f, { limit: '3' })}`);
    expect(keys(products).sort()).toEqual(matchingProducts(f));
  });

  it.each(cases)('facets and price range: %s', async (_name, f) => {
    const res = await shop.storefront.get(`/products${qs(f, { include: 'facets' })}`).expect(200);
    const expected = facetCounts(f);
    const order = ['manufacturers', 'categories', 'colors', 'sizes', 'years', 'countries', 'regions', 'custom_fields'];
    expect(res.body.facets.map((x: { key: string }) => x.key)).toEqual(order.filter((k) => expected[k]));
    for (const facet of res.body.facets) {
      const got = Object.fromEntries(facet.values.map((v: { id: string; count: number }) => [keyOfValue.get(v.id), v.count]));
      expect([facet.key, got]).toEqual([facet.key, expected[facet.key]]);
      for (const v of facet.values) {
        expect(v.count).toBeGreaterThan(0);
        expect(typeof v.name).toBe('string');
        expect(v.value).toBe(facet.key === 'custom_fields' ? keyOfValue.get(v.id) : null);
      }
    }
    expect(res.body.price_range).toEqual({ ...priceRange(f), currency: 'CHF' });
    const only = await shop.storefront.get(`/products/facets${qs(f)}`).expect(200);
    expect(only.body).toEqual({ facets: res.body.facets, price_range: res.body.price_range });
  });

  it('self-excluding counts: a filtered dimension still shows its other values', async () => {
    const res = await shop.storefront.get(`/products${qs({ colors: ['red'] }, { include: 'facets' })}`).expect(200);
    const colors = res.body.facets.find((x: { key: string }) => x.key === 'colors');
    const byKey = Object.fromEntries(colors.values.map((v: { id: string; count: number }) => [keyOfValue.get(v.id), v.count]));
    // counted without the colour filter itself
    const all = new Set(ROWS.filter((r) => r.color === 'white').map((r) => r.product)).size;
    expect(byKey.white).toBe(all);
    const sizes = res.body.facets.find((x: { key: string }) => x.key === 'sizes');
    const s150 = sizes.values.find((v: { id: string }) => keyOfValue.get(v.id) === '150cl').count;
    expect(s150).toBe(new Set(ROWS.filter((r) => r.color === 'red' && r.size === '150cl').map((r) => r.product)).size);
  });

  it('facets only with include=facets; names in the active language', async () => {
    const plain = await shop.storefront.get('/products').expect(200);
    expect('facets' in plain.body).toBe(false);
    expect(plain.body.price_range).toEqual({ ...priceRange({}), currency: 'CHF' });
    const de = await shop.storefront.get('/products?include=facets&locale=de').expect(200);
    const colors = de.body.facets.find((x: { key: string }) => x.key === 'colors');
    expect(colors.values.find((v: { id: string }) => v.id === ids.facets.colors.red).name).toBe('Rot');
    const cats = de.body.facets.find((x: { key: string }) => x.key === 'categories');
    expect(cats.values.map((v: { name: string }) => v.name)).toEqual(['Wein', 'Rotwein', 'Weisswein', 'Sparkling']);
    const empty = await shop.storefront.get(`/products/facets${qs({ colors: ['rose'], countries: ['DE'] })}`).expect(200);
    expect(empty.body.facets.length).toBeGreaterThan(0); // other colours still count for DE
    const none = await shop.storefront
      .get(`/products/facets${qs({ colors: ['rose'], countries: ['DE'], years: ['2019'], regions: ['mosel'], grapes: ['cabernet'] })}`)
      .expect(200);
    expect(Array.isArray(none.body.facets)).toBe(true);
  });

  const visible = () => PRODUCTS.filter((p) => ROWS.some((r) => r.product === p.key));
  const minPrice = (key: string) => Math.min(...ROWS.filter((r) => r.product === key).map((r) => r.price));
  const rating = (key: string) => {
    const r = PRODUCTS.find((p) => p.key === key)!.ratings;
    return r.length ? Math.round((r.reduce((a, b) => a + b, 0) / r.length) * 100) / 100 : 0;
  };
  const by =
    <T>(value: (k: string) => T, dir: 1 | -1) =>
    (a: string, b: string) => {
      const va = value(a);
      const vb = value(b);
      if (va < vb) return -dir;
      if (va > vb) return dir;
      const ia = ids.products[a];
      const ib = ids.products[b];
      return ia < ib ? -dir : ia > ib ? dir : 0;
    };
  const orders: Array<[string, (a: string, b: string) => number]> = [
    ['price asc', by(minPrice, 1)],
    ['price desc', by(minPrice, -1)],
    ['created asc', by((k) => PRODUCTS.find((p) => p.key === k)!.created, 1)],
    ['created desc', by((k) => PRODUCTS.find((p) => p.key === k)!.created, -1)],
    ['title asc', by((k) => norm(PRODUCTS.find((p) => p.key === k)!.title), 1)],
    ['title desc', by((k) => norm(PRODUCTS.find((p) => p.key === k)!.title), -1)],
    ['rating desc', by(rating, -1)],
  ];

  it.each(orders)('order %s, ties broken by id, across pages', async (order, cmp) => {
    const products = await walk(`/products?order=${encodeURIComponent(order)}&limit=2`);
    expect(keys(products)).toEqual(
      visible()
        .map((p) => p.key)
        .sort(cmp),
    );
  });

  it('default order is created desc', async () => {
    const res = await shop.storefront.get('/products').expect(200);
    expect(keys(res.body.products)).toEqual(
      visible()
        .map((p) => p.key)
        .sort(orders[3][1]),
    );
  });

  it('pages a filtered list reaching every product once; Link carries the filters', async () => {
    const f: F = { categories: ['wine'], available: true };
    const first = await shop.storefront.get(`/products${qs(f, { limit: '1', order: 'price asc' })}`).expect(200);
    expect(first.headers.link).toMatch(/^<http:\/\/[^>]+[?&]page_info=[^>]+>; rel="next"$/);
    expect(first.headers.link).toContain(`category_id=${ids.categories.wine}`);
    const all = await walk(`/products${qs(f, { limit: '1', order: 'price asc' })}`);
    expect(keys(all)).toEqual(matchingProducts(f).sort(orders[0][1]));
    expect(new Set(keys(all)).size).toBe(all.length);
  });

  it('a cursor used with other filters is 422; bad parameters are 422', async () => {
    const first = await shop.storefront.get('/products?limit=1&order=price%20asc').expect(200);
    const pageInfo = new URL(/<([^>]+)>/.exec(first.headers.link)![1]).searchParams.get('page_info')!;
    const stale = await shop.storefront.get(`/products?limit=1&order=price%20desc&page_info=${encodeURIComponent(pageInfo)}`).expect(422);
    expect(stale.body.errors).toContain('page_info');
    await shop.storefront.get(`/products?limit=1&page_info=garbage`).expect(422);
    await shop.storefront.get('/products?order=cheapest').expect(422);
    await shop.storefront.get('/products?order=relevance').expect(422);
    await shop.storefront.get('/products?color_id=red').expect(422);
    await shop.storefront.get('/products?price_min=abc').expect(422);
    await shop.storefront.get('/products?available=maybe').expect(422);
  });

  it('limit is clamped to 1..250', async () => {
    const res = await shop.storefront.get('/products?limit=0').expect(200);
    expect(res.body.products).toHaveLength(1);
    const big = await shop.storefront.get('/products?limit=1000').expect(200);
    expect(big.body.products).toHaveLength(visible().length);
  });

  it('q: accents ignored, typos forgiven, manufacturer and sku matched, relevance default', async () => {
    const chateau = await shop.storefront.get('/products?q=chateau').expect(200);
    expect(keys(chateau.body.products).sort()).toEqual(['p1', 'p4']);
    const typo = await shop.storefront.get('/products?q=rieslng').expect(200);
    expect(keys(typo.body.products).sort()).toEqual(['p2', 'p7']);
    const two = await shop.storefront.get('/products?q=golf%20riesling&include=facets').expect(200);
    expect(keys(two.body.products)[0]).toBe('p7');
    expect(two.body.facets.length).toBeGreaterThan(0);
    const muller = await shop.storefront.get(`/products?q=${encodeURIComponent('Müller')}`).expect(200);
    expect(keys(muller.body.products).sort()).toEqual(['p2', 'p7']);
    const none = await shop.storefront.get('/products?q=zzzqqq').expect(200);
    expect(none.body.products).toEqual([]);
  });

  it('q lists only the matching variants', async () => {
    const res = await shop.storefront.get('/products?q=ALP-MER-18-150').expect(200);
    expect(keys(res.body.products)).toEqual(['p1']);
    expect(res.body.products[0].variants.map((v: { sku: string }) => v.sku)).toEqual(['ALP-MER-18-150']);
    expect(res.body.products[0].variants_count).toBe(2);
    const plain = await shop.storefront.get(`/products?ids=${ids.products.p1}`).expect(200);
    expect(plain.body.products[0].variants).toHaveLength(2);
  });

  it('list projection fields', async () => {
    const res = await shop.storefront.get(`/products?ids=${ids.products.p1},${ids.products.p3}&order=title%20asc`).expect(200);
    const [p1, p3] = res.body.products;
    expect(p1).toMatchObject({
      id: ids.products.p1,
      title: 'Alpha Merlot',
      image: 'https://cdn.example/p1.jpg',
      available: true,
      currency: 'CHF',
      price_min: 24.9,
      price_max: 45,
      variants_count: 2,
      manufacturer: { id: ids.manufacturers.chateau, name: 'Château Lafleur', logo_url: 'https://cdn.example/chateau.png' },
      flag: { name: 'New', color: '#c0392b' },
      rating: 4.33,
      rating_count: 3,
      custom_fields: [{ key: 'grape', label: 'Grape', value: 'Merlot', type: 'select' }],
    });
    const v = p1.variants[0];
    expect(v).toMatchObject({
      sku: 'ALP-MER-18-75',
      price: 24.9,
      compare_at_price: 29.9,
      tax_rate: 0,
      alcohol_volume: null,
      option_group: null,
      available: true,
      inventory_quantity: 10,
      year: '2018',
      size: '75 cl',
      country: 'France',
    });
    expect(v.net_price).toBeCloseTo(24.9 / 1.081, 2);
    expect(v.facets).toEqual({
      color: { id: ids.facets.colors.red, name: 'Red' },
      region: { id: ids.facets.regions.bordeaux, name: 'Bordeaux' },
      vintage: { id: ids.facets.years['2018'], name: '2018' },
      size: { id: ids.facets.sizes['75cl'], name: '75 cl' },
      options: [{ field_key: 'grape', field_label: 'Grape', id: ids.custom_field_options.merlot, name: 'Merlot' }],
    });
    expect(v.quantity_rule).toEqual({ min: 1, max: null, increment: 1 });
    expect(v.factsheet_url).toBe(`/storefront/factsheets/${v.id}.pdf`);
    expect(p1.variants[1]).toMatchObject({ available: false, inventory_quantity: 0, compare_at_price: 0 });
    expect(p3.variants.map((x: { available: boolean }) => x.available)).toEqual([true, true]);
    // prices in another currency derive by rate
    const eur = await shop.storefront.get(`/products?ids=${ids.products.p1}&currency=EUR`).expect(200);
    expect(eur.body.products[0]).toMatchObject({
      currency: 'EUR',
      price_min: Math.round(24.9 * 1.06 * 100) / 100,
      price_max: Math.round(45 * 1.06 * 100) / 100,
    });
    await shop.storefront.get('/products?currency=XYZ').expect(422);
  });

  it('detail and variants', async () => {
    const res = await shop.storefront.get(`/products/${ids.products.p1}`).expect(200);
    const p = res.body.product;
    expect(p).toMatchObject({
      id: ids.products.p1,
      title: 'Alpha Merlot',
      body_html: '<p>Alpha Merlot</p>',
      summary_html: null,
      vendor: 'Château Lafleur',
      available: true,
      currency: 'CHF',
      price_min: 24.9,
      price_max: 45,
      rating: 4.33,
      rating_count: 3,
    });
    expect(p.category_path).toEqual([
      { id: ids.categories.wine, name: 'Wine' },
      { id: ids.categories.red, name: 'Red wine' },
    ]);
    expect(p.images).toHaveLength(2);
    expect(p.image).toMatchObject({ src: 'https://cdn.example/p1.jpg', alt: 'Alpha Merlot', position: 1, width: 800, height: 1200 });
    expect(p.variants.map((v: { sku: string }) => v.sku)).toEqual(['ALP-MER-18-75', 'ALP-MER-18-150']);
    expect(p.variants[0]).toMatchObject({ tax_rate: 8.1, alcohol_volume: 13.5 });
    const de = await shop.storefront.get(`/products/${ids.products.p1}?locale=de`).expect(200);
    expect(de.body.product.title).toBe('Alpha Merlot DE');
    expect(de.headers['content-language']).toBe('de');
    const vr = await shop.storefront.get(`/products/${ids.products.p6}/variants`).expect(200);
    expect(vr.body.currency).toBe('CHF');
    expect(vr.body.variants.map((v: { sku: string }) => v.sku)).toEqual(['FOX-BRU-19-75']); // the unpublished 150 cl is hidden
  });

  it('unpublished products, inactive variants and unknown ids are 404 and never listed', async () => {
    await shop.storefront.get(`/products/${ids.products.p8}`).expect(404);
    await shop.storefront.get(`/products/${ids.products.p9}`).expect(404);
    await shop.storefront.get(`/products/${ids.products.p9}/variants`).expect(404);
    await shop.storefront.get('/products/00000000-0000-4000-8000-000000000000').expect(404);
    await shop.storefront.get('/products/not-a-uuid').expect(422);
    const all = await walk('/products');
    expect(keys(all)).not.toContain('p8');
    expect(keys(all)).not.toContain('p9');
  });

  it('collections: published only, counts, manual order, smart rules', async () => {
    const list = await shop.storefront.get('/collections').expect(200);
    expect(list.body.collections.map((c: { id: string }) => c.id).sort()).toEqual([ids.collections.picks, ids.collections['cheap-reds']].sort());
    const picks = list.body.collections.find((c: { id: string }) => c.id === ids.collections.picks);
    expect(picks).toMatchObject({ title: 'Staff picks', products_count: 3, body_html: null, custom_fields: [] });
    await shop.storefront.get(`/collections/${ids.collections.hidden}`).expect(404);
    await shop.storefront.get(`/collections/${ids.collections.hidden}/products`).expect(404);
    // the path id is checked before the filters (the query pipe)
    for (const tail of ['products', 'facets']) {
      const both = await shop.storefront.get(`/collections/nope/${tail}?vendor=x`).expect(422);
      expect(JSON.stringify(both.body.errors)).toContain('id must be a UUID');
      // an unknown or hidden collection is named before a bad filter (404 before 422), as before the query pipe
      for (const id of ['00000000-0000-4000-8000-000000000000', ids.collections.hidden])
        expect((await shop.storefront.get(`/collections/${id}/${tail}?vendor=x&price_min=-1`).expect(404)).body).toEqual({ errors: expect.any(String) });
    }
    const one = await shop.storefront.get(`/collections/${ids.collections.picks}`).expect(200);
    expect(one.body.collection).toMatchObject({ id: ids.collections.picks, products_count: 3, custom_fields: [] });
    const manual = await shop.storefront.get(`/collections/${ids.collections.picks}/products`).expect(200);
    expect(keys(manual.body.products)).toEqual(['p7', 'p2', 'p1']);
    expect('facets' in manual.body).toBe(false);
    const sorted = await shop.storefront.get(`/collections/${ids.collections.picks}/products?order=price%20desc&include=facets`).expect(200);
    expect(keys(sorted.body.products)).toEqual(['p1', 'p7', 'p2'].sort(orders[1][1]));
    expect(sorted.body.facets.find((f: { key: string }) => f.key === 'manufacturers').values.length).toBe(2);
    // smart: red (with descendants) and some variant under 30
    const smartExpected = [...new Set(ROWS.filter((r) => r.categories.includes('red') && r.price < 30).map((r) => r.product))].sort();
    const smart = await walk(`/collections/${ids.collections['cheap-reds']}/products`);
    expect(keys(smart).sort()).toEqual(smartExpected);
    const smartOne = await shop.storefront.get(`/collections/${ids.collections['cheap-reds']}`).expect(200);
    expect(smartOne.body.collection.products_count).toBe(smartExpected.length);
    const facets = await shop.storefront.get(`/collections/${ids.collections['cheap-reds']}/facets`).expect(200);
    expect(Object.keys(facets.body).sort()).toEqual(['facets', 'price_range']);
    // collection_id on /products
    const filtered = await shop.storefront.get(`/products?collection_id=${ids.collections.picks}&${qs({ colors: ['white'] }).slice(1)}`).expect(200);
    expect(keys(filtered.body.products).sort()).toEqual(['p2', 'p7']);
  });

  it('smart collections stay current as the catalogue changes', async () => {
    const body = fixtureImport() as any;
    body.products[3].variants[0].price = 19; // Delta Cabernet, red, now under 30
    await shop.admin.post('/admin/catalogue/import', body).expect(200);
    const smart = await walk(`/collections/${ids.collections['cheap-reds']}/products`);
    expect(keys(smart)).toContain('p4');
    await shop.admin.post('/admin/catalogue/import', fixtureImport()).expect(200);
    expect(keys(await walk(`/collections/${ids.collections['cheap-reds']}/products`))).not.toContain('p4');
  });

  it('factsheet is a PDF', async () => {
    const variant = ids.variants.v1a;
    const res = await t
      .http()
      .get(`/storefront/factsheets/${variant}.pdf`)
      .set('Authorization', `Bearer ${shop.storefront_token}`)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect((res.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-');
    const again = await t
      .http()
      .get(`/storefront/factsheets/${variant}.pdf`)
      .set('Authorization', `Bearer ${shop.storefront_token}`)
      .set('If-None-Match', res.headers.etag)
      .expect(304);
    expect(again.text ?? '').toBe('');
    await t.http().get(`/storefront/factsheets/${ids.variants.v6b}.pdf`).set('Authorization', `Bearer ${shop.storefront_token}`).expect(404);
    await t.http().get(`/storefront/factsheets/nope.pdf`).set('Authorization', `Bearer ${shop.storefront_token}`).expect(404);
  });
});
