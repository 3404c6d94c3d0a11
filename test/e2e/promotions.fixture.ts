/** A small wine shop for the promotions e2e (issue 32): one shop per test, so promotions never meet across tests. */
import { expect } from '@jest/globals';
import type { ShopClient, TestApp, TestShop } from '../helpers/test-app.js';

export const ADDRESS = { first_name: 'Anna', last_name: 'Muster', street: 'Bahnhofstrasse', house_number: '1', zip_code: '8001', location: 'Zürich' };

function catalogue() {
  const v = (key: string, price: number, extra: Record<string, unknown>) => ({
    key,
    sku: key.toUpperCase(),
    title: `${key} 75 cl`,
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
      show_net_prices: false,
      guest_checkout_enabled: true,
      terms: { required: false },
    },
    currencies: [
      { key: 'CHF', code: 'CHF', name: 'Swiss franc', symbol: 'CHF', rate: 1, published: true },
      { key: 'EUR', code: 'EUR', name: 'Euro', symbol: '€', rate: 1.1, published: true },
    ],
    countries: [
      { key: 'CH', code: 'CH', name: 'Switzerland', shipping: true },
      { key: 'DE', code: 'DE', name: 'Germany', shipping: true },
    ],
    locations: [{ key: 'cellar', name: 'Cellar' }],
    manufacturers: [
      { key: 'm-barolo', name: 'Cantina Barolo' },
      { key: 'm-other', name: 'Other' },
    ],
    categories: [
      { key: 'wine', name: 'Wine', parent: null },
      { key: 'red', name: 'Red wine', parent: 'wine' },
      { key: 'white', name: 'White wine', parent: 'wine' },
    ],
    facets: {
      colors: [
        { key: 'red', name: 'Red' },
        { key: 'white', name: 'White' },
      ],
      years: [
        { key: '2019', name: '2019' },
        { key: '2020', name: '2020' },
      ],
    },
    custom_fields: [
      {
        key: 'grape',
        label: 'Grape',
        type: 'select',
        options: [
          { key: 'nebbiolo', name: 'Nebbiolo', value: 'nebbiolo' },
          { key: 'chardonnay', name: 'Chardonnay', value: 'chardonnay' },
        ],
      },
    ],
    shipping_methods: [
      { key: 'post', name: 'Post', price: 10, tax_rate: 8.1, countries: ['CH', 'DE'], free_over: null, delivery_days: 2 },
      { key: 'express', name: 'Express', price: 20, tax_rate: 8.1, countries: ['CH'], free_over: null, delivery_days: 1 },
    ],
    payment_types: [
      { key: 'invoice', name: 'Invoice', kind: 'invoice' },
      { key: 'card', name: 'Card', kind: 'redirect' },
    ],
    products: [
      {
        key: 'p-barolo',
        title: 'Barolo 2019',
        manufacturer: 'm-barolo',
        categories: ['red'],
        variants: [v('v-barolo', 30, { color: 'red', year: '2019', custom_fields: { grape: ['nebbiolo'] } })],
      },
      {
        key: 'p-langhe',
        title: 'Langhe Nebbiolo 2020',
        manufacturer: 'm-barolo',
        categories: ['red'],
        variants: [v('v-langhe', 20, { color: 'red', year: '2020' })],
      },
      { key: 'p-cheap', title: 'Table red', manufacturer: 'm-other', categories: ['red'], variants: [v('v-cheap', 10, { color: 'red', year: '2020' })] },
      {
        key: 'p-white',
        title: 'Chardonnay 2019',
        manufacturer: 'm-other',
        categories: ['white'],
        variants: [v('v-white', 15, { color: 'white', year: '2019', custom_fields: { grape: ['chardonnay'] } })],
      },
    ],
    collections: [
      { key: 'club', title: 'Club picks', collection_type: 'manual', published: true, products: ['p-white'] },
      {
        key: 'cheap-reds',
        title: 'Reds under 25',
        collection_type: 'smart',
        published: true,
        rules_json: JSON.stringify({
          all: [
            { field: 'category', eq: 'red' },
            { field: 'price', lt: 25 },
          ],
        }),
      },
      {
        key: 'other-or-2019',
        title: 'Other producer or 2019',
        collection_type: 'smart',
        published: true,
        rules_json: JSON.stringify({
          any: [
            { field: 'manufacturer', eq: 'm-other' },
            { field: 'year', eq: '2019' },
          ],
        }),
      },
    ],
  };
}

export interface PromoIds {
  variants: Record<string, string>;
  products: Record<string, string>;
  manufacturers: Record<string, string>;
  categories: Record<string, string>;
  collections: Record<string, string>;
  shipping_methods: Record<string, string>;
  payment_types: Record<string, string>;
}

export interface PromoShop {
  shop: TestShop;
  ids: PromoIds;
  /** A new anonymous visitor (its own cookie jar) on the storefront. */
  visitor(): ShopClient;
  promote(body: Record<string, unknown>): Promise<{ id: string; [k: string]: unknown }>;
}

export async function promoShop(t: TestApp): Promise<PromoShop> {
  const shop = await t.createShop();
  const res = await shop.admin.post('/admin/catalogue/import', catalogue());
  if (res.status !== 200) throw new Error(`import failed: ${res.status} ${JSON.stringify(res.body)}`);
  const ids = res.body.import.ids as PromoIds;
  return {
    shop,
    ids,
    visitor: () => t.client(shop.storefront_token),
    promote: async (body) => {
      const r = await shop.admin.post('/admin/promotions', body);
      if (r.status !== 201) throw new Error(`promotion refused: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.promotion;
    },
  };
}

export type Cart = {
  items: Array<{ id: string; line_price: number; promotions?: Array<{ promotion_id: string; name: string; amount: number }> }>;
  items_subtotal_price: number;
  total_discount: number;
  total_price: number;
  discount_code: string | null;
  discounts?: Array<{ promotion_id: string; name: string; kind: string; amount: number; lines_amount: number; shipping_amount: number }>;
  available_promotions?: Array<{ promotion_id: string; name: string; missing_quantity: number | null; missing_amount: number | null; message: string }>;
  suggested_gifts?: Array<{ promotion_id: string; quantity: number; variant_ids: string[]; product_ids: string[] }>;
};

/** Adds the lines in this order and answers the cart after the last add. */
export async function fill(client: ShopClient, lines: Array<[string, number]>): Promise<Cart> {
  let cart: Cart | null = null;
  for (const [id, quantity] of lines) cart = (await client.post('/cart/items', { article_id: id, quantity }).expect(200)).body.cart;
  return cart ?? (await client.get('/cart').expect(200)).body.cart;
}

/** Minor-unit sum of the line promotions of a cart line (by variant id). */
export function lineOff(cart: Cart, variantId: string): number {
  const line = cart.items.find((i) => i.id === variantId);
  return Math.round((line?.promotions ?? []).reduce((a, p) => a + p.amount, 0) * 100) / 100;
}

/** The cart members add up: total = subtotal - discount, discount = the promotions' line parts (+ coupon). */
export function expectConsistent(cart: Cart, coupon = 0): void {
  const lines = (cart.discounts ?? []).reduce((a, d) => a + d.lines_amount, 0);
  expect(Math.round((cart.items_subtotal_price - cart.total_discount) * 100)).toBe(Math.round(cart.total_price * 100));
  expect(Math.round(cart.total_discount * 100)).toBe(Math.round((lines + coupon) * 100));
}

/** A checkout of the client's cart, delivered to `country` by `method`; answers the checkout after the update. */
export async function checkoutTo(p: PromoShop, client: ShopClient, country: string, method = 'post', email = 'anna@example.ch') {
  const c = (await client.post('/checkouts').expect(200)).body.checkout;
  const res = await client
    .put(`/checkouts/${c.id}`, { shipping_address: { ...ADDRESS, country_code: country, email }, shipping_method_id: p.ids.shipping_methods[method] })
    .expect(200);
  return res.body.checkout as {
    id: string;
    line_items: Array<{ id: string; article_id: string; line_total_with_tax: number; promotions?: Array<{ promotion_id: string; amount: number }> }>;
    totals: {
      subtotal: number;
      subtotal_before_discount: number;
      discount: number;
      shipping_amount: number;
      total: number;
      tax_amount: number;
      discounts?: Array<{ promotion_id: string; kind: string; amount: number; lines_amount: number; shipping_amount: number }>;
    };
  };
}

export function complete(p: PromoShop, client: ShopClient, checkoutId: string, pay: 'invoice' | 'card' = 'invoice') {
  return client.post(`/checkouts/${checkoutId}/complete`, {
    payment_type_id: p.ids.payment_types[pay],
    accepted_terms: true,
    age_confirmed: true,
    ...(pay === 'card' ? { return_url: 'https://shop.example/back' } : {}),
  });
}
