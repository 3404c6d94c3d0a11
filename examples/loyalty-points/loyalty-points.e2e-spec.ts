import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { inTransaction, RequestContext } from 'vinoshop-commerce';
import { createTestApp, DomainEvents, TestApp, TestShop } from 'vinoshop-commerce/testing';
import { loyaltyPointsExtension } from './loyalty-points.module.js';
import { wholeUnits } from './loyalty-points.service.js';

async function waitFor<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('example extension: loyalty points', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let customerId: string;

  beforeAll(async () => {
    // the extension brings its module, entity and migration; the service is otherwise unchanged
    t = await createTestApp({ ...loyaltyPointsExtension, config: { WEBHOOK_POLL_MS: 50 } });
    shop = await t.createShop();
    other = await t.createShop();
    customerId = (await shop.admin.post('/admin/customers', { email: 'vera@example.com' }).expect(201)).body.customer.id;
  });
  afterAll(() => t.close());

  /** Checkout does not exist yet: emit `order.placed` as it will, inside the order's transaction. */
  const placeOrder = (s: TestShop, order: Record<string, unknown>, rollback = false) =>
    inTransaction(RequestContext.forTenant(s.tenant.id), t.db, async (tx) => {
      const e = await t.get(DomainEvents).emit(tx, 'order.placed', { order });
      if (rollback) throw new Error('payment declined');
      return e;
    });
  const points = async (s: TestShop, id: string) =>
    (await s.admin.get(`/admin/loyalty/customers/${id}/points`).expect(200)).body.loyalty_points.points as number;
  const settled = async (eventId: string) =>
    waitFor(
      async () => (await t.db.query(`SELECT status FROM event_handler_jobs WHERE event_id = $1`, [eventId]))[0]?.status,
      (s) => s === 'done',
    );

  it('ran its own migration', async () => {
    expect(await t.db.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'loyalty_point_entries'`)).toHaveLength(1);
  });

  it('starts at zero points, enveloped', async () => {
    const res = await shop.admin.get(`/admin/loyalty/customers/${customerId}/points`).expect(200);
    expect(res.body).toEqual({ loyalty_points: { customer_id: customerId, points: 0 } });
  });

  it('earns 1 point per whole unit of the order total on order.placed', async () => {
    await settled((await placeOrder(shop, { id: 'order-1', customer_id: customerId, total: '42.90', currency: 'CHF' })).id);
    expect(await points(shop, customerId)).toBe(42);
    await settled((await placeOrder(shop, { id: 'order-2', customer_id: customerId, total: 10, currency: 'CHF' })).id);
    expect(await points(shop, customerId)).toBe(52);
  });

  it('earns nothing for a rolled-back order, a replayed order, or a guest order', async () => {
    await expect(placeOrder(shop, { id: 'order-3', customer_id: customerId, total: '500.00' }, true)).rejects.toThrow('payment declined');
    await settled((await placeOrder(shop, { id: 'order-1', customer_id: customerId, total: '42.90' })).id);
    await settled((await placeOrder(shop, { id: 'order-4', customer_id: null, total: '80.00' })).id);
    await new Promise((r) => setTimeout(r, 100));
    expect(await points(shop, customerId)).toBe(52);
  });

  it('lists the entries with the shared cursor', async () => {
    const first = await shop.admin.get(`/admin/loyalty/customers/${customerId}/points/entries?limit=1`).expect(200);
    expect(first.body.entries).toEqual([{ id: expect.any(String), order_id: 'order-2', points: 10, created_at: expect.any(String) }]);
    const link = first.headers.link as string;
    expect(link).toContain('rel="next"');
    const next = new URL(link.slice(1, link.indexOf('>')));
    const second = await shop.admin.get(`${next.pathname.replace('/api/2026-04-01', '')}${next.search}`).expect(200);
    expect(second.body.entries.map((e: { order_id: string }) => e.order_id)).toEqual(['order-1']);
  });

  it('keeps shops apart and guards with its own scope', async () => {
    // another shop's order naming this customer earns nothing, and this customer is unknown there
    await settled((await placeOrder(other, { id: 'order-9', customer_id: customerId, total: '99.00' })).id);
    expect(await points(shop, customerId)).toBe(52);
    await other.admin.get(`/admin/loyalty/customers/${customerId}/points`).expect(404);
    await shop.admin.get('/admin/loyalty/customers/00000000-0000-4000-8000-000000000000/points').expect(404);
    await shop.admin.get('/admin/loyalty/customers/nope/points').expect(422);
    await t.client(null).get(`/admin/loyalty/customers/${customerId}/points`).expect(401);
    const token = (await shop.admin.post('/admin/access_tokens', { label: 'no loyalty', tier: 'admin', scopes: ['Shop/customers/read'] }).expect(201)).body
      .access_token.token;
    await t.client(token).get(`/admin/loyalty/customers/${customerId}/points`).expect(403);
    const reader = (await shop.admin.post('/admin/access_tokens', { label: 'loyalty', tier: 'admin', scopes: ['Shop/loyalty/read'] }).expect(201)).body
      .access_token.token;
    expect((await t.client(reader).get(`/admin/loyalty/customers/${customerId}/points`).expect(200)).body.loyalty_points.points).toBe(52);
  });

  it('counts whole units exactly', () => {
    expect([wholeUnits('42.90'), wholeUnits(42.999999), wholeUnits('7'), wholeUnits(0.3), wholeUnits('abc'), wholeUnits(undefined)]).toEqual([
      42, 42, 7, 0, 0, 0,
    ]);
  });
});
