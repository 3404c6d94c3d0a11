/**
 * `generateDemoCatalogue(count)`: a believable, deterministic (seeded) wine catalogue in the CONTRACT 6 import
 * format, for the CLI's `demo` command and the benchmark. Every filter and facet has meaningful values.
 */
import { REGIONS, COUNTRIES, COLORS, CATEGORY_OF_COLOR, SIZES, PREFIX, NAMES, CUVEES } from './demo-catalogue-data.js';

/** A small seeded generator (mulberry32): the same seed gives the same sequence (also the tests' random filter sets and property tests). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const label = (slug: string) =>
  slug
    .split('-')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(' ');

/** Where the reference storefront serves its bottle images (same origin as the API when STOREFRONT_DEMO=on). */
export const DEMO_IMAGES = '/storefront-demo/bottles';

export function generateDemoCatalogue(count = 2000, seed = 20260401): Record<string, unknown> {
  const rnd = mulberry32(seed);
  const pick = <T>(list: T[]): T => list[Math.floor(rnd() * list.length)];
  const grapes = [...new Set(REGIONS.flatMap((r) => r.grapes))].sort();
  const years = Array.from({ length: 16 }, (_, i) => String(2009 + i));
  const manufacturers = REGIONS.flatMap((r) =>
    Array.from({ length: Math.max(3, Math.round(count / 200)) }, (_, i) => {
      const name = `${pick(PREFIX[COUNTRIES[r.country] ? r.country : 'FR'])} ${pick(NAMES)}`;
      return { key: `m-${r.key}-${i + 1}`, name, logo_url: `https://picsum.photos/seed/${r.key}-${i + 1}/200/200`, region: r };
    }),
  );
  const products = Array.from({ length: count }, (_, i) => {
    const maker = pick(manufacturers);
    const region = maker.region;
    const color = pick(region.colors);
    const grapeSet = [...new Set([pick(region.grapes), ...(rnd() < 0.35 ? [pick(region.grapes)] : [])])];
    const cuvee = pick(CUVEES);
    const area = pick(region.areas);
    const year = color === 'sparkling' && rnd() < 0.5 ? null : pick(years);
    const base = Math.round((9 + Math.pow(rnd(), 2.2) * 140) * 10) / 10;
    const title = `${maker.name} ${area} ${cuvee}${year ? ` ${year}` : ''}`;
    const nVariants = rnd() < 0.55 ? 1 : rnd() < 0.8 ? 2 : 3;
    const sizes = [SIZES[1], ...SIZES.filter((s) => s.key !== '75cl').sort(() => rnd() - 0.5)].slice(0, nVariants);
    const onSale = rnd() < 0.12;
    const created = new Date(Date.UTC(2024, 0, 1) + Math.floor(rnd() * 800 * 86400) * 1000 + i * 1000).toISOString();
    const key = `demo-${String(i + 1).padStart(6, '0')}`;
    return {
      key,
      handle: `${key}-${title
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')}`.slice(0, 120),
      title: { en: title, de: title },
      body_html: `<p>${label(grapeSet.join(' and '))} from ${area}, ${region.name}. ${cuvee} selection${year ? ` of the ${year} vintage` : ''}.</p>`,
      summary_html: `<p>${COLORS[color].en} wine from ${region.name}.</p>`,
      manufacturer: maker.key,
      categories: [CATEGORY_OF_COLOR[color], ...(rnd() < 0.15 ? ['organic'] : []), ...(base > 80 ? ['collectors'] : [])],
      flag: rnd() < 0.05 ? 'new' : rnd() < 0.04 ? 'bestseller' : null,
      tags: rnd() < 0.15 ? ['organic'] : [],
      published: rnd() > 0.02,
      created_at: created,
      // drawn bottles and a glass of the wine's colour, shipped with the reference storefront (examples/storefront/public/bottles)
      images: [
        { src: `${DEMO_IMAGES}/${color}-${(i % 2) + 1}.svg`, alt: title, width: 200, height: 400 },
        { src: `${DEMO_IMAGES}/${color}-3.svg`, alt: `${title}: a glass`, width: 200, height: 400 },
      ],
      ratings: Array.from({ length: Math.floor(rnd() * 6) }, () => 2 + Math.floor(rnd() * 4)),
      variants: sizes.map((size, j) => {
        const price = Math.round(base * size.factor * 10) / 10 - 0.1;
        const stock = rnd() < 0.15 ? 0 : Math.floor(rnd() * 120);
        return {
          key: `${key}-${size.key}`,
          handle: `${key}-${size.key}`,
          sku: `${maker.key.slice(2, 5).toUpperCase()}-${String(i + 1).padStart(6, '0')}-${size.key.toUpperCase()}`,
          title: { en: size.name },
          price: Math.max(4.9, Number(price.toFixed(2))),
          compare_at_price: onSale ? Number((price * 1.2).toFixed(2)) : null,
          tax_rate: 8.1,
          published: true,
          active: j === 0 || rnd() > 0.03,
          color,
          region: region.key,
          year,
          size: size.key,
          country: region.country,
          alcohol_volume: Math.round((color === 'sweet' ? 19 : 11.5 + rnd() * 3.5) * 10) / 10,
          grams: Math.round(1300 * size.factor),
          option_group: null,
          description: null,
          description_additional: null,
          area,
          quantity_rule: { min: 1, max: null, increment: size.key === '37-5cl' ? 2 : 1 },
          custom_fields: { grape: grapeSet, closure: [size.key === '37-5cl' || rnd() < 0.2 ? 'screwcap' : 'cork'] },
          track_inventory: rnd() > 0.05,
          allow_backorder: rnd() < 0.05,
          stock: { cellar: stock, ...(rnd() < 0.3 ? { shop: Math.floor(rnd() * 12) } : {}) },
        };
      }),
    };
  });
  return {
    settings: {
      default_language: 'en',
      languages: ['en', 'de'],
      default_currency: 'CHF',
      prices_include_tax: true,
      show_net_prices: false,
      require_email_confirmation: false,
      guest_checkout_enabled: true,
      terms: { required: true, terms_url: 'https://demo.example/terms', privacy_url: 'https://demo.example/privacy' },
      age_verification: { min_age: 18, min_age_by_country: { US: 21 }, applies_to_alcohol_volume_over: 0 },
    },
    currencies: [
      { key: 'CHF', code: 'CHF', name: 'Swiss franc', symbol: 'CHF', rate: 1, published: true },
      { key: 'EUR', code: 'EUR', name: 'Euro', symbol: '€', rate: 1.06, published: true },
      { key: 'USD', code: 'USD', name: 'US dollar', symbol: '$', rate: 1.12, published: true },
    ],
    countries: [
      { key: 'CH', code: 'CH', name: { en: 'Switzerland', de: 'Schweiz' }, shipping: true },
      { key: 'DE', code: 'DE', name: { en: 'Germany', de: 'Deutschland' }, shipping: true },
      { key: 'AT', code: 'AT', name: { en: 'Austria', de: 'Österreich' }, shipping: true },
      { key: 'FR', code: 'FR', name: { en: 'France', de: 'Frankreich' }, shipping: true },
    ],
    locations: [
      { key: 'cellar', name: 'Main cellar' },
      { key: 'shop', name: 'Shop Zurich' },
    ],
    manufacturers: manufacturers.map(({ key, name, logo_url }) => ({ key, name, logo_url })),
    categories: [
      { key: 'wine', name: { en: 'Wine', de: 'Wein' }, parent: null },
      { key: 'red-wine', name: { en: 'Red wine', de: 'Rotwein' }, parent: 'wine' },
      { key: 'white-wine', name: { en: 'White wine', de: 'Weisswein' }, parent: 'wine' },
      { key: 'rose-wine', name: { en: 'Rosé', de: 'Rosé' }, parent: 'wine' },
      { key: 'sparkling-wine', name: { en: 'Sparkling wine', de: 'Schaumwein' }, parent: 'wine' },
      { key: 'sweet-wine', name: { en: 'Sweet & fortified', de: 'Süss- und Likörwein' }, parent: 'wine' },
      { key: 'organic', name: { en: 'Organic', de: 'Bio' }, parent: null },
      { key: 'collectors', name: { en: "Collector's wines", de: 'Sammlerweine' }, parent: null },
    ],
    facets: {
      colors: Object.entries(COLORS).map(([key, name]) => ({ key, name })),
      regions: REGIONS.map((r) => ({ key: r.key, name: r.de ? { en: r.name, de: r.de } : r.name })),
      sizes: SIZES.map((s, i) => ({ key: s.key, name: s.name, position: i })),
      years: years.map((y) => ({ key: y, name: y })),
      countries: [...new Set(REGIONS.map((r) => r.country))].map((c) => ({ key: c, name: COUNTRIES[c] })),
    },
    custom_fields: [
      { key: 'grape', label: { en: 'Grape', de: 'Traube' }, type: 'select', options: grapes.map((g) => ({ key: g, name: label(g), value: g })) },
      {
        key: 'closure',
        label: { en: 'Closure', de: 'Verschluss' },
        type: 'select',
        options: [
          { key: 'cork', name: { en: 'Cork', de: 'Korken' }, value: 'cork' },
          { key: 'screwcap', name: { en: 'Screw cap', de: 'Schraubverschluss' }, value: 'screwcap' },
        ],
      },
    ],
    flags: [
      { key: 'new', name: { en: 'New', de: 'Neu' }, color: '#2e86de' },
      { key: 'bestseller', name: { en: 'Bestseller', de: 'Bestseller' }, color: '#c0392b' },
    ],
    shipping_methods: [
      { key: 'post', name: { en: 'Swiss Post', de: 'Die Post' }, price: 9.5, tax_rate: 8.1, countries: ['CH'], free_over: 150, delivery_days: 2 },
      { key: 'dhl', name: 'DHL Europe', price: 24, tax_rate: 0, countries: ['DE', 'AT', 'FR'], free_over: 400, delivery_days: 5 },
      {
        key: 'pickup',
        name: { en: 'Pick-up in Zurich', de: 'Abholung in Zürich' },
        price: 0,
        tax_rate: 0,
        countries: ['CH'],
        free_over: null,
        delivery_days: 0,
      },
    ],
    payment_types: [
      { key: 'invoice', name: { en: 'Invoice', de: 'Rechnung' }, kind: 'invoice', image_url: null },
      { key: 'prepayment', name: { en: 'Prepayment', de: 'Vorauskasse' }, kind: 'prepayment' },
      { key: 'card', name: { en: 'Credit card', de: 'Kreditkarte' }, kind: 'redirect', image_url: 'https://demo.example/cards.svg' },
    ],
    products,
    collections: [
      {
        key: 'staff-picks',
        title: { en: 'Staff picks', de: 'Unsere Empfehlungen' },
        collection_type: 'manual',
        published: true,
        sort_order: 'manual',
        products: products
          .filter((_, i) => i % Math.max(1, Math.floor(count / 12)) === 0)
          .slice(0, 12)
          .map((p) => p.key),
        image: { src: 'https://picsum.photos/seed/staff-picks/1200/400', alt: 'Staff picks', width: 1200, height: 400 },
      },
      {
        key: 'reds-under-20',
        title: { en: 'Reds under 20', de: 'Rotweine unter 20' },
        collection_type: 'smart',
        published: true,
        sort_order: 'price-asc',
        rules_json: JSON.stringify({
          all: [
            { field: 'category', eq: 'red-wine' },
            { field: 'price', lt: 20 },
          ],
        }),
      },
      {
        key: 'swiss',
        title: { en: 'Swiss wines', de: 'Schweizer Weine' },
        collection_type: 'smart',
        published: true,
        sort_order: 'alpha-asc',
        rules_json: JSON.stringify({ any: [{ field: 'country', eq: 'CH' }] }),
      },
      {
        key: 'riesling',
        title: 'Riesling',
        collection_type: 'smart',
        published: true,
        rules_json: JSON.stringify({ all: [{ field: 'custom_field', eq: 'riesling' }] }),
      },
    ],
  };
}
