import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createTestApp, ShopClient, TestApp, TestShop } from '../helpers/test-app.js';
import { CH_ADDRESS, checkoutWith, Ids, importShop } from './checkout.fixture.js';

/** SPEC "Admin: checkouts", marking an order shipped, and Idempotency-Key on admin POSTs. */
describe('admin checkouts', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let ids: Ids;
  const visitor = (): ShopClient => t.client(shop.storefront_token);

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    other = await t.createShop();
    ids = await importShop(shop.admin);
  });
  afterAll(() => t.close());

  async function placed(): Promise<{ token: string; order_id: string; hash: string; order_number: string }> {
    const client = visitor();
    const c = await checkoutWith(client, [[ids.variants['v-juice'], 2]]);
    await client.put(`/checkouts/${c.id}`, { shipping_address: CH_ADDRESS, shipping_method_id: ids.shipping_methods.post }).expect(200);
    const r = (await client.post(`/checkouts/${c.id}/complete`, { payment_type_id: ids.payment_types.invoice, accepted_terms: true }).expect(200)).body
      .checkout;
    return { token: c.id, ...r };
  }

  it('lists summary rows newest first, cursored with the shared pager', async () => {
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await checkoutWith(visitor(), [[ids.variants['v-juice'], i + 1]])).id);
    const first = await shop.admin.get('/admin/checkouts?limit=2').expect(200);
    expect(Object.keys(first.body)).toEqual(['checkouts']);
    expect(first.body.checkouts.map((r: { token: string }) => r.token)).toEqual([made[2], made[1]]);
    expect(first.body.checkouts[0]).toEqual({
      token: made[2],
      email: null,
      currency_code: 'CHF',
      status: 'Checkout',
      total: 19.05,
      line_items_count: 1,
      created_at: expect.any(String),
      updated_at: null,
    });
    const link = first.headers.link as string;
    expect(link).toMatch(/^<http:\/\/[^>]+\/api\/2026-04-01\/admin\/checkouts\?limit=2&page_info=[^>]+>; rel="next"$/);
    const next = link.slice(link.indexOf('/api/2026-04-01') + '/api/2026-04-01'.length, link.indexOf('>'));
    const second = await shop.admin.get(next).expect(200);
    expect(second.body.checkouts[0].token).toBe(made[0]);
    await shop.admin.get('/admin/checkouts?page_info=forged').expect(422);
    await shop.admin.get('/admin/checkouts?limit=abc').expect(422);
    // another shop sees none of them
    expect((await other.admin.get('/admin/checkouts').expect(200)).body.checkouts).toEqual([]);
  });

  it('reads the full checkout; 404 unknown or foreign, 422 malformed token', async () => {
    const client = visitor();
    const c = await checkoutWith(client, [
      [ids.variants['v-wine'], 2],
      [ids.variants['v-juice'], 1],
    ]);
    await client.put(`/checkouts/${c.id}`, { shipping_address: CH_ADDRESS, shipping_method_id: ids.shipping_methods.post }).expect(200);
    const sf = (await client.get(`/checkouts/${c.id}`).expect(200)).body.checkout;
    const res = await shop.admin.get(`/admin/checkouts/${c.id}`).expect(200);
    const a = res.body.checkout;
    expect(a).toEqual({
      token: c.id,
      email: 'anna@example.ch',
      currency_code: 'CHF',
      status: 'Checkout',
      is_completed: false,
      note: null,
      customer_name: 'Anna Muster',
      line_items: sf.line_items,
      totals: {
        subtotal: sf.totals.subtotal,
        tax_amount: sf.totals.tax_amount,
        shipping_amount: 9.5,
        discount: 0,
        total: sf.totals.total,
        currency_code: 'CHF',
        price_includes_tax: true,
      },
      shipping_address: {
        id: null,
        first_name: 'Anna',
        last_name: 'Muster',
        company: null,
        department: null,
        street: 'Bahnhofstrasse 1',
        po_box: null,
        zip_code: '8001',
        location: 'Zürich',
        email: 'anna@example.ch',
        phone_number: null,
        mobile_number: null,
        country_code: 'CH',
        country_name: 'Switzerland',
      },
      billing_address: expect.objectContaining({ first_name: 'Anna', country_code: 'CH' }),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    await shop.admin.get(`/admin/checkouts/${randomUUID()}`).expect(404);
    await other.admin.get(`/admin/checkouts/${c.id}`).expect(404);
    await shop.admin.get('/admin/checkouts/not-a-uuid').expect(422);
  });

  it('PUT edits note and email only; 422 bad email; 409 once completed', async () => {
    const c = await checkoutWith(visitor(), [[ids.variants['v-juice'], 1]]);
    const res = await shop.admin.put(`/admin/checkouts/${c.id}`, { note: 'VIP', email: 'vip@example.com', status: 'Completed' }).expect(200);
    expect(res.body.checkout).toMatchObject({ note: 'VIP', email: 'vip@example.com', status: 'Checkout', is_completed: false });
    expect((await shop.admin.put(`/admin/checkouts/${c.id}`, { email: 'nope' }).expect(422)).body.errors).toContain('email');
    await shop.admin.put(`/admin/checkouts/${c.id}`, { note: 5 }).expect(422);
    await shop.admin.put(`/admin/checkouts/${c.id}`).expect(422);
    await shop.admin.put(`/admin/checkouts/${randomUUID()}`, { note: 'x' }).expect(404);
    await other.admin.put(`/admin/checkouts/${c.id}`, { note: 'x' }).expect(404);
    const p = await placed();
    const done = (await shop.admin.get(`/admin/checkouts/${p.token}`).expect(200)).body.checkout;
    expect(done).toMatchObject({ status: 'Completed', is_completed: true });
    await shop.admin.put(`/admin/checkouts/${p.token}`, { note: 'late' }).expect(409);
  });

  it('marks an order shipped with a tracking URL; the receipt shows it', async () => {
    const p = await placed();
    const url = `/orders/${p.order_id}?hash=${encodeURIComponent(p.hash)}`;
    expect((await visitor().get(url).expect(200)).body.order.tracking_url).toBeNull();
    const res = await shop.admin.post(`/admin/orders/${p.order_id}/fulfillment`, { tracking_url: 'https://track.example/123' }).expect(200);
    expect(res.body.order).toMatchObject({ id: p.order_id, status: 'Shipped', tracking_url: 'https://track.example/123' });
    expect((await visitor().get(url).expect(200)).body.order).toMatchObject({ status: 'Shipped', tracking_url: 'https://track.example/123' });
    expect((await shop.admin.get(`/admin/orders/${p.order_id}`).expect(200)).body.order.number).toBe(p.order_number);
    await shop.admin.post(`/admin/orders/${p.order_id}/fulfillment`, { tracking_url: 'not a url' }).expect(422);
    await shop.admin.post(`/admin/orders/${p.order_id}/fulfillment`, {}).expect(422);
    await shop.admin.post(`/admin/orders/${randomUUID()}/fulfillment`, { tracking_url: 'https://track.example/1' }).expect(404);
    await other.admin.post(`/admin/orders/${p.order_id}/fulfillment`, { tracking_url: 'https://track.example/1' }).expect(404);
    const events = await t.db.query(`SELECT topic FROM outbox_events WHERE tenant_id = $1 AND payload->'order'->>'id' = $2 ORDER BY occurred_at, id`, [
      shop.tenant.id,
      p.order_id,
    ]);
    expect(events.map((e: { topic: string }) => e.topic)).toEqual(['order.placed', 'order.fulfilled', 'order.shipped']);
  });

  it('needs Shop/checkouts/read and Shop/checkouts/write', async () => {
    const c = await checkoutWith(visitor(), [[ids.variants['v-juice'], 1]]);
    const reader = t.client(
      (await shop.admin.post('/admin/access_tokens', { label: 'r', tier: 'admin', scopes: ['Shop/checkouts/read'] }).expect(201)).body.access_token.token,
    );
    const writer = t.client(
      (await shop.admin.post('/admin/access_tokens', { label: 'w', tier: 'admin', scopes: ['Shop/checkouts/write'] }).expect(201)).body.access_token.token,
    );
    await reader.get('/admin/checkouts').expect(200);
    await reader.get(`/admin/checkouts/${c.id}`).expect(200);
    await reader.put(`/admin/checkouts/${c.id}`, { note: 'x' }).expect(403);
    await writer.get('/admin/checkouts').expect(403);
    await writer.put(`/admin/checkouts/${c.id}`, { note: 'x' }).expect(200);
    await shop.storefront.get('/admin/checkouts').expect(401);
    await t.client(null).get('/admin/checkouts').expect(401);
  });

  it('Idempotency-Key on admin POSTs: replayed answer, one row, 422 on reuse with another body, per token', async () => {
    const key = randomUUID();
    const body = { code: 'IDEM', type: 'percent', value: 5 };
    const one = await shop.admin.post('/admin/discount_codes', body).set('Idempotency-Key', key).expect(201);
    const two = await shop.admin.post('/admin/discount_codes', body).set('Idempotency-Key', key).expect(201);
    expect(two.body).toEqual(one.body);
    const same = await shop.admin.post('/admin/discount_codes', { value: 5, type: 'percent', code: 'IDEM' }).set('Idempotency-Key', key).expect(201);
    expect(same.body).toEqual(one.body);
    const reused = await shop.admin
      .post('/admin/discount_codes', { ...body, value: 6 })
      .set('Idempotency-Key', key)
      .expect(422);
    expect(reused.body.code).toBe('idempotency_key_reused');
    const rows = await t.db.query(`SELECT count(*)::int AS n FROM discount_codes WHERE tenant_id = $1 AND code = 'IDEM'`, [shop.tenant.id]);
    expect(rows[0].n).toBe(1);
    // a refusal is replayed as well (422 duplicate code stays 422 with the same text)
    const k2 = randomUUID();
    const dup1 = await shop.admin.post('/admin/discount_codes', body).set('Idempotency-Key', k2).expect(422);
    const dup2 = await shop.admin.post('/admin/discount_codes', body).set('Idempotency-Key', k2).expect(422);
    expect(dup2.body).toEqual(dup1.body);
    // the same key from another shop is another request
    await other.admin.post('/admin/discount_codes', body).set('Idempotency-Key', key).expect(201);
    // fulfillment is an admin POST too
    const p = await placed();
    const fk = randomUUID();
    const f1 = await shop.admin
      .post(`/admin/orders/${p.order_id}/fulfillment`, { tracking_url: 'https://track.example/a' })
      .set('Idempotency-Key', fk)
      .expect(200);
    const f2 = await shop.admin
      .post(`/admin/orders/${p.order_id}/fulfillment`, { tracking_url: 'https://track.example/a' })
      .set('Idempotency-Key', fk)
      .expect(200);
    expect(f2.body).toEqual(f1.body);
    const shipped = await t.db.query(
      `SELECT count(*)::int AS n FROM outbox_events WHERE tenant_id = $1 AND topic = 'order.shipped' AND payload->'order'->>'id' = $2`,
      [shop.tenant.id, p.order_id],
    );
    expect(shipped[0].n).toBe(1);
  });
});
