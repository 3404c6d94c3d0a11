import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, ShopClient, TestApp, TestShop } from '../helpers/test-app.js';
import { CH_ADDRESS, checkoutWith, Ids, importShop } from './checkout.fixture.js';
import { register, signIn } from './customers.helpers.js';

/** Issue 13 on the storefront: the test payment provider, disabled shoppers, checkout ownership, links and caches. */

const accept = { accepted_terms: true, age_confirmed: true };

async function ready(client: ShopClient, ids: Ids, lines: Array<[string, number]>) {
  const c = await checkoutWith(client, lines);
  await client.put(`/checkouts/${c.id}`, { shipping_address: CH_ADDRESS, shipping_method_id: ids.shipping_methods.post }).expect(200);
  return c;
}

describe('security: paying without paying (production mode, no PAYMENT_TEST_PROVIDER)', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;

  beforeAll(async () => {
    t = await createTestApp({
      config: { NODE_ENV: 'production', APP_SECRET: 'a-private-secret-for-the-production-test', SMTP_URL: 'smtp://127.0.0.1:9', PAYMENT_TEST_PROVIDER: false },
    });
    shop = await t.createShop();
    ids = await importShop(shop.admin);
  });
  afterAll(() => t.close());

  it('completing with a redirect payment type is 422 payment_type_unavailable, and nothing is placed', async () => {
    const client = t.client(shop.storefront_token);
    const c = await ready(client, ids, [[ids.variants['v-juice'], 1]]);
    const res = await client
      .post(`/checkouts/${c.id}/complete`, { payment_type_id: ids.payment_types.card, return_url: 'https://shop.example/back', ...accept })
      .expect(422);
    expect(res.body).toEqual({ errors: expect.any(String), code: 'payment_type_unavailable' });
    expect((await client.get(`/checkouts/${c.id}`).expect(200)).body.checkout.is_completed).toBe(false);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM orders WHERE tenant_id = $1`, [shop.tenant.id]);
    expect(n).toBe(0);
  });

  it('the test payment page does not exist: GET and POST are 404, and an order placed by the test provider earlier cannot be paid', async () => {
    const client = t.client(shop.storefront_token);
    const c = await ready(client, ids, [[ids.variants['v-juice'], 1]]);
    const placed = (await client.post(`/checkouts/${c.id}/complete`, { payment_type_id: ids.payment_types.invoice, ...accept }).expect(200)).body.checkout;
    // as if the order had been placed through the test provider (an environment where it was on)
    await t.db.query(`UPDATE orders SET payment_provider = 'test' WHERE id = $1`, [placed.order_id]);
    const hash = encodeURIComponent(placed.hash);
    const page = await t.http().get(`/storefront/payments/test/${placed.order_id}?hash=${hash}`).expect(404);
    expect(page.body).toEqual({ errors: expect.any(String) });
    await t.http().post(`/storefront/payments/test/${placed.order_id}/pay?hash=${hash}`).expect(404);
    const [order] = await t.db.query(`SELECT payment_status FROM orders WHERE id = $1`, [placed.order_id]);
    expect(order.payment_status).toBe('pending');
  });
});

describe('security: storefront with the test provider on (tests and demo)', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;

  beforeAll(async () => {
    t = await createTestApp({ config: { PUBLIC_URL: 'https://shop.example.com' } });
    shop = await t.createShop();
    ids = await importShop(shop.admin);
  });
  afterAll(() => t.close());

  it('the test page changes state only on POST; payment_url uses PUBLIC_URL; the redirect goes to the validated return_url only', async () => {
    const client = t.client(shop.storefront_token);
    const c = await ready(client, ids, [[ids.variants['v-juice'], 1]]);
    const r = (
      await client
        .post(`/checkouts/${c.id}/complete`, { payment_type_id: ids.payment_types.card, return_url: 'https://shop.example/thanks', ...accept })
        .expect(200)
    ).body.checkout;
    expect(r.payment_url).toBe(`https://shop.example.com/storefront/payments/test/${r.order_id}?hash=${encodeURIComponent(r.hash)}`);
    const hash = encodeURIComponent(r.hash);
    const page = await t.http().get(`/storefront/payments/test/${r.order_id}?hash=${hash}`).expect(200);
    expect(page.text).toContain('method="post"');
    // GETs of the action URLs (a prefetch, a crawler, a link) change nothing
    for (const action of ['pay', 'cancel']) {
      const res = await t.http().get(`/storefront/payments/test/${r.order_id}/${action}?hash=${hash}`);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    const status = async () => (await t.db.query(`SELECT payment_status FROM orders WHERE id = $1`, [r.order_id]))[0].payment_status;
    expect(await status()).toBe('pending');
    // a return target smuggled in the request is ignored: the redirect goes to the checkout's return_url
    const pay = await t.http().post(`/storefront/payments/test/${r.order_id}/pay?hash=${hash}&return_url=https://evil.example/`).expect(303);
    expect(new URL(pay.headers.location).origin).toBe('https://shop.example');
    expect(await status()).toBe('paid');
  });

  it('the Link header of a cursored list uses PUBLIC_URL, not the request Host', async () => {
    for (let i = 0; i < 3; i++) await shop.admin.post('/admin/collections', { title: `c${i}` }).expect(201);
    const res = await shop.admin.get('/admin/collections?limit=1').set('Host', 'evil.example').expect(200);
    expect(res.headers.link).toMatch(/^<https:\/\/shop\.example\.com\/api\/2026-04-01\/admin\/collections\?/);
  });

  it('a disabled shopper reads its profile but is 403 everywhere else (customer tier, cart, wishlist, checkout)', async () => {
    const visitor = t.client(shop.storefront_token);
    const profile = await register(visitor, 'disabled@example.com');
    const { me } = await signIn(t, visitor, 'disabled@example.com');
    await me.post('/cart/items', { article_id: ids.variants['v-juice'], quantity: 1 }).expect(200);
    await shop.admin.put(`/admin/customers/${profile.id}`, { is_active: false }).expect(200);

    expect((await me.get('/customers/me').expect(200)).body.customer.is_active).toBe(false);
    const refused = [
      await me.get('/customers/me/addresses'),
      await me.post('/customers/me/addresses', { street: 'x' }),
      await me.get('/customers/me/orders'),
      await me.get('/cart'),
      await me.post('/cart/items', { article_id: ids.variants['v-juice'], quantity: 1 }),
      await me.get('/wishlist'),
      await me.post('/checkouts'),
      await me.get('/products'),
    ];
    for (const res of refused) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ errors: expect.any(String), code: 'account_disabled' });
    }
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM customer_addresses WHERE customer_id = $1`, [profile.id]);
    expect(n).toBe(0);
    // signing out still works
    await me.delete('/customer/auth/token').expect(204);
  });

  it("a shopper cannot complete another visitor's or shopper's checkout (404), and addresses go to the checkout owner only", async () => {
    const a = t.client(shop.storefront_token);
    await register(a, 'owner@example.com');
    const owner = await signIn(t, a, 'owner@example.com');
    const b = t.client(shop.storefront_token);
    const intruderProfile = await register(b, 'intruder@example.com');
    const intruder = await signIn(t, b, 'intruder@example.com');

    // the owner's checkout (shopper) and an anonymous visitor's checkout
    const mine = await ready(owner.me, ids, [[ids.variants['v-juice'], 1]]);
    const anon = await ready(t.client(shop.storefront_token), ids, [[ids.variants['v-juice'], 1]]);
    for (const c of [mine, anon]) {
      await intruder.me.post(`/checkouts/${c.id}/complete`, { payment_type_id: ids.payment_types.invoice, ...accept }).expect(404);
    }
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM customer_addresses WHERE customer_id = $1`, [intruderProfile.id]);
    expect(n).toBe(0);
    // the owner completes; the address is saved to the owner's account
    const done = (await owner.me.post(`/checkouts/${mine.id}/complete`, { payment_type_id: ids.payment_types.invoice, ...accept }).expect(200)).body.checkout;
    const [order] = await t.db.query(`SELECT customer_id FROM orders WHERE id = $1`, [done.order_id]);
    const [me] = await t.db.query(`SELECT id FROM customers WHERE tenant_id = $1 AND email = 'owner@example.com'`, [shop.tenant.id]);
    expect(order.customer_id).toBe(me.id);
    expect((await owner.me.get('/customers/me/addresses').expect(200)).body.addresses).toHaveLength(1);
  });

  it('completing a checkout saves no address beyond the saved-address cap', async () => {
    const v = t.client(shop.storefront_token);
    const p = await register(v, 'full@example.com');
    const s = await signIn(t, v, 'full@example.com');
    await t.db.query(`INSERT INTO customer_addresses (tenant_id, customer_id, street) SELECT $1, $2, 'street ' || g FROM generate_series(1, 100) g`, [
      shop.tenant.id,
      p.id,
    ]);
    const c = await ready(s.me, ids, [[ids.variants['v-juice'], 1]]);
    await s.me.post(`/checkouts/${c.id}/complete`, { payment_type_id: ids.payment_types.invoice, ...accept }).expect(200);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM customer_addresses WHERE customer_id = $1`, [p.id]);
    expect(n).toBe(100);
  });

  it('inventory_level.updated is emitted once per stock movement (admin adjust and order placement)', async () => {
    const count = async () =>
      (await t.db.query(`SELECT count(*)::int AS n FROM outbox_events WHERE tenant_id = $1 AND topic = 'inventory_level.updated'`, [shop.tenant.id]))[0]
        .n as number;
    const before = await count();
    await shop.admin
      .post('/admin/inventory_levels/adjust', { inventory_item_id: ids.variants['v-wine'], location_id: ids.locations.cellar, available_adjustment: 2 })
      .expect(200);
    expect(await count()).toBe(before + 1);
    const client = t.client(shop.storefront_token);
    const c = await ready(client, ids, [[ids.variants['v-wine'], 1]]);
    await client.post(`/checkouts/${c.id}/complete`, { payment_type_id: ids.payment_types.invoice, ...accept }).expect(200);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM stock_movements WHERE tenant_id = $1 AND reason LIKE 'order %'`, [shop.tenant.id]);
    expect(await count()).toBe(before + 1 + n);
  });

  it('factsheet responses vary by what selects their content', async () => {
    const res = await t.http().get(`/storefront/factsheets/${ids.variants['v-wine']}.pdf`).set('Authorization', `Bearer ${shop.storefront_token}`).expect(200);
    expect(res.headers.vary).toMatch(/Accept-Language/);
    expect(res.headers.vary).toMatch(/Authorization/);
  });

  it('a JSON array where an object is expected, and a PUT without a body, are 422 and change nothing', async () => {
    const client = t.client(shop.storefront_token);
    const c = await ready(client, ids, [[ids.variants['v-juice'], 1]]);
    const before = (await client.get(`/checkouts/${c.id}`).expect(200)).body.checkout;
    for (const body of [{ shipping_address: [] }, { billing_address: [] }, { shipping_address: [CH_ADDRESS] }, []]) {
      const res = await client.put(`/checkouts/${c.id}`, body as object).expect(422);
      expect(res.body).toEqual({ errors: expect.any(String) });
    }
    await client.put(`/checkouts/${c.id}`).expect(422);
    expect((await client.get(`/checkouts/${c.id}`).expect(200)).body.checkout).toEqual(before);
  });

  it('an upper-case id in a path is the same resource as in lower case', async () => {
    const id = ids.products['p-wine'];
    const lower = await t.client(shop.storefront_token).get(`/products/${id}`).expect(200);
    const upper = await t.client(shop.storefront_token).get(`/products/${id.toUpperCase()}`).expect(200);
    expect(upper.body.product.id).toBe(lower.body.product.id);
  });
});
