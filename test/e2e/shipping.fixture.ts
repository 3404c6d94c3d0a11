/**
 * A shop for the shipping tests (issue 31): CHF, two variants of 75 cl (a wine of 1,300 g, a juice), two flat
 * methods (post: CH, usa: US), and the zones the tests create through /admin/tax_zones.
 */

export const BOTTLES = {
  basis: 'bottles',
  steps: [
    { from: 1, to: 6, price: 12 },
    { from: 7, to: 12, price: 18 },
    { from: 13, to: 18, price: 26 },
  ],
  beyond: { every: 6, price: 8 },
};

export function shopImport() {
  const variant = (key: string, price: number, extra: Record<string, unknown>) => ({
    key,
    sku: key.toUpperCase(),
    price,
    tax_rate: 8.1,
    published: true,
    active: true,
    track_inventory: false,
    ...extra,
  });
  return {
    settings: {
      default_language: 'en',
      languages: ['en'],
      default_currency: 'CHF',
      prices_include_tax: true,
      guest_checkout_enabled: true,
      terms: { required: false },
      age_verification: { min_age: 0, min_age_by_country: {}, applies_to_alcohol_volume_over: 0 },
    },
    currencies: [{ key: 'CHF', code: 'CHF', name: 'Swiss franc', symbol: 'CHF', rate: 1, published: true }],
    countries: ['CH', 'DE', 'FR', 'IT', 'US'].map((code) => ({ key: code, code, name: code, shipping: true })),
    facets: { sizes: [{ key: '75cl', name: '75 cl' }] },
    shipping_methods: [
      { key: 'post', name: 'Swiss Post', price: 9.5, tax_rate: 8.1, countries: ['CH'], free_over: null, delivery_days: 2 },
      { key: 'usa', name: 'USA freight', price: 40, tax_rate: 0, countries: ['US'], free_over: null, delivery_days: null },
    ],
    payment_types: [{ key: 'invoice', name: 'Invoice', kind: 'invoice' }],
    products: [
      { key: 'p-wine', title: 'Merlot', published: true, variants: [variant('v-wine', 20, { alcohol_volume: 13.5, grams: 1300, size: '75cl' })] },
      { key: 'p-juice', title: 'Grape juice', published: true, variants: [variant('v-juice', 5, { alcohol_volume: 0, grams: 1000, size: '75cl' })] },
    ],
  };
}

/**
 * The zones of the tests (by key): eu (DE, IT), fr, corsica (postcodes FR 20*, more specific than fr), ch, us. Zones
 * of one level never overlap here: two country zones containing one address tie (the smallest id wins).
 */
export const ZONES = [
  { key: 'eu', name: 'EU without France', countries: ['DE', 'IT'] },
  { key: 'fr', name: 'France', countries: ['FR'] },
  { key: 'corsica', name: 'Corsica', postcodes: [{ country: 'FR', pattern: '20*' }] },
  { key: 'ch', name: 'Switzerland', countries: ['CH'] },
  { key: 'us', name: 'United States', countries: ['US'] },
];

export const addr = (country: string, zip: string, email = 'buyer@example.com') => ({
  first_name: 'A',
  last_name: 'B',
  street: 'S 1',
  zip_code: zip,
  location: 'L',
  email,
  country_code: country,
});

/** The ISO date `n` days from now (expected_delivery_date). */
export const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
