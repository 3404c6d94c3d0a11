import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { Ids, importShop } from './checkout.fixture.js';
import { abandon, levels, pay, placeOrder, total, waitFor } from './orders.fixture.js';

/** Issue 17's payment lifecycle: capture on confirmation, expiry of unconfirmed redirect payments, abandoned payments. */
describe('order payments: capture, expiry and abandonment', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;

  beforeAll(async () => {
    // redirect payments expire 3 s after placement; the job looks every 100 ms
    t = await createTestApp({ config: { PAYMENT_PENDING_TTL_MINUTES: 0.05, PAYMENT_EXPIRY_CHECK_MS: 100 } });
    shop = await t.createShop();
    ids = await importShop(shop.admin);
    await shop.admin.post('/admin/discount_codes', { code: 'SOLO', type: 'value', value: 2 }).expect(201);
  });
  afterAll(() => t.close());

  const order = async (id: string) => (await shop.admin.get(`/admin/orders/${id}`).expect(200)).body.order;

  it('an unconfirmed redirect payment expires: order cancelled (payment_expired), stock and single-use code released, authorization voided, order.cancelled', async () => {
    const wine = ids.variants['v-wine'];
    const start = total(await levels(shop, wine));
    const invoice = await placeOrder(t, shop, ids, [[wine, 1]]);
    const paid = await placeOrder(t, shop, ids, [[wine, 1]], { paid: true });
    const card = await placeOrder(t, shop, ids, [[wine, 2]], { pay: 'card', code: 'SOLO' });
    // what the card order took (read from the ledger and the outbox: the job may already have released it on a slow machine)
    const taken = await t.db.query(`SELECT -sum(delta)::float AS q FROM stock_movements WHERE tenant_id = $1 AND reason = $2`, [
      shop.tenant.id,
      `order ${card.order_id}`,
    ]);
    expect(taken[0].q).toBe(2);
    const redeemed = await t.db.query(
      `SELECT count(*)::int AS n FROM outbox_events WHERE tenant_id = $1 AND topic = 'discount_code.redeemed' AND payload->>'order_id' = $2`,
      [shop.tenant.id, card.order_id],
    );
    expect(redeemed[0].n).toBe(1);

    const expired = await waitFor(
      () => order(card.order_id),
      (o) => o.status === 'Cancelled',
      20_000,
    );
    expect(expired).toMatchObject({ status: 'Cancelled', cancel_reason: 'payment_expired', financial_status: 'voided', payment_status: 'cancelled' });
    expect(expired.transactions.map((x: { kind: string; status: string }) => [x.kind, x.status])).toEqual([
      ['authorization', 'failed'],
      ['void', 'succeeded'],
    ]);
    expect(total(await levels(shop, wine))).toBe(start - 2);
    expect((await t.db.query(`SELECT is_used FROM discount_codes WHERE tenant_id = $1 AND code = 'SOLO'`, [shop.tenant.id]))[0].is_used).toBe(false);
    const [ev] = await t.db.query(`SELECT payload FROM outbox_events WHERE tenant_id = $1 AND topic = 'order.cancelled' AND payload->'order'->>'id' = $2`, [
      shop.tenant.id,
      card.order_id,
    ]);
    expect(ev.payload.order).toMatchObject({ reason: 'payment_expired', discount_code_released: true });
    // invoices do not expire, and a paid order stays paid
    await new Promise((r) => setTimeout(r, 300));
    expect(await order(invoice.order_id)).toMatchObject({ status: 'Open', financial_status: 'pending' });
    expect(await order(paid.order_id)).toMatchObject({ status: 'Open', financial_status: 'paid' });
    // a confirmation after the expiry changes nothing
    const late = await pay(t, card);
    expect(late.status).toBe(303);
    expect(new URL(late.headers.location).searchParams.get('payment_status')).toBe('cancelled');
    expect(await order(card.order_id)).toMatchObject({ status: 'Cancelled', financial_status: 'voided' });
    expect((await order(card.order_id)).transactions.some((x: { kind: string }) => x.kind === 'capture')).toBe(false);
  });

  it('an authorization whose provider is no longer registered still expires (voided without a provider call) and can be cancelled', async () => {
    const wine = ids.variants['v-wine'];
    const start = total(await levels(shop, wine));
    const [expiring, cancelled] = [await placeOrder(t, shop, ids, [[wine, 1]], { pay: 'card' }), await placeOrder(t, shop, ids, [[wine, 1]], { pay: 'card' })];
    // the shop's configuration changed since: the provider that took these authorizations is gone
    await t.db.query(`UPDATE orders SET payment_provider = 'retired-psp', payment_kind = 'retired' WHERE tenant_id = $1 AND id = ANY($2::uuid[])`, [
      shop.tenant.id,
      [expiring.order_id, cancelled.order_id],
    ]);
    const now = await shop.admin.post(`/admin/orders/${cancelled.order_id}/cancel`, { reason: 'customer' }).expect(200);
    expect(now.body.order).toMatchObject({ status: 'Cancelled', financial_status: 'voided' });
    const expired = await waitFor(
      () => order(expiring.order_id),
      (o) => o.status === 'Cancelled',
      20_000,
    );
    expect(expired).toMatchObject({ cancel_reason: 'payment_expired', financial_status: 'voided' });
    for (const o of [expired, now.body.order]) {
      expect(o.transactions.map((x: { kind: string; status: string; reference: string | null }) => [x.kind, x.status])).toEqual([
        ['authorization', 'failed'],
        ['void', 'succeeded'],
      ]);
    }
    expect(total(await levels(shop, wine))).toBe(start);
  });

  it('a cancelled redirect payment cancels the order at once and releases its stock; the receipt says so', async () => {
    const wine = ids.variants['v-wine'];
    const start = total(await levels(shop, wine));
    const p = await placeOrder(t, shop, ids, [[wine, 3]], { pay: 'card' });
    const res = await abandon(t, p);
    expect(res.status).toBe(303);
    const o = await order(p.order_id);
    expect(o).toMatchObject({ status: 'Cancelled', cancel_reason: 'payment_cancelled', financial_status: 'voided' });
    expect(total(await levels(shop, wine))).toBe(start);
    const guest = (
      await t
        .client(shop.storefront_token)
        .get(`/orders/${p.order_id}?hash=${encodeURIComponent(p.hash)}`)
        .expect(200)
    ).body.order;
    expect(guest).toMatchObject({
      status: 'Cancelled',
      payment_status: 'cancelled',
      financial_status: 'voided',
      cancel_reason: 'payment_cancelled',
      cancelled_at: expect.any(String),
    });
    const events = await t.db.query(`SELECT topic FROM outbox_events WHERE tenant_id = $1 AND payload->'order'->>'id' = $2 ORDER BY occurred_at, id`, [
      shop.tenant.id,
      p.order_id,
    ]);
    expect(events.map((e: { topic: string }) => e.topic)).toEqual(['order.placed', 'order.cancelled']);
  });

  it('a confirmed payment is captured through the provider: financial_status paid, a capture transaction, order.paid', async () => {
    const p = await placeOrder(t, shop, ids, [[ids.variants['v-juice'], 1]], { pay: 'card' });
    expect(await order(p.order_id)).toMatchObject({
      financial_status: 'pending',
      transactions: [expect.objectContaining({ kind: 'authorization', status: 'pending' })],
    });
    await pay(t, p);
    await pay(t, p); // a second confirmation captures nothing more
    const o = await order(p.order_id);
    expect(o).toMatchObject({ financial_status: 'paid', payment_status: 'paid' });
    expect(o.transactions.filter((x: { kind: string }) => x.kind === 'capture')).toEqual([
      expect.objectContaining({ amount: o.total, status: 'succeeded', reference: `test_capture_${p.order_id}` }),
    ]);
    const paidEvents = await t.db.query(
      `SELECT count(*)::int AS n FROM outbox_events WHERE tenant_id = $1 AND topic = 'order.paid' AND payload->'order'->>'id' = $2`,
      [shop.tenant.id, p.order_id],
    );
    expect(paidEvents[0].n).toBe(1);
  });
});
