import type { ShopClient } from '../helpers/test-app.js';

/**
 * A small deterministic wine catalogue (CONTRACT 6 format) and a plain-JS reading of CONTRACT 7 over it, so the
 * catalogue tests compute their expectations from the fixture itself.
 */
type V = {
  key: string;
  sku: string;
  title: string;
  price: number;
  compare_at_price?: number | null;
  color?: string;
  region?: string;
  size: string;
  year: string;
  country: string;
  grapes?: string[];
  stock?: number;
  track_inventory?: boolean;
  allow_backorder?: boolean;
  published?: boolean;
  active?: boolean;
};
type P = {
  key: string;
  title: string;
  de?: string;
  manufacturer: string;
  categories: string[];
  created: string;
  ratings: number[];
  published?: boolean;
  variants: V[];
  tags?: string[];
};

export const PRODUCTS: P[] = [
  {
    key: 'p1',
    title: 'Alpha Merlot',
    de: 'Alpha Merlot DE',
    manufacturer: 'chateau',
    categories: ['red'],
    created: '2026-01-01T10:00:00Z',
    ratings: [5, 4, 4],
    tags: ['organic'],
    variants: [
      {
        key: 'v1a',
        sku: 'ALP-MER-18-75',
        title: '75 cl',
        price: 24.9,
        compare_at_price: 29.9,
        color: 'red',
        region: 'bordeaux',
        size: '75cl',
        year: '2018',
        country: 'FR',
        grapes: ['merlot'],
        stock: 10,
      },
      {
        key: 'v1b',
        sku: 'ALP-MER-18-150',
        title: '150 cl',
        price: 45,
        color: 'red',
        region: 'bordeaux',
        size: '150cl',
        year: '2018',
        country: 'FR',
        grapes: ['merlot'],
        stock: 0,
      },
    ],
  },
  {
    key: 'p2',
    title: 'Bravo Riesling',
    manufacturer: 'muller',
    categories: ['white'],
    created: '2026-01-02T10:00:00Z',
    ratings: [3],
    variants: [
      {
        key: 'v2a',
        sku: 'BRA-RIE-20-75',
        title: '75 cl',
        price: 18.5,
        color: 'white',
        region: 'mosel',
        size: '75cl',
        year: '2020',
        country: 'DE',
        grapes: ['riesling'],
        stock: 5,
      },
    ],
  },
  {
    key: 'p3',
    title: 'Charlie Sangiovese',
    manufacturer: 'rossi',
    categories: ['red'],
    created: '2026-01-03T10:00:00Z',
    ratings: [],
    variants: [
      {
        key: 'v3a',
        sku: 'CHA-SAN-19-75',
        title: '75 cl',
        price: 32,
        color: 'red',
        region: 'tuscany',
        size: '75cl',
        year: '2019',
        country: 'IT',
        grapes: ['sangiovese'],
        stock: 0,
        allow_backorder: true,
      },
      {
        key: 'v3b',
        sku: 'CHA-SAN-19-150',
        title: '150 cl',
        price: 28,
        color: 'red',
        region: 'tuscany',
        size: '150cl',
        year: '2019',
        country: 'IT',
        grapes: ['sangiovese'],
        track_inventory: false,
      },
    ],
  },
  {
    key: 'p4',
    title: 'Delta Cabernet',
    manufacturer: 'chateau',
    categories: ['red'],
    created: '2026-01-04T10:00:00Z',
    ratings: [5, 5],
    variants: [
      {
        key: 'v4a',
        sku: 'DEL-CAB-20-75',
        title: '75 cl',
        price: 55,
        compare_at_price: 50,
        color: 'red',
        region: 'bordeaux',
        size: '75cl',
        year: '2020',
        country: 'FR',
        grapes: ['cabernet', 'merlot'],
        stock: 3,
      },
    ],
  },
  {
    key: 'p5',
    title: 'Echo Rose',
    manufacturer: 'dupont',
    categories: ['wine'],
    created: '2026-01-05T10:00:00Z',
    ratings: [],
    variants: [
      { key: 'v5a', sku: 'ECH-ROS-20-75', title: '75 cl', price: 15, color: 'rose', region: 'bordeaux', size: '75cl', year: '2020', country: 'FR', stock: 0 },
    ],
  },
  {
    key: 'p6',
    title: 'Foxtrot Brut',
    manufacturer: 'dupont',
    categories: ['sparkling'],
    created: '2026-01-06T10:00:00Z',
    ratings: [2],
    variants: [
      {
        key: 'v6a',
        sku: 'FOX-BRU-19-75',
        title: '75 cl',
        price: 39,
        compare_at_price: 45,
        color: 'white',
        size: '75cl',
        year: '2019',
        country: 'FR',
        stock: 7,
      },
      { key: 'v6b', sku: 'FOX-BRU-19-150', title: '150 cl', price: 80, color: 'white', size: '150cl', year: '2019', country: 'FR', stock: 4, published: false },
    ],
  },
  {
    key: 'p7',
    title: 'Golf Riesling Spatlese',
    manufacturer: 'muller',
    categories: ['white'],
    created: '2026-01-07T10:00:00Z',
    ratings: [4, 4],
    variants: [
      {
        key: 'v7a',
        sku: 'GOL-RIE-18-75',
        title: '75 cl',
        price: 24.9,
        color: 'white',
        region: 'mosel',
        size: '75cl',
        year: '2018',
        country: 'DE',
        grapes: ['riesling'],
        stock: 2,
      },
    ],
  },
  {
    key: 'p8',
    title: 'Hotel Unpublished',
    manufacturer: 'chateau',
    categories: ['red'],
    created: '2026-01-08T10:00:00Z',
    ratings: [],
    published: false,
    variants: [
      { key: 'v8a', sku: 'HOT-UNP-20-75', title: '75 cl', price: 20, color: 'red', region: 'bordeaux', size: '75cl', year: '2020', country: 'FR', stock: 9 },
    ],
  },
  {
    key: 'p9',
    title: 'India Inactive',
    manufacturer: 'rossi',
    categories: ['red'],
    created: '2026-01-09T10:00:00Z',
    ratings: [],
    variants: [
      {
        key: 'v9a',
        sku: 'IND-INA-20-75',
        title: '75 cl',
        price: 21,
        color: 'red',
        region: 'tuscany',
        size: '75cl',
        year: '2020',
        country: 'IT',
        stock: 9,
        active: false,
      },
    ],
  },
  {
    key: 'p10',
    title: 'Juliet Chianti',
    manufacturer: 'rossi',
    categories: ['red', 'sparkling'],
    created: '2026-01-07T10:00:00Z',
    ratings: [5, 4],
    variants: [
      {
        key: 'v10a',
        sku: 'JUL-CHI-18-75',
        title: '75 cl',
        price: 24.9,
        color: 'red',
        region: 'tuscany',
        size: '75cl',
        year: '2018',
        country: 'IT',
        grapes: ['sangiovese'],
        stock: 1,
      },
    ],
  },
];

export const MANUFACTURERS = [
  { key: 'chateau', name: 'Château Lafleur', logo_url: 'https://cdn.example/chateau.png' },
  { key: 'muller', name: 'Weingut Müller', logo_url: null },
  { key: 'rossi', name: 'Tenuta Rossi', logo_url: null },
  { key: 'dupont', name: 'Domaine Dupont', logo_url: null },
];
export const CATEGORIES = [
  { key: 'wine', name: { en: 'Wine', de: 'Wein' }, parent: null },
  { key: 'red', name: { en: 'Red wine', de: 'Rotwein' }, parent: 'wine' },
  { key: 'white', name: { en: 'White wine', de: 'Weisswein' }, parent: 'wine' },
  { key: 'sparkling', name: { en: 'Sparkling' }, parent: null },
];
export const FACETS = {
  colors: [
    { key: 'red', name: { en: 'Red', de: 'Rot' } },
    { key: 'white', name: { en: 'White', de: 'Weiss' } },
    { key: 'rose', name: { en: 'Rosé' } },
  ],
  regions: [
    { key: 'bordeaux', name: 'Bordeaux' },
    { key: 'mosel', name: 'Mosel' },
    { key: 'tuscany', name: { en: 'Tuscany', de: 'Toskana' } },
  ],
  sizes: [
    { key: '75cl', name: '75 cl' },
    { key: '150cl', name: '150 cl' },
  ],
  years: [
    { key: '2018', name: '2018' },
    { key: '2019', name: '2019' },
    { key: '2020', name: '2020' },
  ],
  countries: [
    { key: 'FR', name: { en: 'France', de: 'Frankreich' } },
    { key: 'DE', name: { en: 'Germany', de: 'Deutschland' } },
    { key: 'IT', name: 'Italy' },
  ],
};
export const GRAPES = ['merlot', 'riesling', 'sangiovese', 'cabernet'];

export function fixtureImport(): Record<string, unknown> {
  return structuredClone({
    settings: { default_language: 'en', languages: ['en', 'de'], default_currency: 'CHF', prices_include_tax: true },
    currencies: [
      { key: 'CHF', code: 'CHF', name: 'Swiss franc', symbol: 'CHF', rate: 1, published: true },
      { key: 'EUR', code: 'EUR', name: 'Euro', symbol: '€', rate: 1.06, published: true },
    ],
    countries: [{ key: 'CH', code: 'CH', name: { en: 'Switzerland', de: 'Schweiz' }, shipping: true }],
    locations: [{ key: 'cellar', name: 'Main cellar' }],
    manufacturers: MANUFACTURERS,
    categories: CATEGORIES,
    facets: FACETS,
    custom_fields: [
      {
        key: 'grape',
        label: { en: 'Grape', de: 'Traube' },
        type: 'select',
        options: GRAPES.map((g) => ({ key: g, name: g[0].toUpperCase() + g.slice(1), value: g })),
      },
    ],
    flags: [{ key: 'new', name: { en: 'New', de: 'Neu' }, color: '#c0392b' }],
    shipping_methods: [{ key: 'post', name: { en: 'Swiss Post' }, price: 9.5, tax_rate: 8.1, countries: ['CH'], free_over: 150, delivery_days: 2 }],
    payment_types: [{ key: 'invoice', name: { en: 'Invoice' }, kind: 'invoice', image_url: null }],
    products: PRODUCTS.map((p) => ({
      key: p.key,
      handle: p.key + '-' + p.title.toLowerCase().replace(/\s+/g, '-'),
      title: p.de ? { en: p.title, de: p.de } : p.title,
      body_html: `<p>${p.title}</p>`,
      summary_html: null,
      manufacturer: p.manufacturer,
      categories: p.categories,
      flag: p.key === 'p1' ? 'new' : null,
      tags: p.tags ?? [],
      published: p.published ?? true,
      created_at: p.created,
      images: [
        { src: `https://cdn.example/${p.key}.jpg`, alt: p.title, width: 800, height: 1200 },
        { src: `https://cdn.example/${p.key}-back.jpg`, alt: null, width: 800, height: 1200 },
      ],
      ratings: p.ratings,
      variants: p.variants.map((v) => ({
        key: v.key,
        handle: v.key,
        sku: v.sku,
        title: { en: v.title },
        price: v.price,
        compare_at_price: v.compare_at_price ?? null,
        tax_rate: 8.1,
        published: v.published ?? true,
        active: v.active ?? true,
        color: v.color ?? null,
        region: v.region ?? null,
        year: v.year,
        size: v.size,
        country: v.country,
        alcohol_volume: 13.5,
        grams: 1300,
        area: null,
        quantity_rule: { min: 1, max: null, increment: 1 },
        custom_fields: v.grapes ? { grape: v.grapes } : {},
        track_inventory: v.track_inventory ?? true,
        allow_backorder: v.allow_backorder ?? false,
        stock: v.stock === undefined ? undefined : { cellar: v.stock },
      })),
    })),
    collections: [
      { key: 'picks', title: 'Staff picks', collection_type: 'manual', published: true, products: ['p7', 'p2', 'p8', 'p1'] },
      {
        key: 'cheap-reds',
        title: 'Reds under 30',
        collection_type: 'smart',
        published: true,
        rules_json: JSON.stringify({
          all: [
            { field: 'category', eq: 'red' },
            { field: 'price', lt: 30 },
          ],
        }),
      },
      { key: 'hidden', title: 'Hidden', collection_type: 'manual', published: false, products: ['p1'] },
    ],
  });
}

// ---------------------------------------------------------------- CONTRACT 7 in plain JS

export interface Row {
  product: string;
  variant: string;
  manufacturer: string;
  categories: string[]; // keys, with ancestors
  color: string | null;
  region: string | null;
  size: string;
  year: string;
  country: string;
  grapes: string[];
  price: number;
  onSale: boolean;
  available: boolean;
  text: string;
}

const parentOf = new Map(CATEGORIES.map((c) => [c.key, c.parent]));
function withAncestors(keys: string[]): string[] {
  const out = new Set<string>();
  for (const k of keys) {
    let at: string | null | undefined = k;
    while (at) {
      out.add(at);
      at = parentOf.get(at);
    }
  }
  return [...out];
}
export const norm = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** Visible variants (published, active, of a published product). */
export const ROWS: Row[] = PRODUCTS.filter((p) => p.published !== false).flatMap((p) =>
  p.variants
    .filter((v) => v.published !== false && v.active !== false)
    .map((v) => ({
      product: p.key,
      variant: v.key,
      manufacturer: p.manufacturer,
      categories: withAncestors(p.categories),
      color: v.color ?? null,
      region: v.region ?? null,
      size: v.size,
      year: v.year,
      country: v.country,
      grapes: v.grapes ?? [],
      price: v.price,
      onSale: (v.compare_at_price ?? 0) > v.price,
      available: v.track_inventory === false || v.allow_backorder === true || (v.stock ?? 0) > 0,
      text: norm(`${p.title} ${p.de ?? ''} ${v.title} ${v.sku} ${MANUFACTURERS.find((m) => m.key === p.manufacturer)!.name}`),
    })),
);

/** Filters by fixture keys. */
export interface F {
  vendor?: string[];
  categories?: string[];
  colors?: string[];
  regions?: string[];
  sizes?: string[];
  years?: string[];
  countries?: string[];
  grapes?: string[];
  priceMin?: number;
  priceMax?: number;
  available?: boolean;
  onSale?: boolean;
  /** Search words: each a prefix of a word of the variant's text. */
  words?: string[];
}
export type Dim = 'manufacturers' | 'categories' | 'colors' | 'sizes' | 'years' | 'countries' | 'regions' | 'custom_fields' | 'price';

export function rowMatches(r: Row, f: F, without?: Dim): boolean {
  const any = (list: string[] | undefined, v: string | null) => !list || list.length === 0 || (v !== null && list.includes(v));
  if (without !== 'manufacturers' && !any(f.vendor, r.manufacturer)) return false;
  if (without !== 'categories' && f.categories && !f.categories.every((c) => r.categories.includes(c))) return false;
  if (without !== 'colors' && !any(f.colors, r.color)) return false;
  if (without !== 'regions' && !any(f.regions, r.region)) return false;
  if (without !== 'sizes' && !any(f.sizes, r.size)) return false;
  if (without !== 'years' && !any(f.years, r.year)) return false;
  if (without !== 'countries' && !any(f.countries, r.country)) return false;
  if (without !== 'custom_fields' && f.grapes && f.grapes.length && !r.grapes.some((g) => f.grapes!.includes(g))) return false;
  if (without !== 'price' && f.priceMin !== undefined && r.price < f.priceMin) return false;
  if (without !== 'price' && f.priceMax !== undefined && r.price > f.priceMax) return false;
  if (f.available && !r.available) return false;
  if (f.onSale && !r.onSale) return false;
  if (f.words && !f.words.every((w) => r.text.split(/[^a-z0-9]+/).some((t) => t.startsWith(w)))) return false;
  return true;
}

/** `rows`: the variants in scope (a collection's products), every visible one by default. */
export function matchingProducts(f: F, rows: Row[] = ROWS): string[] {
  return [...new Set(rows.filter((r) => rowMatches(r, f)).map((r) => r.product))].sort();
}

/** Facet counts by fixture key: {dimension: {valueKey: productCount}}, self-excluding. */
export function facetCounts(f: F, rows: Row[] = ROWS): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  const dims: Array<[Dim, (r: Row) => string[]]> = [
    ['manufacturers', (r) => [r.manufacturer]],
    ['categories', (r) => r.categories],
    ['colors', (r) => (r.color ? [r.color] : [])],
    ['sizes', (r) => [r.size]],
    ['years', (r) => [r.year]],
    ['countries', (r) => [r.country]],
    ['regions', (r) => (r.region ? [r.region] : [])],
    ['custom_fields', (r) => r.grapes],
  ];
  for (const [dim, values] of dims) {
    const sets = new Map<string, Set<string>>();
    for (const r of rows) {
      if (!rowMatches(r, f, dim)) continue;
      for (const v of values(r)) {
        if (!sets.has(v)) sets.set(v, new Set());
        sets.get(v)!.add(r.product);
      }
    }
    if (sets.size) out[dim] = Object.fromEntries([...sets].map(([k, s]) => [k, s.size]));
  }
  return out;
}

export function priceRange(f: F, rows: Row[] = ROWS): { min: number; max: number } {
  const prices = rows.filter((r) => rowMatches(r, f, 'price')).map((r) => r.price);
  return prices.length ? { min: Math.min(...prices), max: Math.max(...prices) } : { min: 0, max: 0 };
}

/** The query string of fixture-key filters, with the import report's `ids` (and `extra` parameters). */
export function filterQuery(ids: Record<string, any>, f: F, extra: Record<string, string> = {}): string {
  const p = new URLSearchParams();
  const list = (name: string, kind: string, keys?: string[]) =>
    keys && keys.length && p.set(name, keys.map((k) => (kind.startsWith('facets.') ? ids.facets[kind.slice(7)][k] : ids[kind][k])).join(','));
  list('vendor', 'manufacturers', f.vendor);
  list('category_id', 'categories', f.categories);
  list('color_id', 'facets.colors', f.colors);
  list('region_id', 'facets.regions', f.regions);
  list('size_id', 'facets.sizes', f.sizes);
  list('year_id', 'facets.years', f.years);
  list('country_id', 'facets.countries', f.countries);
  list('custom_field_id', 'custom_field_options', f.grapes);
  if (f.priceMin !== undefined) p.set('price_min', String(f.priceMin));
  if (f.priceMax !== undefined) p.set('price_max', String(f.priceMax));
  if (f.available) p.set('available', 'true');
  if (f.onSale) p.set('on_sale', 'true');
  if (f.words) p.set('q', f.words.join(' '));
  for (const [k, v] of Object.entries(extra)) p.set(k, v);
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** Every product of a cursored list, following the Link header. */
export async function walkProducts(client: ShopClient, path: string): Promise<any[]> {
  const out: any[] = [];
  let res = await client.get(path).expect(200);
  out.push(...res.body.products);
  for (let guard = 0; res.headers.link && guard < 100; guard++) {
    const next = /<([^>]+)>; rel="next"/.exec(res.headers.link)![1];
    const u = new URL(next);
    res = await client.get(u.pathname.replace('/api/2026-04-01', '') + u.search).expect(200);
    out.push(...res.body.products);
  }
  return out;
}

/** Filter combinations over the fixture (the catalogue and collection specs compare each with the model). */
export const FILTER_CASES: Array<[string, F]> = [
  ['no filter', {}],
  ['color', { colors: ['red'] }],
  ['two colors (OR)', { colors: ['white', 'rose'] }],
  ['region', { regions: ['mosel'] }],
  ['size', { sizes: ['150cl'] }],
  ['year', { years: ['2019', '2020'] }],
  ['country', { countries: ['IT'] }],
  ['custom field', { grapes: ['merlot'] }],
  ['vendor', { vendor: ['chateau', 'dupont'] }],
  ['category with descendants', { categories: ['wine'] }],
  ['two categories (AND)', { categories: ['red', 'sparkling'] }],
  ['price bounds inclusive', { priceMin: 24.9, priceMax: 32 }],
  ['available', { available: true }],
  ['on sale', { onSale: true }],
  ['one variant together: 150 cl under 30', { sizes: ['150cl'], priceMax: 30 }],
  ['combined across dimensions', { colors: ['red'], countries: ['FR', 'IT'], years: ['2018'], available: true }],
  ['nothing matches', { colors: ['rose'], countries: ['DE'] }],
];
