import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PromotionsService, RequestContext } from 'vinoshop-commerce';
import { createTestApp, ShopClient, TestApp, TestShop } from 'vinoshop-commerce/testing';
import { WineClubAllocationJob } from './wine-club-allocation.job.js';
import { wineClubExtension } from './wine-club.module.js';
import { clubPrice } from './wine-club.pricing.js';

const WINE_TAX = 8.1;
const PASSWORD = 'correct horse battery';
type Ids = {
  variants: Record<string, string>;
  products: Record<string, string>;
  shipping_methods: Record<string, string>;
  payment_types: Record<string, string>;
};

/** A small wine shop (prices include tax, CHF default, EUR at 1.06). */
function shopImport() {
  const v = (key: string, price: number, extra: Record<string, unknown> = {}) => ({
    key,
    sku: key.toUpperCase(),
    title: `${key} 75 cl`,
    price,
    tax_rate: WINE_TAX,
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
      { key: 'EUR', code: 'EUR', name: 'Euro', symbol: '€', rate: 1.06, published: true },
    ],
    countries: [{ key: 'CH', code: 'CH', name: 'Switzerland', shipping: true }],
    shipping_methods: [{ key: 'post', name: 'Swiss Post', price: 9.5, tax_rate: WINE_TAX, countries: ['CH'], free_over: null, delivery_days: 2 }],
    payment_types: [{ key: 'invoice', name: 'Invoice', kind: 'invoice' }],
    products: [
      { key: 'p-wine', title: 'Merlot 2019', published: true, variants: [v('v-wine', 24.9, { alcohol_volume: 13.5 })] },
      { key: 'p-juice', title: 'Grape juice', published: true, variants: [v('v-juice', 6.35, { tax_rate: 2.6, alcohol_volume: 0 })] },
    ],
  };
}

const ADDRESS = {
  first_name: 'Anna',
  last_name: 'Muster',
  street: 'Bahnhofstrasse',
  house_number: '1',
  zip_code: '8001',
  location: 'Zürich',
  email: 'anna@example.ch',
  country_code: 'CH',
};

describe('example extension: wine club', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let ids: Ids;
  let otherIds: Ids;
  let ana: { id: string; client: ShopClient };
  let ben: { id: string; client: ShopClient };

  /** Registers and signs in a shopper; returns the customer id and a client with the shopper token. */
  async function shopper(s: TestShop, email: string) {
    const id = (await s.storefront.post('/customers', { email, password: PASSWORD }).expect(201)).body.customer.id as string;
    const token = (await s.storefront.post('/customer/auth/token', { email, password: PASSWORD }).expect(200)).body.customer_access_token
      .access_token as string;
    return { id, client: t.client(token) };
  }
  async function importShop(s: TestShop): Promise<Ids> {
    return (await s.admin.post('/admin/catalogue/import', shopImport()).expect(200)).body.import.ids as Ids;
  }
  /** Empties the client's cart and fills it with these lines. */
  async function cart(client: ShopClient, lines: Array<[string, number]>) {
    await client.delete('/cart').expect((r) => expect([200, 204]).toContain(r.status));
    for (const [id, quantity] of lines) await client.post('/cart/items', { article_id: id, quantity }).expect(200);
    return (await client.get('/cart').expect(200)).body.cart as {
      items: Array<{ id: string; price: number; gross_price: number; net_price: number; line_price: number }>;
      total_price: number;
    };
  }
  const priceOf = (c: Awaited<ReturnType<typeof cart>>, variantId: string) => c.items.find((i) => i.id === variantId)!.gross_price;

  beforeAll(async () => {
    // the extension brings its module (pricing, admin endpoints, allocation job), entities and migration
    t = await createTestApp({ ...wineClubExtension({ allocationCheckMs: 0 }) });
    shop = await t.createShop();
    other = await t.createShop();
    ids = await importShop(shop);
    otherIds = await importShop(other);
    ana = await shopper(shop, 'ana@example.test');
    ben = await shopper(shop, 'ben@example.test');
  });
  afterAll(() => t.close());

  const wine = () => ids.variants['v-wine'];
  const juice = () => ids.variants['v-juice'];

  it('ran its own migration, and new shop owners hold its scopes', async () => {
    expect(await t.db.query(`SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'wine_club_%' ORDER BY 1`)).toEqual([
      { table_name: 'wine_club_allocations' },
      { table_name: 'wine_club_members' },
      { table_name: 'wine_club_prices' },
    ]);
    expect((await shop.admin.get('/admin/wine_club/members').expect(200)).body).toEqual({ members: [] });
    const mint = await shop.admin
      .post('/admin/access_tokens', { label: 'club', tier: 'admin', scopes: ['Shop/wine_club/read', 'Shop/wine_club/write'] })
      .expect(201);
    expect(mint.body.access_token.scopes).toBe('Shop/wine_club/read Shop/wine_club/write');
  });

  it('sets club prices and members; 404 for unknown or foreign ids, 422 for bad input', async () => {
    const price = await shop.admin.put(`/admin/wine_club/prices/${wine()}`, { price: 19.9 }).expect(200);
    expect(price.body).toEqual({
      club_price: { variant_id: wine(), product_id: ids.products['p-wine'], price: 19.9, created_at: expect.any(String), updated_at: null },
    });
    const member = await shop.admin.put(`/admin/wine_club/members/${ana.id}`, { bottles_per_month: 6 }).expect(200);
    expect(member.body).toEqual({ member: { customer_id: ana.id, bottles_per_month: 6, created_at: expect.any(String), updated_at: null } });
    // 422: invalid price or bottles, a malformed id, a malformed month
    for (const body of [{ price: -1 }, { price: 'abc' }, { price: 1.23456 }, {}]) {
      const res = await shop.admin.put(`/admin/wine_club/prices/${wine()}`, body).expect(422);
      expect(typeof res.body.errors).toBe('string');
    }
    for (const body of [{ bottles_per_month: 0 }, { bottles_per_month: 25 }, { bottles_per_month: 1.5 }, {}])
      await shop.admin.put(`/admin/wine_club/members/${ana.id}`, body).expect(422);
    await shop.admin.put('/admin/wine_club/prices/not-a-uuid', { price: 1 }).expect(422);
    await shop.admin.post('/admin/wine_club/allocations', { month: '2026-13' }).expect(422);
    await shop.admin.get('/admin/wine_club/allocations?month=11-2026').expect(422);
    // 404: unknown, or another shop's variant and customer
    await shop.admin.put('/admin/wine_club/prices/00000000-0000-4000-8000-000000000000', { price: 1 }).expect(404);
    await shop.admin.put(`/admin/wine_club/prices/${otherIds.variants['v-wine']}`, { price: 1 }).expect(404);
    await other.admin.put(`/admin/wine_club/members/${ana.id}`, { bottles_per_month: 1 }).expect(404);
    await shop.admin.delete(`/admin/wine_club/prices/${juice()}`).expect(404);
    await shop.admin.delete(`/admin/wine_club/members/${ben.id}`).expect(404);
    // the lists, enveloped and cursored
    expect((await shop.admin.get('/admin/wine_club/prices').expect(200)).body.club_prices.map((p: { variant_id: string }) => p.variant_id)).toEqual([wine()]);
    expect((await shop.admin.get('/admin/wine_club/members').expect(200)).body.members.map((m: { customer_id: string }) => m.customer_id)).toEqual([ana.id]);
    expect((await other.admin.get('/admin/wine_club/members').expect(200)).body.members).toEqual([]);
  });

  it('offers the wine_club_member promotion condition: members only, optionally from a number of bottles', async () => {
    const body = {
      name: 'Club members: 15% on the 2019 vintage',
      conditions: [
        { type: 'custom', name: 'wine_club_member', params: {} },
        { type: 'lines', selector: [{ type: 'facet', facet: 'vintage', values: ['2019'] }] },
      ],
      actions: [{ type: 'percent_off_lines', percent: 15 }],
    };
    const created = (await shop.admin.post('/admin/promotions', body).expect(201)).body.promotion;
    expect(created.conditions[0]).toEqual({ type: 'custom', name: 'wine_club_member', params: {} });
    const unknown = { ...body, conditions: [{ type: 'custom', name: 'wine_club_patron' }] };
    expect((await shop.admin.post('/admin/promotions', unknown).expect(422)).body.errors).toMatch(
      /conditions\[0\]\.name: no extension provides "wine_club_patron"/,
    );
    const promotions = t.get(PromotionsService);
    const ctx = RequestContext.forTenant(shop.tenant.id);
    const member = (customerId: string | null, params: Record<string, unknown> = {}) =>
      promotions.hooks(ctx, { customerId }).then((h) => h.conditions!.get('wine_club_member')!(params, null as never));
    expect(await member(ana.id)).toBe(true); // 6 bottles a month
    expect(await member(ana.id, { min_bottles_per_month: 12 })).toBe(false);
    expect(await member(ben.id)).toBe(false);
    expect(await member(null)).toBe(false);
    // another shop's membership does not count
    expect(
      await promotions
        .hooks(RequestContext.forTenant(other.tenant.id), { customerId: ana.id })
        .then((h) => h.conditions!.get('wine_club_member')!({}, null as never)),
    ).toBe(false);
  });

  it("a promotion with the wine_club_member condition applies in a member's cart only (the hook runs per cart read)", async () => {
    const promo = (
      await shop.admin
        .post('/admin/promotions', {
          name: 'Club: 10% off juice',
          combines_with: { product: true },
          conditions: [
            { type: 'custom', name: 'wine_club_member' },
            { type: 'lines', selector: [{ type: 'product', ids: [ids.products['p-juice']] }] },
          ],
          actions: [{ type: 'percent_off_lines', percent: 10 }],
        })
        .expect(201)
    ).body.promotion;
    type Lined = { items: Array<{ id: string; promotions?: Array<{ promotion_id: string; amount: number }> }>; total_discount: number };
    const member = (await cart(ana.client, [[juice(), 2]])) as unknown as Lined;
    expect(member.items[0].promotions).toEqual([{ promotion_id: promo.id, name: 'Club: 10% off juice', amount: 1.27 }]);
    expect(member.total_discount).toBe(1.27);
    const nonMember = (await cart(ben.client, [[juice(), 2]])) as unknown as Lined;
    expect(nonMember.items[0].promotions).toEqual([]);
    await shop.admin.delete(`/admin/promotions/${promo.id}`).expect(204);
    await ana.client.delete('/cart').expect(200);
    await ben.client.delete('/cart').expect(200);
  });

  it("a member's cart is priced with the club price; a guest and a non-member pay the catalogue price", async () => {
    const member = await cart(ana.client, [
      [wine(), 2],
      [juice(), 1],
    ]);
    expect(priceOf(member, wine())).toBe(19.9);
    expect(priceOf(member, juice())).toBe(6.35);
    expect(member.total_price).toBe(46.15);
    const guest = await cart(t.client(shop.storefront_token), [
      [wine(), 2],
      [juice(), 1],
    ]);
    expect(priceOf(guest, wine())).toBe(24.9);
    expect(guest.total_price).toBe(56.15);
    const nonMember = await cart(ben.client, [[wine(), 2]]);
    expect(priceOf(nonMember, wine())).toBe(24.9);
    // converted like any price in another currency (19.90 x 1.06)
    const eur = (await ana.client.get('/cart?currency=EUR').expect(200)).body.cart;
    expect(eur.items.find((i: { id: string }) => i.id === wine()).gross_price).toBe(21.09);
  });

  it("a member's checkout totals and placed order use the club price", async () => {
    await cart(ana.client, [
      [wine(), 2],
      [juice(), 1],
    ]);
    const c = (await ana.client.post('/checkouts').expect(200)).body.checkout;
    const ready = (await ana.client.put(`/checkouts/${c.id}`, { shipping_address: ADDRESS, shipping_method_id: ids.shipping_methods.post }).expect(200)).body
      .checkout;
    const wineLine = ready.line_items.find((l: { variant_id?: string; article_id?: string; id: string }) =>
      [l.variant_id, l.article_id, l.id].includes(wine()),
    );
    expect(wineLine).toMatchObject({ unit_price_with_tax: 19.9, line_total_with_tax: 39.8 });
    expect(ready.totals).toMatchObject({ subtotal: 46.15, shipping_amount: 9.5, total: 55.65 });
    const placed = (
      await ana.client
        .post(`/checkouts/${c.id}/complete`, { payment_type_id: ids.payment_types.invoice, accepted_terms: true, age_confirmed: true })
        .expect(200)
    ).body.checkout;
    const order = (await shop.admin.get(`/admin/orders/${placed.order_id}`).expect(200)).body.order;
    expect(order.customer_id).toBe(ana.id);
    expect(order.line_items.find((l: { variant_id: string }) => l.variant_id === wine())).toMatchObject({ quantity: 2, unit_price_with_tax: 19.9 });
    expect(order.total).toBe(55.65);
    // a guest's checkout of the same cart is at catalogue prices
    const guest = t.client(shop.storefront_token);
    await cart(guest, [
      [wine(), 2],
      [juice(), 1],
    ]);
    const g = (await guest.post('/checkouts').expect(200)).body.checkout;
    const gReady = (await guest.put(`/checkouts/${g.id}`, { shipping_address: ADDRESS, shipping_method_id: ids.shipping_methods.post }).expect(200)).body
      .checkout;
    expect(gReady.totals).toMatchObject({ subtotal: 56.15, total: 65.65 });
  });

  it('a club price never raises a price, and leaving the club ends it', async () => {
    await shop.admin.put(`/admin/wine_club/prices/${juice()}`, { price: 7 }).expect(200);
    expect(priceOf(await cart(ana.client, [[juice(), 1]]), juice())).toBe(6.35);
    await shop.admin.put(`/admin/wine_club/prices/${juice()}`, { price: 5 }).expect(200);
    expect(priceOf(await cart(ana.client, [[juice(), 1]]), juice())).toBe(5);
    await shop.admin.delete(`/admin/wine_club/prices/${juice()}`).expect(204);
    expect(priceOf(await cart(ana.client, [[juice(), 1]]), juice())).toBe(6.35);
    await shop.admin.put(`/admin/wine_club/members/${ben.id}`, { bottles_per_month: 2 }).expect(200);
    expect(priceOf(await cart(ben.client, [[wine(), 1]]), wine())).toBe(19.9);
    await shop.admin.delete(`/admin/wine_club/members/${ben.id}`).expect(204);
    expect(priceOf(await cart(ben.client, [[wine(), 1]]), wine())).toBe(24.9);
  });

  it('the monthly allocation job allocates each member once per month, per shop', async () => {
    const job = t.get(WineClubAllocationJob);
    const otherMember = await shopper(other, 'olga@example.test');
    await other.admin.put(`/admin/wine_club/members/${otherMember.id}`, { bottles_per_month: 3 }).expect(200);
    const now = new Date();
    const month = now.toISOString().slice(0, 7);
    expect(await job.runOnce(now)).toBe(2); // ana here, olga in the other shop
    expect(await job.runOnce(now)).toBe(0); // idempotent
    const list = (await shop.admin.get(`/admin/wine_club/allocations?month=${month}`).expect(200)).body.allocations;
    expect(list).toEqual([{ id: expect.any(String), customer_id: ana.id, month, bottles: 6, created_at: expect.any(String) }]);
    // on demand for one shop: nothing new this month; a month before anyone joined allocates nobody
    expect((await shop.admin.post('/admin/wine_club/allocations', {}).expect(200)).body).toEqual({ allocation_run: { month, created: 0 } });
    expect((await shop.admin.post('/admin/wine_club/allocations', { month: '2020-01' }).expect(200)).body).toEqual({
      allocation_run: { month: '2020-01', created: 0 },
    });
    // a new member is allocated by the next run
    await shop.admin.put(`/admin/wine_club/members/${ben.id}`, { bottles_per_month: 2 }).expect(200);
    expect((await shop.admin.post('/admin/wine_club/allocations', { month }).expect(200)).body.allocation_run.created).toBe(1);
    expect(
      (await other.admin.get(`/admin/wine_club/allocations?month=${month}`).expect(200)).body.allocations.map((a: { customer_id: string }) => a.customer_id),
    ).toEqual([otherMember.id]);
  });

  it('guards every endpoint with its own scopes', async () => {
    await t.client(null).get('/admin/wine_club/prices').expect(401);
    const none = (await shop.admin.post('/admin/access_tokens', { label: 'no club', tier: 'admin', scopes: ['Shop/customers/read'] }).expect(201)).body
      .access_token.token;
    await t.client(none).get('/admin/wine_club/prices').expect(403);
    const reader = (await shop.admin.post('/admin/access_tokens', { label: 'club reader', tier: 'admin', scopes: ['Shop/wine_club/read'] }).expect(201)).body
      .access_token.token;
    await t.client(reader).get('/admin/wine_club/members').expect(200);
    await t.client(reader).get('/admin/wine_club/allocations').expect(200);
    await t.client(reader).put(`/admin/wine_club/prices/${wine()}`, { price: 1 }).expect(403);
    await t.client(reader).post('/admin/wine_club/allocations', {}).expect(403);
    await t
      .client(shop.storefront_token)
      .get('/admin/wine_club/prices')
      .expect((r) => expect([401, 403]).toContain(r.status));
  });

  it('computes a club price exactly and keeps the tax split', () => {
    expect(clubPrice({ gross: '24.9000', net: '23.0342' }, '19.9')).toEqual({ gross: '19.9000', net: ((19.9 * 23.0342) / 24.9).toFixed(6) });
    expect(clubPrice({ gross: '6.35', net: '6.19' }, '7')).toBeNull();
    expect(clubPrice({ gross: '6.35', net: '6.19' }, undefined)).toBeNull();
    expect(clubPrice({ gross: '0', net: '0' }, '0')).toBeNull();
  });
});
