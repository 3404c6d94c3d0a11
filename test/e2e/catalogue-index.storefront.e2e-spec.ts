/**
 * The in-memory catalogue engine (issue 14): answers equal to a straightforward SQL reference over `variant_search`
 * for random filter sets; deltas (stock flips visible at once here and within a second on a second instance); a
 * missed notification or a version gap leads to a rebuild, never a stale answer; the memory budget evicts the least
 * recently used tenant; the category path of a product is its whole chain; an exact SKU matches only its variants.
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createShopApp } from '../../src/app.js';
import { FacetNameSnapshot } from '../../src/catalogue/facet-name-snapshot.service.js';
import { CatalogueIndexService } from '../../src/catalogue-search/index.js';
import { generateDemoCatalogue } from '../../src/catalogue/import/demo-catalogue.js';
import { CatalogueImportService } from '../../src/catalogue/import/catalogue-import.service.js';
import { RequestContext } from '../../src/common/context/request-context.js';
import { CacheBus } from '../../src/common/cluster/cache-bus.js';
import { loadConfig } from '../../src/config/app-config.js';
import { API, createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';
import { fixtureImport } from './catalogue.fixture.js';

/** A deterministic pseudo-random generator (the failing seed is printed with the filter set). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Dim = 'manufacturers' | 'categories' | 'colors' | 'sizes' | 'years' | 'countries' | 'regions' | 'custom_fields';
const PARAM: Record<Dim, string> = {
  manufacturers: 'vendor',
  categories: 'category_id',
  colors: 'color_id',
  sizes: 'size_id',
  years: 'year_id',
  countries: 'country_id',
  regions: 'region_id',
  custom_fields: 'custom_field_id',
};
/** The variant_search expression holding a dimension's ids (as an array). */
const IDS: Record<Dim, string> = {
  manufacturers: 'ARRAY[vs.manufacturer_id]',
  categories: 'vs.category_ids',
  colors: 'ARRAY[vs.color_id]',
  sizes: 'ARRAY[vs.size_id]',
  years: 'ARRAY[vs.year_id]',
  countries: 'ARRAY[vs.country_id]',
  regions: 'ARRAY[vs.region_id]',
  custom_fields: 'vs.option_ids',
};
const ORDERS: Array<[string, string]> = [
  ['price asc', 'price ASC, id ASC'],
  ['price desc', 'price DESC, id DESC'],
  ['created asc', 'created ASC, id ASC'],
  ['created desc', 'created DESC, id DESC'],
  ['title asc', 'title ASC, id ASC'],
  ['title desc', 'title DESC, id DESC'],
  ['rating desc', 'rating DESC, id DESC'],
  ['relevance', 'rel DESC, id DESC'],
];

interface FilterSet {
  dims: Partial<Record<Dim, string[]>>;
  priceMin: number | null;
  priceMax: number | null;
  available: boolean;
  onSale: boolean;
  q: string | null;
  order: string;
}

/** The reference: plain SQL over variant_search (CONTRACT 7 read literally), written here, not taken from the app. */
async function reference(t: TestApp, tenantId: string, f: FilterSet) {
  const words = f.q
    ? f.q
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter(Boolean)
    : [];
  const price = 'round(vs.gross, 2)';
  /** Every clause but `without`'s, with its own parameter list. */
  const build = (without?: Dim | 'price', withRel = false) => {
    const params: unknown[] = [tenantId];
    const p = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    const parts = ['vs.tenant_id = $1'];
    if (f.available) parts.push('vs.available');
    if (f.onSale) parts.push('vs.on_sale');
    for (const w of words) parts.push(`(vs.search_tsv @@ to_tsquery('simple', ${p(`${w}:*`)}::text) OR ${p(w)}::text <% vs.search_text)`);
    for (const [d, ids] of Object.entries(f.dims) as Array<[Dim, string[]]>) {
      if (d === without) continue;
      parts.push(d === 'categories' ? `vs.category_ids @> ${p(ids)}::uuid[]` : `${IDS[d]} && ${p(ids)}::uuid[]`);
    }
    if (without !== 'price') {
      if (f.priceMin !== null) parts.push(`${price} >= ${p(f.priceMin)}::numeric`);
      if (f.priceMax !== null) parts.push(`${price} <= ${p(f.priceMax)}::numeric`);
    }
    const rel = withRel && words.length ? `round((${words.map((w) => `word_similarity(${p(w)}::text, vs.search_text)`).join(' + ')})::numeric, 6)` : '0';
    return { where: parts.join(' AND '), params, rel };
  };
  const order = ORDERS.find(([o]) => o === f.order)![1];
  const all = build(undefined, true);
  const list: Array<{ id: string }> = await t.db.query(
    `SELECT * FROM (SELECT vs.product_id AS id, min(${price}) AS price, max(vs.product_created_at) AS created, max(vs.title_sort) AS title, max(vs.rating) AS rating, max(${all.rel}) AS rel
       FROM variant_search vs WHERE ${all.where} GROUP BY vs.product_id) g ORDER BY ${order}`,
    all.params,
  );
  const counts: Record<string, Record<string, number>> = {};
  for (const d of Object.keys(PARAM) as Dim[]) {
    const w = build(d);
    const rows: Array<{ id: string; n: number }> = await t.db.query(
      `SELECT x::text AS id, count(DISTINCT vs.product_id)::int AS n FROM variant_search vs, unnest(${IDS[d]}) x WHERE ${w.where} AND x IS NOT NULL GROUP BY x`,
      w.params,
    );
    if (rows.length) counts[d] = Object.fromEntries(rows.map((r) => [r.id, r.n]));
  }
  const r = build('price');
  const [range] = await t.db.query(`SELECT min(${price})::float8 AS min, max(${price})::float8 AS max FROM variant_search vs WHERE ${r.where}`, r.params);
  return { ids: list.map((row) => row.id), counts, range: { min: range.min ?? 0, max: range.max ?? 0 } };
}

function query(f: FilterSet): string {
  const qs = new URLSearchParams();
  for (const [d, ids] of Object.entries(f.dims) as Array<[Dim, string[]]>) qs.set(PARAM[d], ids.join(','));
  if (f.priceMin !== null) qs.set('price_min', String(f.priceMin));
  if (f.priceMax !== null) qs.set('price_max', String(f.priceMax));
  if (f.available) qs.set('available', 'true');
  if (f.onSale) qs.set('on_sale', 'true');
  if (f.q) qs.set('q', f.q);
  qs.set('order', f.order);
  return qs.toString();
}

describe('catalogue engine', () => {
  let t: TestApp;
  let shop: TestShop;
  /** A second instance on the same database (closed last: closing it earlier disturbs the first app's later requests). */
  let b: NestExpressApplication;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
  });
  afterAll(async () => {
    await b?.close();
    await t?.close();
  });

  describe('random filter sets against a SQL reference (generated catalogue)', () => {
    let values: Record<Dim, string[]>;
    let words: string[];

    beforeAll(async () => {
      const catalogue = generateDemoCatalogue(250, 1414);
      expect((await shop.admin.post('/admin/catalogue/import', catalogue)).status).toBe(200);
      const facets = (await shop.storefront.get('/products/facets').expect(200)).body.facets as Array<{ key: Dim; values: Array<{ id: string }> }>;
      values = Object.fromEntries(facets.map((f) => [f.key, f.values.map((v) => v.id)])) as Record<Dim, string[]>;
      const titles: Array<{ title_sort: string }> = await t.db.query(`SELECT DISTINCT title_sort FROM variant_search WHERE tenant_id = $1 LIMIT 40`, [
        shop.tenant.id,
      ]);
      words = titles.flatMap((r) => r.title_sort.split(/\s+/)).filter((w) => w.length > 3);
    });

    it('pages, counts, price_range and order equal the reference for 60 random filter sets (the last 15: one or two dimensions only)', async () => {
      const rnd = mulberry32(20261123);
      const pick = <T>(list: T[]): T => list[Math.floor(rnd() * list.length)];
      const dims = Object.keys(PARAM) as Dim[];
      let nonEmpty = 0;
      let paged = 0;
      for (let i = 0; i < 60; i++) {
        // the last 15 as a shop's category pages: dimension filters only, so the engine takes its one-dimension path
        // (that dimension's counts from the whole catalogue) or walks two dimensions' posting lists
        const plain = i >= 45;
        const f: FilterSet = plain
          ? { dims: {}, priceMin: null, priceMax: null, available: false, onSale: false, q: null, order: pick(ORDERS.filter(([o]) => o !== 'relevance'))[0] }
          : {
              dims: {},
              priceMin: null,
              priceMax: null,
              available: rnd() < 0.3,
              onSale: rnd() < 0.2,
              q: null,
              order: pick(ORDERS.filter(([o]) => o !== 'relevance'))[0],
            };
        const n = plain ? 1 + Math.floor(rnd() * 2) : 1 + Math.floor(rnd() * 5);
        for (let k = 0; k < n; k++) {
          const d = pick(dims);
          if (!values[d]?.length) continue;
          const ids = new Set(f.dims[d] ?? []);
          ids.add(pick(values[d]));
          if (d !== 'categories' && rnd() < 0.4) ids.add(pick(values[d]));
          f.dims[d] = [...ids];
        }
        if (!plain && rnd() < 0.4) f.priceMin = Math.floor(rnd() * 40);
        if (!plain && rnd() < 0.4) f.priceMax = 20 + Math.floor(rnd() * 80) + (rnd() < 0.5 ? 0.5 : 0);
        // no `q` here since issue 35: the engine's text matching (facet names, exact numbers, its own scoring) is not
        // PostgreSQL's any more; its reference is the brute-force model of search.storefront.e2e-spec.ts and of
        // src/catalogue-search/text-search.spec.ts
        if (!plain && rnd() < 0.25) void pick(words);
        const ref = await reference(t, shop.tenant.id, f);
        const label = `filter set ${i}: ${query(f)}`;
        // every page, following Link
        const seen: string[] = [];
        let url: string | null = `/products?limit=7&include=facets&${query(f)}`;
        let first: { facets: Array<{ key: string; values: Array<{ id: string; count: number }> }>; price_range: { min: number; max: number } } | null = null;
        while (url) {
          const res = await shop.storefront.get(url);
          expect({ label, status: res.status }).toEqual({ label, status: 200 });
          first ??= res.body;
          seen.push(...res.body.products.map((p: { id: string }) => p.id));
          const link = res.headers.link as string | undefined;
          url = link ? link.replace(/^<[^>]*\/api\/2026-04-01([^>]*)>.*$/, '$1') : null;
          if (seen.length > 400) throw new Error(`${label}: paging does not end`);
        }
        expect({ label, ids: seen }).toEqual({ label, ids: ref.ids });
        if (seen.length > 0) nonEmpty += 1;
        if (seen.length > 7) paged += 1;
        const counts = Object.fromEntries(first!.facets.map((g) => [g.key, Object.fromEntries(g.values.map((v) => [v.id, v.count]))]));
        expect({ label, counts }).toEqual({ label, counts: ref.counts });
        expect({ label, range: { min: first!.price_range.min, max: first!.price_range.max } }).toEqual({ label, range: ref.range });
      }
      // the random sets are not all empty: many match something, several span pages
      expect(nonEmpty).toBeGreaterThanOrEqual(15);
      expect(paged).toBeGreaterThanOrEqual(5);
    });
  });

  it('answers the same once the index is laid out by category (a copy swapped in after the build, once per build)', async () => {
    const index = t.get(CatalogueIndexService);
    const delay = index.layoutDelayMs;
    index.layoutDelayMs = 3_600_000; // not on its own during this test: laid out below, between two rounds of reads
    try {
      const other = await t.createShop();
      expect((await other.admin.post('/admin/catalogue/import', generateDemoCatalogue(120, 2611))).status).toBe(200);
      const facets = (await other.storefront.get('/products/facets').expect(200)).body.facets as Array<{ key: Dim; values: Array<{ id: string }> }>;
      const ids = Object.fromEntries(facets.map((f) => [f.key, f.values.map((v) => v.id)])) as Record<Dim, string[]>;
      const urls = [
        '/products?limit=10&include=facets',
        `/products?limit=10&include=facets&category_id=${ids.categories[0]}`,
        `/products?limit=10&include=facets&category_id=${ids.categories[1]}&color_id=${ids.colors[0]}&order=price%20asc`,
        `/products?limit=10&include=facets&country_id=${ids.countries[0]}&size_id=${ids.sizes[0]}&price_min=10&price_max=60&order=title%20desc`,
        `/products?limit=10&include=facets&vendor=${ids.manufacturers[0]}&vendor=${ids.manufacturers[1]}&available=true`,
        `/products/facets?category_id=${ids.categories[0]}&year_id=${ids.years[0]}`,
      ];
      const before = [];
      for (const url of urls) before.push((await other.storefront.get(url).expect(200)).body);
      const layouts = index.layouts;
      expect(await index.layOut(other.tenant.id)).toBe(true);
      expect(index.layouts).toBe(layouts + 1);
      expect(await index.layOut(other.tenant.id)).toBe(false);
      for (const [i, url] of urls.entries()) expect({ url, body: (await other.storefront.get(url).expect(200)).body }).toEqual({ url, body: before[i] });
    } finally {
      index.layoutDelayMs = delay;
    }
  });

  describe('deltas', () => {
    let fx: TestShop;
    let ids: { products: Record<string, string>; variants: Record<string, string>; locations: Record<string, string> };

    beforeAll(async () => {
      fx = await t.createShop();
      const res = await fx.admin.post('/admin/catalogue/import', fixtureImport()).expect(200);
      ids = res.body.import.ids;
      const cfg = loadConfig({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', RATE_LIMIT: 'off' });
      b = await createShopApp({ config: cfg, databaseUrl: t.databaseUrl });
    });

    const viaB = (path: string) =>
      request(b.getHttpServer())
        .get(API + path)
        .set('Authorization', `Bearer ${fx.storefront_token}`);
    const availableIds = async (get: (path: string) => Promise<{ body: { products: Array<{ id: string }> } }>) =>
      (await get('/products?available=true&limit=250')).body.products.map((p) => p.id);

    it('a stock movement flipping availability is visible at once here and within a second on a second instance', async () => {
      const p2 = ids.products.p2;
      const v2a = ids.variants.v2a;
      // both instances hold the tenant's index now
      expect(await availableIds((p) => fx.storefront.get(p))).toContain(p2);
      expect(await availableIds((p) => viaB(p))).toContain(p2);
      const before = t.get(CatalogueIndexService).stats().rebuilds;
      await fx.admin.post('/admin/inventory_levels/set', { inventory_item_id: v2a, location_id: ids.locations.cellar, available: 0 }).expect(200);
      // same instance: the very next read
      expect(await availableIds((p) => fx.storefront.get(p))).not.toContain(p2);
      const detail = await fx.storefront.get(`/products/${p2}`).expect(200);
      expect(detail.body.product.variants[0]).toMatchObject({ available: false, inventory_quantity: 0 });
      // second instance: within a second
      const { ms } = await until('B sees p2 sold out', async () => !(await availableIds((p) => viaB(p))).includes(p2));
      expect(ms).toBeLessThan(1_000);
      expect((await viaB(`/products/${p2}`)).body.product.variants[0]).toMatchObject({ available: false, inventory_quantity: 0 });
      // and back
      await fx.admin.post('/admin/inventory_levels/adjust', { inventory_item_id: v2a, location_id: ids.locations.cellar, available_adjustment: 3 }).expect(200);
      expect(await availableIds((p) => fx.storefront.get(p))).toContain(p2);
      expect((await fx.storefront.get(`/products/${p2}`)).body.product.variants[0].inventory_quantity).toBe(3);
      await until('B sees p2 again', async () => (await availableIds((p) => viaB(p))).includes(p2));
      // applied as deltas: no index was rebuilt for it
      expect(t.get(CatalogueIndexService).stats().rebuilds).toBe(before);
      expect(t.get(CatalogueIndexService).stats().deltaLagMs).toBeLessThan(1_000);
    });

    it('a product change through the import is a delta too: the next read here sees it', async () => {
      const body = fixtureImport() as { products: Array<{ key: string; variants: Array<{ price: number }> }> };
      body.products.find((p) => p.key === 'p2')!.variants[0].price = 99.5;
      await fx.admin.post('/admin/catalogue/import', body).expect(200);
      const res = await fx.storefront.get('/products?price_min=99&price_max=100').expect(200);
      expect(res.body.products.map((p: { id: string }) => p.id)).toEqual([ids.products.p2]);
      expect(res.body.products[0].price_min).toBe(99.5);
      await until('B sees the new price', async () => (await viaB('/products?price_min=99&price_max=100')).body.products.length === 1);
    });

    it('a question asked again is answered from the answer memo (kept from its second ask) while provably current: a product change, or an availability flip when it filters on availability, computes it again', async () => {
      const index = t.get(CatalogueIndexService);
      // laid out now, not during the test (the swap starts a new index with no kept answers)
      index.layoutDelayMs = 3_600_000;
      await index.layOut(fx.tenant.id);
      const p2 = ids.products.p2;
      const v2a = ids.variants.v2a;
      const setStock = (n: number) =>
        fx.admin.post('/admin/inventory_levels/set', { inventory_item_id: v2a, location_id: ids.locations.cellar, available: n }).expect(200);
      type Body = { products: Array<{ id: string; price_min: number; variants: Array<{ id: string; available: boolean; inventory_quantity: number }> }> };
      const get = async (path: string): Promise<Body> => (await fx.storefront.get(path).expect(200)).body as Body;
      const v2aOf = (body: Body) => body.products.find((p) => p.id === p2)?.variants.find((v) => v.id === v2a);
      const all = '/products?include=facets&limit=50';
      const inStock = '/products?include=facets&limit=50&available=true';
      await setStock(4);
      const first = await get(all);
      await get(inStock);
      // a question is kept from its second ask (one asked once is not kept: the long tail does not churn the memo)
      let s = index.stats();
      expect(await get(all)).toEqual(first);
      await get(inStock);
      expect(index.stats()).toMatchObject({ answerHits: s.answerHits, answerMisses: s.answerMisses + 2 });
      // asked again: the same answer, from the memo
      s = index.stats();
      expect(await get(all)).toEqual(first);
      expect(index.stats()).toMatchObject({ answerHits: s.answerHits + 1, answerMisses: s.answerMisses });
      // a manual collection's picks are read each time: its questions are always computed
      const picks = ((await fx.storefront.get('/collections').expect(200)).body.collections as Array<{ id: string; title: string }>).find(
        (c) => c.title === 'Staff picks',
      )!;
      const picked = await get(`/collections/${picks.id}/products`);
      s = index.stats();
      expect(await get(`/collections/${picks.id}/products`)).toEqual(picked);
      expect(index.stats()).toMatchObject({ answerHits: s.answerHits, answerMisses: s.answerMisses + 1 });
      // a quantity-only movement keeps both answers; the page shows the new on-hand (stock is overlaid on every request)
      await setStock(2);
      s = index.stats();
      expect(v2aOf(await get(all))).toMatchObject({ available: true, inventory_quantity: 2 });
      expect((await get(inStock)).products.map((p) => p.id)).toContain(p2);
      expect(index.stats()).toMatchObject({ answerHits: s.answerHits + 2, answerMisses: s.answerMisses });
      // an availability flip: the question filtering on availability is computed again (p2 is gone from it); the
      // other is kept, and shows p2 sold out
      await setStock(0);
      s = index.stats();
      expect((await get(inStock)).products.map((p) => p.id)).not.toContain(p2);
      expect(v2aOf(await get(all))).toMatchObject({ available: false, inventory_quantity: 0 });
      expect(index.stats()).toMatchObject({ answerHits: s.answerHits + 1, answerMisses: s.answerMisses + 1 });
      // the recomputed answer is kept at once (the question was kept before: it stays admitted)
      s = index.stats();
      expect((await get(inStock)).products.map((p) => p.id)).not.toContain(p2);
      expect(index.stats()).toMatchObject({ answerHits: s.answerHits + 1, answerMisses: s.answerMisses });
      // a product change retires every answer of the tenant
      const body = fixtureImport() as { products: Array<{ key: string; variants: Array<{ price: number }> }> };
      body.products.find((p) => p.key === 'p2')!.variants[0].price = 77.25;
      await fx.admin.post('/admin/catalogue/import', body).expect(200);
      s = index.stats();
      expect((await get(all)).products.find((p) => p.id === p2)?.price_min).toBe(77.25);
      expect(index.stats()).toMatchObject({ answerHits: s.answerHits, answerMisses: s.answerMisses + 1 });
      s = index.stats();
      expect((await get(all)).products.find((p) => p.id === p2)?.price_min).toBe(77.25);
      expect(index.stats()).toMatchObject({ answerHits: s.answerHits + 1, answerMisses: s.answerMisses });
      await fx.admin.post('/admin/catalogue/import', fixtureImport()).expect(200);
      await setStock(3);
      index.layoutDelayMs = 1_000;
    });

    it('a name snapshot rebuilt from the same rows is the same snapshot (what is keyed by it lives on); a change of order makes a new one', async () => {
      const names = t.get(FacetNameSnapshot);
      const first = await names.get(fx.tenant.id);
      names.invalidate(fx.tenant.id);
      expect(await names.get(fx.tenant.id)).toBe(first);
      const [{ id, position }] = await t.db.query(`SELECT id, position FROM facet_values WHERE tenant_id = $1 ORDER BY position, key LIMIT 1`, [fx.tenant.id]);
      await t.db.query(`UPDATE facet_values SET position = position + 1000 WHERE id = $1`, [id]);
      try {
        names.invalidate(fx.tenant.id);
        const next = await names.get(fx.tenant.id);
        expect(next).not.toBe(first);
        expect(next.digest).not.toBe(first.digest);
        expect(next.entries.get(id)!.rank).toBeGreaterThan(first.entries.get(id)!.rank);
      } finally {
        await t.db.query(`UPDATE facet_values SET position = $2 WHERE id = $1`, [id, position]);
        names.invalidate(fx.tenant.id);
      }
    });

    it('a version gap (a lost notification) drops the index: the next read rebuilds from the database, never a stale answer', async () => {
      const index = t.get(CatalogueIndexService);
      await fx.storefront.get('/products').expect(200);
      expect(index.has(fx.tenant.id)).toBe(true);
      // a change the index is never told about: p7 becomes unavailable behind its back
      await t.db.query(`UPDATE variant_search SET available = false WHERE tenant_id = $1 AND variant_id = $2`, [fx.tenant.id, ids.variants.v7a]);
      expect(await availableIds((p) => fx.storefront.get(p))).toContain(ids.products.p7); // the index cannot know yet
      const [{ version }] = await t.db.query(`SELECT version FROM catalogue_versions WHERE tenant_id = $1`, [fx.tenant.id]);
      const builds = index.stats().rebuilds;
      // the next delta arrives with a gap (one was lost)
      await t.db.query(`SELECT pg_notify('vinoshop_cache', $1)`, [
        JSON.stringify({ t: 'catalogue.delta', id: fx.tenant.id, o: 'test', v: Number(version) + 2, k: 'stock', d: [] }),
      ]);
      await until('the index is dropped', async () => !index.has(fx.tenant.id));
      expect(await availableIds((p) => fx.storefront.get(p))).not.toContain(ids.products.p7);
      expect(index.stats().rebuilds).toBe(builds + 1);
      await t.db.query(`UPDATE variant_search SET available = true WHERE tenant_id = $1 AND variant_id = $2`, [fx.tenant.id, ids.variants.v7a]);
    });

    it('a listener reconnect (notifications possibly missed) drops every index', async () => {
      const index = t.get(CatalogueIndexService);
      const bus = t.get(CacheBus);
      await fx.storefront.get('/products').expect(200);
      expect(index.has(fx.tenant.id)).toBe(true);
      await t.db.query(`UPDATE variant_search SET available = false WHERE tenant_id = $1 AND variant_id = $2`, [fx.tenant.id, ids.variants.v7a]);
      const reconnects = bus.reconnects;
      await t.db.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'vinoshop-cache-bus' AND datname = current_database()`);
      await until('A listens again', async () => bus.reconnects > reconnects && bus.listening, 10_000);
      expect(index.has(fx.tenant.id)).toBe(false);
      expect(await availableIds((p) => fx.storefront.get(p))).not.toContain(ids.products.p7);
      await t.db.query(`UPDATE variant_search SET available = true WHERE tenant_id = $1 AND variant_id = $2`, [fx.tenant.id, ids.variants.v7a]);
      // B reconnected too (its listener was terminated as well), so it rebuilds as well
      await until('B listens again', async () => b.get(CacheBus).listening, 10_000);
    });
  });

  /** Reads the shop's first product page twice: its answer is kept from the second ask (`AnswerMemo.admit`). */
  async function askTwice(shop: TestShop): Promise<void> {
    await shop.storefront.get('/products').expect(200);
    await shop.storefront.get('/products').expect(200);
  }

  /** `n` new shops, each with the fixture catalogue imported. */
  async function fixtureShops(n: number): Promise<TestShop[]> {
    const shops: TestShop[] = [];
    for (let i = 0; i < n; i++) {
      const s = await t.createShop();
      await s.admin.post('/admin/catalogue/import', fixtureImport()).expect(200);
      shops.push(s);
    }
    return shops;
  }

  it('the memory budget evicts the least recently used tenant', async () => {
    const index = t.get(CatalogueIndexService);
    const [a, b, c] = await fixtureShops(3);
    const saved = index.budgetBytes;
    try {
      // only a in memory (each question asked twice, so that its answer is kept now and a later ask does not grow the tenant)
      index.dropAll('the test starts clean');
      index.budgetBytes = Number.MAX_SAFE_INTEGER;
      await askTwice(a);
      expect(index.stats().tenants).toBe(1);
      await askTwice(b);
      expect(index.has(a.tenant.id) && index.has(b.tenant.id)).toBe(true);
      // room for a and b, not for a third tenant of the same size
      index.budgetBytes = index.stats().bytes + 16;
      // a is used again: b is now the least recently used
      await a.storefront.get('/products').expect(200);
      await c.storefront.get('/products').expect(200);
      expect([index.has(a.tenant.id), index.has(b.tenant.id), index.has(c.tenant.id)]).toEqual([true, false, true]);
      expect(index.stats().bytes).toBeLessThanOrEqual(index.budgetBytes);
      // b's next read builds it again, evicting the least recently used (a)
      const res = await b.storefront.get('/products').expect(200);
      expect(res.body.products.length).toBeGreaterThan(0);
      expect([index.has(a.tenant.id), index.has(b.tenant.id), index.has(c.tenant.id)]).toEqual([false, true, true]);
    } finally {
      index.budgetBytes = saved;
    }
  });

  it('the budget is a limit: with 1 MB, a shop whose index alone does not fit is refused (503) and never evicts the small one', async () => {
    const index = t.get(CatalogueIndexService);
    const [small] = await fixtureShops(1);
    const large = await t.createShop();
    await t.get(CatalogueImportService).import(RequestContext.forTenant(large.tenant.id), generateDemoCatalogue(2_500, 2614));
    const saved = { budget: index.budgetBytes, delay: index.layoutDelayMs };
    index.layoutDelayMs = 3_600_000; // the layout's swap would recount the small tenant: not during this test
    try {
      index.dropAll('the test starts clean');
      index.budgetBytes = 1024 * 1024;
      await askTwice(small);
      expect(index.has(small.tenant.id)).toBe(true);
      const smallBytes = index.bytesOf(small.tenant.id);
      const refusals = index.stats().overBudgetRefusals;
      for (const path of ['/products', '/products?include=facets', '/products/facets', '/products?order=price%20asc', '/products']) {
        const res = await large.storefront.get(path).expect(503);
        expect(res.body).toEqual({
          errors: expect.stringContaining('CATALOGUE_INDEX_MEMORY_MB'),
          code: 'catalogue_over_memory_budget',
          request_id: expect.any(String),
        });
        expect(res.headers['retry-after']).toMatch(/^\d+$/);
        expect([index.has(small.tenant.id), index.has(large.tenant.id)]).toEqual([true, false]);
        expect(index.stats().reservedBytes).toBe(0);
      }
      expect(index.stats().overBudgetRefusals).toBe(refusals + 5);
      expect(index.bytesOf(small.tenant.id)).toBe(smallBytes);
      expect(index.stats().bytes).toBeLessThanOrEqual(index.budgetBytes);
      await small.storefront.get('/products').expect(200);
      // with room again (after the recount delay), the large shop is served and kept
      index.budgetBytes = Number.MAX_SAFE_INTEGER;
      index.overBudget.forget(large.tenant.id);
      expect((await large.storefront.get('/products').expect(200)).body.products.length).toBeGreaterThan(0);
      expect(index.has(large.tenant.id)).toBe(true);
    } finally {
      index.budgetBytes = saved.budget;
      index.layoutDelayMs = saved.delay;
    }
  }, 120_000);

  it('counts the engine’s memory as it grows (product sets made on first use), not only at the next build', async () => {
    const index = t.get(CatalogueIndexService);
    const delay = index.layoutDelayMs;
    index.layoutDelayMs = 3_600_000; // the layout's swap would recount the tenant: not during this test
    try {
      const shop = await t.createShop();
      expect((await shop.admin.post('/admin/catalogue/import', generateDemoCatalogue(120, 2613))).status).toBe(200);
      const facets = (await shop.storefront.get('/products/facets').expect(200)).body.facets as Array<{ key: Dim; values: Array<{ id: string }> }>;
      const ids = Object.fromEntries(facets.map((f) => [f.key, f.values.map((v) => v.id)])) as Record<Dim, string[]>;
      const idx = await index.get(shop.tenant.id);
      const before = { counted: index.bytesOf(shop.tenant.id)!, engine: idx.engineBytes(), answers: idx.answers.bytes() };
      // filters on values nobody filtered on yet: their product sets are made now
      const question = `/products?include=facets&color_id=${ids.colors[0]}&country_id=${ids.countries[0]}&year_id=${ids.years[0]}`;
      await shop.storefront.get(question).expect(200);
      const grown = idx.engineBytes() - before.engine;
      expect(grown).toBeGreaterThan(0);
      expect(index.bytesOf(shop.tenant.id)! - before.counted).toBe(grown + idx.answers.bytes() - before.answers);
      // asked again: its answer is kept, and counted too
      const kept = index.bytesOf(shop.tenant.id)!;
      const answers = idx.answers.bytes();
      await shop.storefront.get(question).expect(200);
      expect(idx.answers.bytes()).toBeGreaterThan(answers);
      expect(index.bytesOf(shop.tenant.id)! - kept).toBe(idx.answers.bytes() - answers + idx.engineBytes() - before.engine - grown);
    } finally {
      index.layoutDelayMs = delay;
    }
  });

  it('counts the layout copy in the memory budget: room is made by evicting less recently used tenants only, else the index stays as built', async () => {
    const index = t.get(CatalogueIndexService);
    const [a, b] = await fixtureShops(2);
    const big = await t.createShop();
    expect((await big.admin.post('/admin/catalogue/import', generateDemoCatalogue(120, 2612))).status).toBe(200);
    const held = () => [index.has(a.tenant.id), index.has(b.tenant.id), index.has(big.tenant.id)];
    const saved = { budget: index.budgetBytes, delay: index.layoutDelayMs };
    index.layoutDelayMs = 3_600_000; // laid out below, not on its own
    try {
      // only a and b in memory (each question asked twice, so that its answer is kept now and a later ask does not
      // grow the tenant)
      index.dropAll('the test starts clean');
      index.budgetBytes = Number.MAX_SAFE_INTEGER;
      await askTwice(a);
      expect(index.stats().tenants).toBe(1);
      const aBytes = index.stats().bytes;
      await askTwice(b);
      expect(index.stats()).toMatchObject({ tenants: 2, reservedBytes: 0 });
      // room for the two indexes and nothing more
      index.budgetBytes = index.stats().bytes + 16;
      const layouts = index.layouts;
      // b was used after a: a's copy does not evict it, and a stays as built
      expect(await index.layOut(a.tenant.id)).toBe(false);
      expect(held()).toEqual([true, true, false]);
      // a used again: its copy takes the place of b, now the least recently used
      await a.storefront.get('/products').expect(200);
      expect(await index.layOut(a.tenant.id)).toBe(true);
      expect(index.layouts).toBe(layouts + 1);
      expect(held()).toEqual([true, false, false]);
      expect(index.stats().reservedBytes).toBe(0);
      expect(index.stats().bytes).toBeLessThanOrEqual(aBytes);
      // room for a and the bigger catalogue but not for the latter's copy: nothing is evicted in vain
      index.budgetBytes = Number.MAX_SAFE_INTEGER;
      await big.storefront.get('/products').expect(200);
      expect(index.stats().bytes - aBytes).toBeGreaterThan(2 * aBytes);
      index.budgetBytes = index.stats().bytes + 16;
      expect(await index.layOut(big.tenant.id)).toBe(false);
      expect(held()).toEqual([true, false, true]);
      expect(index.layouts).toBe(layouts + 1);
      expect(index.stats().reservedBytes).toBe(0);
    } finally {
      index.budgetBytes = saved.budget;
      index.layoutDelayMs = saved.delay;
    }
  });

  it('category_path lists the whole chain root first when only the leaf is assigned', async () => {
    const s = await t.createShop();
    const body = fixtureImport() as {
      categories: Array<{ key: string; name: unknown; parent: string | null }>;
      products: Array<{ key: string; categories: string[] }>;
    };
    body.categories.push({ key: 'red-tuscany', name: { en: 'Tuscany reds' }, parent: 'red' });
    body.products.find((p) => p.key === 'p3')!.categories = ['red-tuscany'];
    const res = await s.admin.post('/admin/catalogue/import', body).expect(200);
    const detail = await s.storefront.get(`/products/${res.body.import.ids.products.p3}`).expect(200);
    expect(detail.body.product.category_path.map((c: { name: string }) => c.name)).toEqual(['Wine', 'Red wine', 'Tuscany reds']);
    // and the product counts under each ancestor
    const wine = res.body.import.ids.categories.wine;
    const list = await s.storefront.get(`/products?category_id=${wine}&limit=250`).expect(200);
    expect(list.body.products.map((p: { id: string }) => p.id)).toContain(res.body.import.ids.products.p3);
  });

  it('a query that is exactly a SKU (any case) returns only products with that SKU and lists only the matching variants', async () => {
    const s = await t.createShop();
    const res = await s.admin.post('/admin/catalogue/import', fixtureImport()).expect(200);
    const { products, variants } = res.body.import.ids;
    const hit = await s.storefront.get('/products?q=alp-mer-18-150').expect(200);
    expect(hit.body.products.map((p: { id: string }) => p.id)).toEqual([products.p1]);
    expect(hit.body.products[0].variants.map((v: { id: string }) => v.id)).toEqual([variants.v1b]);
    expect(hit.body.products[0].price_min).toBe(45);
    // words still match by prefix and typo
    const words = await s.storefront.get('/products?q=merlot').expect(200);
    expect(words.body.products.length).toBeGreaterThan(0);
  });
});
