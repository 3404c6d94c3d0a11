import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PaymentExpiryJob } from '../../src/checkout/payments/payment-expiry.job.js';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { Ids, importShop } from './checkout.fixture.js';
import { levels, pay, placeOrder, Placed, total } from './orders.fixture.js';

interface OrderRow {
  status: string;
  financial_status: string;
  paid: number;
  refunded: number;
  captures: number;
  refunds: number;
  voids: number;
  restocked: number;
}

async function state(t: TestApp, shop: TestShop, orderId: string): Promise<OrderRow> {
  const [row] = await t.db.query(
    `SELECT o.status, o.financial_status, o.paid_amount::float AS paid, o.refunded_amount::float AS refunded,
       (SELECT count(*)::int FROM order_transactions x WHERE x.tenant_id = o.tenant_id AND x.order_id = o.id AND x.kind = 'capture' AND x.status = 'succeeded') AS captures,
       (SELECT count(*)::int FROM order_transactions x WHERE x.tenant_id = o.tenant_id AND x.order_id = o.id AND x.kind = 'refund' AND x.status = 'succeeded') AS refunds,
       (SELECT count(*)::int FROM order_transactions x WHERE x.tenant_id = o.tenant_id AND x.order_id = o.id AND x.kind = 'void' AND x.status = 'succeeded') AS voids,
       (SELECT coalesce(sum(l.restocked_quantity), 0)::float FROM order_lines l WHERE l.tenant_id = o.tenant_id AND l.order_id = o.id) AS restocked
     FROM orders o WHERE o.tenant_id = $1 AND o.id = $2`,
    [shop.tenant.id, orderId],
  );
  return row as OrderRow;
}

/** Issue 17 under parallel requests (like CONTRACT 5), each checked in the database afterwards. */
describe('order lifecycle concurrency', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    ids = await importShop(shop.admin);
  });
  afterAll(() => t.close());

  it('cancel racing a payment confirmation: one outcome per order, and stock and money agree with it', async () => {
    const wine = ids.variants['v-wine'];
    const start = total(await levels(shop, wine));
    const orders: Placed[] = [];
    for (let i = 0; i < 8; i++) orders.push(await placeOrder(t, shop, ids, [[wine, 2]], { pay: 'card' }));
    expect(total(await levels(shop, wine))).toBe(start - 16);
    const results = await Promise.all(orders.flatMap((p) => [shop.admin.post(`/admin/orders/${p.order_id}/cancel`, { reason: 'race' }), pay(t, p)]));
    for (let i = 0; i < orders.length; i++) {
      expect(results[2 * i].status).toBe(200); // the cancel always wins or refunds what was just paid
      expect(results[2 * i + 1].status).toBe(303);
      const s = await state(t, shop, orders[i].order_id);
      expect(s.status).toBe('Cancelled');
      expect(s.restocked).toBe(2);
      if (s.captures === 1) {
        // paid first: the cancel refunded exactly what was paid
        expect(s).toMatchObject({ financial_status: 'refunded', refunds: 1, voids: 0 });
        expect(s.refunded).toBe(s.paid);
      } else {
        // cancelled first: the authorization was voided and the late confirmation changed nothing
        expect(s).toMatchObject({ financial_status: 'voided', captures: 0, refunds: 0, voids: 1, paid: 0, refunded: 0 });
      }
    }
    expect(total(await levels(shop, wine))).toBe(start);
  });

  it('two refunds racing for the last refundable amount: one succeeds, the others 422 refund_exceeds_paid', async () => {
    const p = await placeOrder(t, shop, ids, [[ids.variants['v-juice'], 4]], { paid: true });
    const o = (await shop.admin.get(`/admin/orders/${p.order_id}`).expect(200)).body.order;
    await shop.admin.post(`/admin/orders/${p.order_id}/refunds`, { amount: Number((o.total - 1).toFixed(2)) }).expect(201);
    const results = await Promise.all(Array.from({ length: 6 }, () => shop.admin.post(`/admin/orders/${p.order_id}/refunds`, { amount: 1 })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(5);
    for (const r of refused) expect([r.status, r.body.code]).toEqual([422, 'refund_exceeds_paid']);
    const s = await state(t, shop, p.order_id);
    expect(s).toMatchObject({ financial_status: 'refunded', refunds: 2 });
    expect(s.refunded).toBe(s.paid);
    const rows = await t.db.query(`SELECT sum(amount)::float AS sum FROM order_refunds WHERE tenant_id = $1 AND order_id = $2`, [shop.tenant.id, p.order_id]);
    expect(rows[0].sum).toBe(o.total);
  });

  it('cancel ten times at once: one 200, nine 409, stock returned and money refunded once', async () => {
    const wine = ids.variants['v-wine'];
    const start = total(await levels(shop, wine));
    const p = await placeOrder(t, shop, ids, [[wine, 3]], { paid: true });
    const results = await Promise.all(Array.from({ length: 10 }, () => shop.admin.post(`/admin/orders/${p.order_id}/cancel`, {})));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    const s = await state(t, shop, p.order_id);
    expect(s).toMatchObject({ status: 'Cancelled', financial_status: 'refunded', refunds: 1, restocked: 3 });
    expect(total(await levels(shop, wine))).toBe(start);
    const events = await t.db.query(
      `SELECT count(*)::int AS n FROM outbox_events WHERE tenant_id = $1 AND topic = 'order.cancelled' AND payload->'order'->>'id' = $2`,
      [shop.tenant.id, p.order_id],
    );
    expect(events[0].n).toBe(1);
  });

  describe('the expiry job racing late payment confirmations', () => {
    let t2: TestApp;
    let s2: TestShop;
    let ids2: Ids;

    beforeAll(async () => {
      // a TTL of 0.3 s, and a job that runs only when called here (its next scheduled round is an hour away)
      t2 = await createTestApp({ config: { PAYMENT_PENDING_TTL_MINUTES: 0.005, PAYMENT_EXPIRY_CHECK_MS: 3_600_000 } });
      s2 = await t2.createShop();
      ids2 = await importShop(s2.admin);
    });
    afterAll(() => t2.close());

    it('every order ends either paid or cancelled-and-restocked, never both or neither', async () => {
      const wine = ids2.variants['v-wine'];
      const start = total(await levels(s2, wine));
      const orders: Placed[] = [];
      for (let i = 0; i < 10; i++) orders.push(await placeOrder(t2, s2, ids2, [[wine, 1]], { pay: 'card' }));
      await new Promise((r) => setTimeout(r, 400));
      const job = t2.get(PaymentExpiryJob);
      const [expired] = await Promise.all([job.runOnce(), ...orders.map((p) => pay(t2, p))]);
      let paid = 0;
      for (const p of orders) {
        const s = await state(t2, s2, p.order_id);
        if (s.status === 'Cancelled') {
          expect(s).toMatchObject({ financial_status: 'voided', captures: 0, voids: 1, restocked: 1, paid: 0 });
        } else {
          expect(s).toMatchObject({ status: 'Open', financial_status: 'paid', captures: 1, voids: 0, restocked: 0 });
          paid += 1;
        }
      }
      expect(expired).toBe(orders.length - paid);
      expect(total(await levels(s2, wine))).toBe(start - paid);
      // a second round finds nothing left to expire
      expect(await job.runOnce()).toBe(0);
    });
  });
});
