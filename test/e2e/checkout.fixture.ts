/**
 * A wine shop for the checkout tests (CONTRACT 6 import) and a plain reading of CONTRACT 7's checkout totals, so
 * the tests compute every expected amount from the fixture itself (in minor units, half up).
 */
import type { ShopClient } from '../helpers/test-app.js';

export const WINE_TAX = 8.1;
export const JUICE_TAX = 2.6;
export const EUR_RATE = 1.06;

export const SHIPPING = {
  post: { key: 'post', name: { en: 'Swiss Post', de: 'Die Post' }, price: 9.5, tax_rate: 8.1, countries: ['CH', 'DE'], free_over: 150, delivery_days: 2 },
  express: { key: 'express', name: 'Express', price: 25, tax_rate: 8.1, countries: ['CH'], free_over: null, delivery_days: 1 },
  usa: { key: 'usa', name: 'USA freight', price: 40, tax_rate: 0, countries: ['US'], free_over: null, delivery_days: null },
};

export interface ShopOptions {
  pricesIncludeTax?: boolean;
  wine?: number;
  juice?: number;
  lastStock?: number;
  termsRequired?: boolean;
}

export function checkoutImport(o: ShopOptions = {}) {
  const v = (key: string, price: number, extra: Record<string, unknown> = {}) => ({
    key,
    sku: key.toUpperCase(),
    title: { en: `${key} 75 cl`, de: `${key} 75 cl (de)` },
    price,
    tax_rate: WINE_TAX,
    published: true,
    active: true,
    ...extra,
  });
  return {
    settings: {
      default_language: 'en',
      languages: ['en', 'de'],
      default_currency: 'CHF',
      prices_include_tax: o.pricesIncludeTax ?? true,
      show_net_prices: false,
      guest_checkout_enabled: true,
      terms: { required: o.termsRequired ?? true, terms_url: 'https://shop.example/terms', privacy_url: 'https://shop.example/privacy' },
      age_verification: { min_age: 16, min_age_by_country: { US: 21, DE: 18 }, applies_to_alcohol_volume_over: 0.5 },
    },
    currencies: [
      { key: 'CHF', code: 'CHF', name: 'Swiss franc', symbol: 'CHF', rate: 1, published: true },
      { key: 'EUR', code: 'EUR', name: 'Euro', symbol: '€', rate: EUR_RATE, published: true },
    ],
    countries: [
      { key: 'CH', code: 'CH', name: { en: 'Switzerland', de: 'Schweiz' }, shipping: true },
      { key: 'DE', code: 'DE', name: { en: 'Germany', de: 'Deutschland' }, shipping: true },
      { key: 'US', code: 'US', name: 'United States', shipping: true },
      { key: 'FR', code: 'FR', name: 'France', shipping: false },
    ],
    locations: [
      { key: 'cellar', name: 'Main cellar' },
      { key: 'store', name: 'Store' },
    ],
    shipping_methods: Object.values(SHIPPING),
    payment_types: [
      { key: 'invoice', name: { en: 'Invoice', de: 'Rechnung' }, kind: 'invoice' },
      { key: 'prepayment', name: 'Prepayment', kind: 'prepayment' },
      { key: 'card', name: 'Card', kind: 'redirect', image_url: 'https://cdn.example/card.svg' },
      { key: 'crypto', name: 'Crypto', kind: 'crypto' },
    ],
    products: [
      {
        key: 'p-wine',
        title: { en: 'Merlot 2019', de: 'Merlot 2019 (de)' },
        published: true,
        images: [{ src: 'https://cdn.example/merlot.jpg', alt: 'Bottle', width: 800, height: 1200 }],
        variants: [v('v-wine', o.wine ?? 24.9, { alcohol_volume: 13.5, track_inventory: true, stock: { cellar: 100, store: 20 } })],
      },
      {
        key: 'p-juice',
        title: 'Grape juice',
        published: true,
        variants: [v('v-juice', o.juice ?? 6.35, { tax_rate: JUICE_TAX, alcohol_volume: 0, track_inventory: false })],
      },
      {
        key: 'p-last',
        title: 'Last bottles',
        published: true,
        variants: [v('v-last', 50, { alcohol_volume: 12, track_inventory: true, allow_backorder: false, stock: { cellar: o.lastStock ?? 10 } })],
      },
      {
        key: 'p-back',
        title: 'Backorder wine',
        published: true,
        variants: [v('v-back', 30, { alcohol_volume: 12, track_inventory: true, allow_backorder: true, stock: { cellar: 1 } })],
      },
    ],
  };
}

export type Ids = {
  variants: Record<string, string>;
  products: Record<string, string>;
  shipping_methods: Record<string, string>;
  payment_types: Record<string, string>;
  locations: Record<string, string>;
  currencies: Record<string, string>;
};

export async function importShop(admin: ShopClient, o: ShopOptions = {}): Promise<Ids> {
  const res = await admin.post('/admin/catalogue/import', checkoutImport(o));
  if (res.status !== 200) throw new Error(`import failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.import.ids as Ids;
}

// ---------------------------------------------------------------- CONTRACT 7, in minor units

const half = (x: number) => Math.floor(x + 0.5 + 1e-9);
const cents = (x: number) => half(x * 100);

export interface ExpectLine {
  price: number;
  tax: number;
  qty: number;
}
export interface ExpectInput {
  lines: ExpectLine[];
  includeTax: boolean;
  rate?: number;
  coupon?: { percent?: number; value?: number };
  shipping?: { price: number; tax_rate: number; free_over: number | null };
}

/** The import's other basis (4 decimals): gross from net, net from gross. */
const four = (x: number) => Math.floor(x * 10000 + 0.5 + 1e-7) / 10000;
const two = (x: number) => Math.floor(x * 100 + 0.5 + 1e-7) / 100;

export function expectedTotals(i: ExpectInput) {
  const rate = i.rate ?? 1;
  // the imported price is in the shop's basis: gross when prices include tax, net otherwise
  const lines = i.lines.map((l) => {
    const gross = i.includeTax ? l.price : two(l.price * (1 + l.tax / 100));
    const net = i.includeTax ? four(l.price / (1 + l.tax / 100)) : l.price;
    const unitGross = cents(gross * rate);
    const unitNet = cents(net * rate);
    return { tax: l.tax, unitGross, unitNet, lineGross: half(unitGross * l.qty), lineNet: half(unitNet * l.qty) };
  });
  const basis = (l: (typeof lines)[number]) => (i.includeTax ? l.lineGross : l.lineNet);
  const sbd = lines.reduce((a, l) => a + basis(l), 0);
  let discount = 0;
  if (i.coupon?.percent) discount = half((sbd * i.coupon.percent) / 100);
  if (i.coupon?.value) discount = Math.min(cents(i.coupon.value), sbd);
  const subtotal = sbd - discount;
  let shipping = 0;
  if (i.shipping) {
    const free = i.shipping.free_over !== null && subtotal >= cents(i.shipping.free_over * rate);
    shipping = free ? 0 : cents(i.shipping.price * rate);
  }
  // discount spread over the rates pro rata (largest remainder)
  const rates = [...new Set(lines.map((l) => l.tax))].sort((a, b) => a - b);
  const bases = rates.map((r) => lines.filter((l) => l.tax === r).reduce((a, l) => a + basis(l), 0));
  const exact = bases.map((b) => (sbd === 0 ? 0 : (discount * b) / sbd));
  const parts = exact.map(Math.floor);
  let left = discount - parts.reduce((a, b) => a + b, 0);
  [...exact.keys()]
    .sort((a, b) => exact[b] - Math.floor(exact[b]) - (exact[a] - Math.floor(exact[a])) || a - b)
    .forEach((k) => {
      if (left > 0) {
        parts[k] += 1;
        left -= 1;
      }
    });
  const amounts = new Map<number, number>(rates.map((r, k) => [r, bases[k] - parts[k]]));
  if (i.shipping && shipping > 0) amounts.set(i.shipping.tax_rate, (amounts.get(i.shipping.tax_rate) ?? 0) + shipping);
  const taxLines = [...amounts.entries()]
    .filter(([r]) => r > 0)
    .sort(([a], [b]) => a - b)
    .map(([r, a]) => ({ name: `Tax ${r}%`, rate: r, amount: half(i.includeTax ? (a * r) / (100 + r) : (a * r) / 100) }));
  const tax = taxLines.reduce((a, t) => a + t.amount, 0);
  const d = (m: number) => m / 100;
  return {
    lines: lines.map((l) => ({ unit_price: d(l.unitNet), unit_price_with_tax: d(l.unitGross), line_total: d(l.lineNet), line_total_with_tax: d(l.lineGross) })),
    totals: {
      subtotal_before_discount: d(sbd),
      discount: d(discount),
      subtotal: d(subtotal),
      shipping_amount: d(shipping),
      tax_amount: d(tax),
      tax_lines: taxLines.map((t) => ({ ...t, amount: d(t.amount) })),
      total: d(subtotal + shipping + (i.includeTax ? 0 : tax)),
    },
  };
}

/** A checkout from a fresh visitor's cart: lines as [variant id, quantity]. */
export async function checkoutWith(client: ShopClient, lines: Array<[string, number]>, opts: { code?: string; currency?: string } = {}) {
  for (const [id, quantity] of lines) {
    const r = await client.post('/cart/items', { article_id: id, quantity });
    if (r.status !== 200) throw new Error(`cart add failed: ${r.status} ${JSON.stringify(r.body)}`);
  }
  if (opts.currency) await client.put('/cart/currency', { code: opts.currency }).expect(200);
  if (opts.code) {
    const r = await client.post('/cart/discount_code', { code: opts.code });
    if (r.status !== 200) throw new Error(`coupon failed: ${r.status} ${JSON.stringify(r.body)}`);
  }
  const res = await client.post('/checkouts');
  if (res.status !== 200) throw new Error(`checkout failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.checkout as { id: string; [k: string]: unknown };
}

export const CH_ADDRESS = {
  first_name: 'Anna',
  last_name: 'Muster',
  street: 'Bahnhofstrasse',
  house_number: '1',
  zip_code: '8001',
  location: 'Zürich',
  email: 'anna@example.ch',
  country_code: 'CH',
};
export const US_ADDRESS = {
  first_name: 'John',
  last_name: 'Doe',
  street: 'Main St',
  house_number: '5',
  zip_code: '10001',
  location: 'New York',
  email: 'john@example.com',
  country_code: 'US',
};
