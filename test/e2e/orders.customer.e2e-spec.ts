import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ShopClient, TestApp, TestShop } from '../helpers/test-app.js';
import { CH_ADDRESS, checkoutWith, Ids, importShop } from './checkout.fixture.js';
import { createCustomersApp, register, signIn } from './customers.helpers.js';
import { placeOrder } from './orders.fixture.js';

/** GET /customers/me/orders and /customers/me/orders/{id}: the signed-in shopper's own orders (SPEC tier C). */
describe('customer orders', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;
  let ana: ShopClient;
  let ben: ShopClient;
  const placed: Array<{ order_id: string; order_number: string; hash: string }> = [];

  async function place(client: ShopClient, lines: Array<[string, number]>) {
    const c = await checkoutWith(client, lines);
    await client.put(`/checkouts/${c.id}`, { shipping_address: CH_ADDRESS, shipping_method_id: ids.shipping_methods.post }).expect(200);
    const res = await client
      .post(`/checkouts/${c.id}/complete`, { payment_type_id: ids.payment_types.invoice, accepted_terms: true, age_confirmed: true })
      .expect(200);
    return res.body.checkout as { order_id: string; order_number: string; hash: string };
  }

  beforeAll(async () => {
    ({ t } = await createCustomersApp());
    shop = await t.createShop();
    ids = await importShop(shop.admin);
    await register(shop.storefront, 'ana@example.test');
    await register(shop.storefront, 'ben@example.test');
    ana = (await signIn(t, shop.storefront, 'ana@example.test')).me;
    ben = (await signIn(t, shop.storefront, 'ben@example.test')).me;
    for (let i = 1; i <= 3; i++) placed.push(await place(ana, [[ids.variants['v-juice'], i]]));
    await place(ben, [[ids.variants['v-wine'], 1]]);
    // a guest order belongs to nobody
    await place(t.client(shop.storefront_token), [[ids.variants['v-juice'], 1]]);
  });
  afterAll(() => t.close());

  it("lists the shopper's orders newest first as summaries, without Link header", async () => {
    const res = await ana.get('/customers/me/orders').expect(200);
    expect(Object.keys(res.body)).toEqual(['orders']);
    expect(res.headers.link).toBeUndefined();
    const orders = res.body.orders as Array<Record<string, unknown>>;
    expect(orders.map((o) => o.id)).toEqual([...placed].reverse().map((p) => p.order_id));
    expect(orders[0]).toEqual({
      id: placed[2].order_id,
      number: placed[2].order_number,
      status: 'Open',
      date: expect.any(String),
      total: expect.any(Number),
      line_items: 1,
    });
  });

  it("names each summary's currency only when asked with include=currency (SPEC leaves it out of the summary)", async () => {
    const orders = (await ana.get('/customers/me/orders?include=currency').expect(200)).body.orders as Array<Record<string, unknown>>;
    expect(orders).toHaveLength(3);
    for (const o of orders) expect(Object.keys(o)).toEqual(['id', 'number', 'status', 'date', 'total', 'currency', 'line_items']);
    const [one] = await t.db.query(`SELECT currency_code FROM orders WHERE id = $1`, [orders[0].id]);
    expect(orders[0].currency).toBe(one.currency_code);
    const plain = (await ana.get('/customers/me/orders').expect(200)).body.orders as Array<Record<string, unknown>>;
    for (const o of plain) expect(o).not.toHaveProperty('currency');
  });

  it('pages with limit and offset; a page shorter than limit is the last', async () => {
    const first = (await ana.get('/customers/me/orders?limit=2').expect(200)).body.orders;
    const second = (await ana.get('/customers/me/orders?limit=2&offset=2').expect(200)).body.orders;
    expect(first).toHaveLength(2);
    expect(second).toHaveLength(1);
    expect([...first, ...second].map((o: { id: string }) => o.id)).toEqual([...placed].reverse().map((p) => p.order_id));
    expect((await ana.get('/customers/me/orders?limit=1000').expect(200)).body.orders).toHaveLength(3);
    await ana.get('/customers/me/orders?offset=-1').expect(422);
    await ana.get('/customers/me/orders?limit=abc').expect(422);
  });

  it("reads one order in full; another shopper's or a guest order is 404", async () => {
    const res = await ana.get(`/customers/me/orders/${placed[0].order_id}`).expect(200);
    expect(res.body.order).toEqual(
      expect.objectContaining({
        id: placed[0].order_id,
        number: placed[0].order_number,
        status: 'Open',
        line_items: expect.any(Array),
        total: expect.any(Number),
      }),
    );
    const guest = await t.client(shop.storefront_token).get(`/orders/${placed[0].order_id}?hash=${placed[0].hash}`).expect(200);
    expect(res.body.order).toEqual(guest.body.order);
    await ben.get(`/customers/me/orders/${placed[0].order_id}`).expect(404);
    const bens = (await ben.get('/customers/me/orders').expect(200)).body.orders;
    expect(bens).toHaveLength(1);
    expect(bens.map((o: { id: string }) => o.id)).not.toContain(placed[0].order_id);
    await ana.get('/customers/me/orders/00000000-0000-4000-8000-000000000000').expect(404);
    await ana.get('/customers/me/orders/not-a-uuid').expect(422);
  });

  it('needs a shopper token: none, or a storefront or admin token, is 401', async () => {
    await t.client(null).get('/customers/me/orders').expect(401);
    await t.client(shop.storefront_token).get('/customers/me/orders').expect(401);
    await t.client(shop.admin_token).get('/customers/me/orders').expect(401);
  });

  it('refuses a disabled account with 403 account_disabled', async () => {
    const [row] = await t.db.query(`SELECT id FROM customers WHERE tenant_id = $1 AND email = 'ben@example.test'`, [shop.tenant.id]);
    await shop.admin.put(`/admin/customers/${row.id}`, { is_active: false }).expect(200);
    const res = await ben.get('/customers/me/orders').expect(403);
    expect(res.body).toEqual({ errors: expect.any(String), code: 'account_disabled' });
    await ben.get('/customers/me').expect(200);
  });

  it("shows financial_status, fulfillment_status, cancellation and the refunds (amounts only) of the shopper's orders (issue 17)", async () => {
    const p = await placeOrder(t, shop, ids, [[ids.variants['v-juice'], 2]], { paid: true, client: ana });
    const line = (await shop.admin.get(`/admin/orders/${p.order_id}`).expect(200)).body.order.line_items[0];
    await shop.admin.post(`/admin/orders/${p.order_id}/fulfillments`, { lines: [{ line_id: line.id, quantity: 1 }] }).expect(201);
    await shop.admin.post(`/admin/orders/${p.order_id}/refunds`, { amount: 1.5, note: 'staff only' }).expect(201);
    const mine = (await ana.get(`/customers/me/orders/${p.order_id}`).expect(200)).body.order;
    expect(mine).toMatchObject({
      financial_status: 'partially_refunded',
      fulfillment_status: 'partial',
      cancelled_at: null,
      cancel_reason: null,
      refunded_amount: 1.5,
    });
    expect(mine.refunds).toEqual([{ created_at: expect.any(String), amount: 1.5 }]);
    for (const hidden of ['transactions', 'note', 'tags', 'fulfillments']) expect(mine).not.toHaveProperty(hidden);
    const q = await placeOrder(t, shop, ids, [[ids.variants['v-juice'], 1]], { client: ana });
    await shop.admin.post(`/admin/orders/${q.order_id}/cancel`, { reason: 'customer' }).expect(200);
    const cancelled = (await ana.get(`/customers/me/orders/${q.order_id}`).expect(200)).body.order;
    expect(cancelled).toMatchObject({ status: 'Cancelled', cancel_reason: 'customer', cancelled_at: expect.any(String), financial_status: 'voided' });
    const summary = (await ana.get('/customers/me/orders?limit=1').expect(200)).body.orders[0];
    expect(summary).toMatchObject({ id: q.order_id, status: 'Cancelled' });
  });
  it("placing an order empties its owner's cart and no one else's (issue 34: the placement's statement empties it)", async () => {
    const guest = t.client(shop.storefront_token);
    await register(shop.storefront, 'cleo@example.test');
    const cleo = (await signIn(t, shop.storefront, 'cleo@example.test')).me;
    await guest.post('/cart/items', { article_id: ids.variants['v-wine'], quantity: 1 }).expect(200);
    await cleo.post('/cart/items', { article_id: ids.variants['v-wine'], quantity: 2 }).expect(200);
    await place(ana, [[ids.variants['v-juice'], 1]]);
    const items = async (c: ShopClient) => (await c.get('/cart').expect(200)).body.cart.items as unknown[];
    expect(await items(ana)).toEqual([]);
    expect(await items(cleo)).toHaveLength(1);
    expect(await items(guest)).toHaveLength(1);
    // the guest's order empties the guest's cart; the signed-in shopper's stays
    await place(guest, []);
    expect(await items(guest)).toEqual([]);
    expect(await items(cleo)).toEqual([expect.objectContaining({ quantity: 2 })]);
  });
});
