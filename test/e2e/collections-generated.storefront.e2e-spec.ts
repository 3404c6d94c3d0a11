import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FACET_KEYS, FACET_PARAM, type FacetKey } from '../../src/catalogue/catalogue-filters.js';
import { generateDemoCatalogue, mulberry32 } from '../../src/catalogue/import/demo-catalogue.js';
import { createTestApp, ShopClient, TestApp, TestShop } from '../helpers/test-app.js';

/*
 * Issue 29 on a generated catalogue (300 products, several pages per answer): random filter sets inside manual and
 * smart collections, each answer (every page in order, facet counts, price range) compared with a brute-force model
 * computed here over the tenant's visible variants (`variant_search`) restricted to the collection's products.
 */

type Dim = FacetKey;
const PARAM = FACET_PARAM;
const DIMS = FACET_KEYS;

interface VRow {
  product: string;
  price: number;
  available: boolean;
  onSale: boolean;
  created: string;
  title: string;
  rating: number;
  values: Record<Dim, string[]>;
}
interface FilterSet {
  dims: Partial<Record<Dim, string[]>>;
  priceMin: number | null;
  priceMax: number | null;
  available: boolean;
  onSale: boolean;
  order: 'price asc' | 'price desc' | 'created asc' | 'created desc' | 'title asc' | 'title desc' | 'rating desc';
}

function matches(r: VRow, f: FilterSet, without?: Dim | 'price'): boolean {
  if (f.available && !r.available) return false;
  if (f.onSale && !r.onSale) return false;
  for (const [d, ids] of Object.entries(f.dims) as Array<[Dim, string[]]>) {
    if (d === without) continue;
    if (d === 'categories' ? !ids.every((id) => r.values[d].includes(id)) : !ids.some((id) => r.values[d].includes(id))) return false;
  }
  if (without !== 'price' && f.priceMin !== null && r.price < f.priceMin) return false;
  if (without !== 'price' && f.priceMax !== null && r.price > f.priceMax) return false;
  return true;
}

/** The products in order, the self-excluding counts and the price range, by brute force. */
function model(rows: VRow[], f: FilterSet) {
  const hit = rows.filter((r) => matches(r, f));
  const byProduct = new Map<string, VRow[]>();
  for (const r of hit) byProduct.set(r.product, [...(byProduct.get(r.product) ?? []), r]);
  const [column, dir] = f.order.split(' ') as [string, 'asc' | 'desc'];
  const key = (id: string): number | string => {
    const vs = byProduct.get(id)!;
    if (column === 'price') return Math.min(...vs.map((v) => v.price));
    if (column === 'created') return vs[0].created;
    if (column === 'title') return vs[0].title;
    return vs[0].rating;
  };
  const cmp = (a: string, b: string) => {
    const ka = key(a);
    const kb = key(b);
    const c = ka < kb ? -1 : ka > kb ? 1 : a < b ? -1 : a > b ? 1 : 0;
    return dir === 'asc' ? c : -c;
  };
  const ids = [...byProduct.keys()].sort(cmp);
  const counts: Record<string, Record<string, number>> = {};
  for (const d of DIMS) {
    const sets = new Map<string, Set<string>>();
    for (const r of rows) if (matches(r, f, d)) for (const v of r.values[d]) sets.set(v, (sets.get(v) ?? new Set()).add(r.product));
    if (sets.size) counts[d] = Object.fromEntries([...sets].map(([v, s]) => [v, s.size]));
  }
  const prices = rows.filter((r) => matches(r, f, 'price')).map((r) => r.price);
  const range = prices.length ? { min: Math.min(...prices), max: Math.max(...prices) } : { min: 0, max: 0 };
  return { ids, counts, range };
}

describe('collections on a generated catalogue: random filter sets against a brute-force model (issue 29)', () => {
  let t: TestApp;
  let shop: TestShop;
  let rows: VRow[];
  let collections: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    const catalogue = generateDemoCatalogue(300, 2929) as { products: Array<{ key: string }>; collections: unknown[] };
    catalogue.collections.push(
      {
        key: 'every-third',
        title: 'Every third',
        collection_type: 'manual',
        published: true,
        products: catalogue.products.filter((_, i) => i % 3 === 0).map((p) => p.key),
      },
      {
        key: 'red-or-swiss',
        title: 'Red or Swiss',
        collection_type: 'smart',
        published: true,
        rules_json: JSON.stringify({
          any: [
            { field: 'category', eq: 'red-wine' },
            { field: 'country', eq: 'CH' },
          ],
        }),
      },
      {
        key: 'red-over-30',
        title: 'Red over 30',
        collection_type: 'smart',
        published: true,
        rules_json: JSON.stringify({
          all: [
            { field: 'category', eq: 'red-wine' },
            { field: 'price', gt: 30 },
          ],
        }),
      },
    );
    collections = (await shop.admin.post('/admin/catalogue/import', catalogue).expect(200)).body.import.ids.collections;
    const raw: Array<Record<string, unknown>> = await t.db.query(
      `SELECT product_id::text AS product, round(gross, 2)::float8 AS price, available, on_sale, product_created_at, title_sort, rating::float8 AS rating,
              manufacturer_id::text AS m, color_id::text AS c, size_id::text AS s, year_id::text AS y, country_id::text AS co, region_id::text AS r,
              option_ids::text[] AS o, category_ids::text[] AS cat
         FROM variant_search WHERE tenant_id = $1`,
      [shop.tenant.id],
    );
    const one = (v: unknown) => (v === null ? [] : [String(v)]);
    rows = raw.map((r) => ({
      product: String(r.product),
      price: Number(r.price),
      available: r.available === true,
      onSale: r.on_sale === true,
      created: new Date(r.product_created_at as string).toISOString(),
      title: String(r.title_sort),
      rating: Number(r.rating),
      values: {
        manufacturers: one(r.m),
        categories: r.cat as string[],
        colors: one(r.c),
        sizes: one(r.s),
        years: one(r.y),
        countries: one(r.co),
        regions: one(r.r),
        custom_fields: r.o as string[],
      },
    }));
  });
  afterAll(() => t.close());

  /** Every product id of a list in order, following Link, and the first page's body. */
  async function walk(client: ShopClient, path: string) {
    const ids: string[] = [];
    let first: Record<string, any> | null = null;
    let url: string | null = path;
    while (url) {
      const res: { body: Record<string, any>; headers: Record<string, string | undefined> } = await client.get(url).expect(200);
      first ??= res.body;
      ids.push(...res.body.products.map((p: { id: string }) => p.id));
      url = res.headers.link ? res.headers.link.replace(/^<[^>]*\/api\/2026-04-01([^>]*)>.*$/, '$1') : null;
      if (ids.length > 400) throw new Error(`${path}: paging does not end`);
    }
    return { ids, first: first! };
  }

  function query(f: FilterSet): string {
    const qs = new URLSearchParams();
    for (const [d, ids] of Object.entries(f.dims) as Array<[Dim, string[]]>) qs.set(PARAM[d], ids.join(','));
    if (f.priceMin !== null) qs.set('price_min', String(f.priceMin));
    if (f.priceMax !== null) qs.set('price_max', String(f.priceMax));
    if (f.available) qs.set('available', 'true');
    if (f.onSale) qs.set('on_sale', 'true');
    qs.set('order', f.order);
    return qs.toString();
  }

  it.each(['staff-picks', 'every-third', 'reds-under-20', 'red-over-30', 'swiss', 'red-or-swiss'])(
    '%s: 25 random filter sets (pages in order, counts, price range; storefront and admin)',
    async (key) => {
      const id = collections[key];
      const members = new Set((await walk(shop.storefront, `/collections/${id}/products?limit=250`)).ids);
      expect(members.size).toBeGreaterThan(0);
      const scoped = rows.filter((r) => members.has(r.product));
      // members come from the engine itself: for a manual collection they must be its visible picks
      const visible = new Set(rows.map((r) => r.product));
      if (key === 'every-third' || key === 'staff-picks') {
        const picks: Array<{ id: string }> = await t.db.query(
          `SELECT product_id::text AS id FROM collection_products WHERE tenant_id = $1 AND collection_id = $2`,
          [shop.tenant.id, id],
        );
        expect([...members].sort()).toEqual(
          picks
            .map((p) => p.id)
            .filter((p) => visible.has(p))
            .sort(),
        );
      }
      const values = Object.fromEntries(DIMS.map((d) => [d, [...new Set(scoped.flatMap((r) => r.values[d]))]])) as Record<Dim, string[]>;
      const rnd = mulberry32(key.length * 7919 + 29);
      const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
      const orders: FilterSet['order'][] = ['price asc', 'price desc', 'created asc', 'created desc', 'title asc', 'title desc', 'rating desc'];
      let nonEmpty = 0;
      for (let i = 0; i < 25; i++) {
        const f: FilterSet = { dims: {}, priceMin: null, priceMax: null, available: rnd() < 0.3, onSale: rnd() < 0.15, order: pick(orders) };
        const n = Math.floor(rnd() * 4);
        for (let k = 0; k < n; k++) {
          const d = pick(DIMS);
          if (!values[d].length) continue;
          const set = new Set(f.dims[d] ?? []);
          set.add(pick(values[d]));
          if (d !== 'categories' && rnd() < 0.4) set.add(pick(values[d]));
          f.dims[d] = [...set];
        }
        if (rnd() < 0.3) f.priceMin = Math.floor(rnd() * 30);
        if (rnd() < 0.3) f.priceMax = 15 + Math.floor(rnd() * 60) + (rnd() < 0.5 ? 0.9 : 0);
        const label = `${key} #${i}: ${query(f)}`;
        const want = model(scoped, f);
        if (want.ids.length > 0) nonEmpty += 1;
        const got = await walk(shop.storefront, `/collections/${id}/products?limit=9&include=facets&${query(f)}`);
        const counts = Object.fromEntries(
          (got.first.facets as Array<{ key: string; values: Array<{ id: string; count: number }> }>).map((g) => [
            g.key,
            Object.fromEntries(g.values.map((v) => [v.id, v.count])),
          ]),
        );
        expect({ label, ids: got.ids, counts, range: { min: got.first.price_range.min, max: got.first.price_range.max } }).toEqual({ label, ...want });
        const admin = await walk(shop.admin, `/admin/collections/${id}/products?limit=9&${query(f)}`);
        expect({ label, ids: admin.ids }).toEqual({ label, ids: want.ids });
        const facets = await shop.storefront.get(`/collections/${id}/facets?${query(f).replace(/&?order=[^&]*/, '')}`).expect(200);
        expect({ label, body: facets.body }).toEqual({ label, body: { facets: got.first.facets, price_range: got.first.price_range } });
      }
      // the random sets are not all empty
      expect(nonEmpty).toBeGreaterThanOrEqual(5);
    },
  );
});
