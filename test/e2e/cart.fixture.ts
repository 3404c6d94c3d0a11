/** A small catalogue for the cart and wishlist tests (CONTRACT 6 import document) and the arithmetic the tests expect. */

export const TAX = 8.1;
export const EUR_RATE = 1.06;
export const JPY_RATE = 161.5;

export interface FixtureOptions {
  merlotPrice?: number;
  showNet?: boolean;
}

export function cartImport(o: FixtureOptions = {}) {
  const variant = (key: string, price: number, extra: Record<string, unknown> = {}) => ({
    key,
    sku: key.toUpperCase(),
    title: { en: `${key} 75 cl` },
    price,
    tax_rate: TAX,
    published: true,
    active: true,
    grams: 1300,
    quantity_rule: { min: 1, max: null, increment: 1 },
    track_inventory: false,
    ...extra,
  });
  return {
    settings: { default_language: 'en', languages: ['en', 'de'], default_currency: 'CHF', prices_include_tax: true, show_net_prices: o.showNet ?? false },
    currencies: [
      { key: 'CHF', code: 'CHF', name: 'Swiss franc', symbol: 'CHF', rate: 1, published: true },
      { key: 'EUR', code: 'EUR', name: 'Euro', symbol: '€', rate: EUR_RATE, published: true },
      { key: 'JPY', code: 'JPY', name: 'Yen', symbol: '¥', rate: JPY_RATE, precision: 0, published: true },
      { key: 'USD', code: 'USD', name: 'US dollar', symbol: '$', rate: 1.1, published: false },
    ],
    manufacturers: [{ key: 'm-1', name: 'Domaine Example' }],
    facets: {
      colors: [{ key: 'red', name: { en: 'Red', de: 'Rot' } }],
      sizes: [{ key: '75cl', name: '75 cl' }],
      years: [{ key: '2019', name: '2019' }],
    },
    products: [
      {
        key: 'p-merlot',
        handle: 'merlot-2019',
        title: { en: 'Merlot 2019', de: 'Merlot 2019 (de)' },
        manufacturer: 'm-1',
        published: true,
        created_at: '2026-01-01T10:00:00Z',
        images: [{ src: 'https://cdn.example/merlot.jpg', alt: 'Bottle', width: 800, height: 1200 }],
        variants: [variant('v-merlot', o.merlotPrice ?? 24.9, { compare_at_price: 29.9, color: 'red', size: '75cl', year: '2019' })],
      },
      {
        key: 'p-case',
        handle: 'case-of-six',
        title: 'Case wine',
        published: true,
        created_at: '2026-01-02T10:00:00Z',
        variants: [variant('v-case', 13.35, { grams: 1200, quantity_rule: { min: 6, max: 24, increment: 6 } })],
      },
      {
        key: 'p-cheap',
        handle: 'cheap',
        title: 'Cheap red',
        published: true,
        created_at: '2026-01-03T10:00:00Z',
        variants: [variant('v-cheap', 0.99, { grams: null })],
      },
      {
        key: 'p-hidden',
        handle: 'hidden',
        title: 'Unpublished product',
        published: false,
        created_at: '2026-01-04T10:00:00Z',
        variants: [variant('v-hidden-product', 10)],
      },
      {
        key: 'p-mixed',
        handle: 'mixed',
        title: 'Mixed variants',
        published: true,
        created_at: '2026-01-05T10:00:00Z',
        variants: [variant('v-unpublished', 11, { published: false }), variant('v-inactive', 12, { active: false }), variant('v-visible', 9.95)],
      },
    ],
  };
}

/** round half up to `digits` decimals, robust to binary noise. */
export function round(x: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(x * f + Math.sign(x) * 1e-7) / f;
}

/** The import's net price of a gross price (4 decimals). */
export function netOf(gross: number): number {
  return round(gross / (1 + TAX / 100), 4);
}
