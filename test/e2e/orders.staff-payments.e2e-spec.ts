import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { checkoutImport, Ids, importShop } from './checkout.fixture.js';
import { levels, placeOrder, total } from './orders.fixture.js';

type Tx = {
  id: string;
  kind: string;
  status: string;
  amount: number;
  provider: string | null;
  reference: string | null;
  recorded_by: string | null;
  note: string | null;
};

/** Issue 33: payments after placement: staff record money received or capture an authorization, void one, list overdue invoices. */
describe('staff payments (POST /admin/orders/{id}/payments)', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    ids = await importShop(shop.admin);
  });
  afterAll(() => t.close());

  const order = async (id: string) => (await shop.admin.get(`/admin/orders/${id}`).expect(200)).body.order;
  const paidEvents = async (id: string) =>
    (
      await t.db.query(
        `SELECT payload FROM outbox_events WHERE tenant_id = $1 AND topic = 'order.paid' AND payload->'order'->>'id' = $2 ORDER BY (payload->'order'->>'paid_amount')::numeric`,
        [shop.tenant.id, id],
      )
    ).map((r: { payload: unknown }) => r.payload);

  it('an invoice order goes pending → partially_paid → paid → partially_refunded through the API alone', async () => {
    const wine = ids.variants['v-wine'];
    const placed = await placeOrder(t, shop, ids, [[wine, 2]]); // 2 × 24.90 + 9.50 shipping = 59.30
    const before = await order(placed.order_id);
    expect(before).toMatchObject({ financial_status: 'pending', total: 59.3 });
    // nothing was paid, so nothing can be refunded yet
    const early = await shop.admin.post(`/admin/orders/${placed.order_id}/refunds`, { amount: 1 }).expect(422);
    expect(early.body.code).toBe('refund_exceeds_paid');

    const first = await shop.admin
      .post(`/admin/orders/${placed.order_id}/payments`, { amount: 20, kind: 'manual', reference: ' BANK-1 ', note: 'first instalment' })
      .expect(201);
    expect(first.body.order).toMatchObject({ financial_status: 'partially_paid', payment_status: 'pending' });
    const manual = (first.body.order.transactions as Tx[]).find((x) => x.kind === 'manual')!;
    expect(manual).toMatchObject({
      amount: 20,
      status: 'succeeded',
      provider: 'manual',
      reference: 'BANK-1',
      recorded_by: shop.owner.id,
      note: 'first instalment',
    });

    // more than is unpaid: 422, nothing changes
    const over = await shop.admin.post(`/admin/orders/${placed.order_id}/payments`, { amount: 39.31 }).expect(422);
    expect(over.body.code).toBe('payment_exceeds_unpaid');
    await shop.admin.post(`/admin/orders/${placed.order_id}/payments`, { amount: 1.005 }).expect(422);
    // issue 30: a currency is never stripped and ignored: 1 EUR is not recorded as 1 CHF
    const eur = await shop.admin.post(`/admin/orders/${placed.order_id}/payments`, { amount: 1, currency: 'EUR' }).expect(422);
    expect(eur.body).toEqual({ errors: "currency must be the order's currency (CHF)", code: 'currency_mismatch' });
    const badKind = await shop.admin.post(`/admin/orders/${placed.order_id}/payments`, { amount: 1, kind: 'cash' }).expect(422);
    expect(badKind.body.errors).toContain('kind');
    await shop.admin.post(`/admin/orders/${placed.order_id}/payments`, { amount: -1 }).expect(422);
    expect((await order(placed.order_id)).transactions).toHaveLength(2);

    // the rest (amount omitted: all that is unpaid), captured through the offline provider
    const rest = await shop.admin.post(`/admin/orders/${placed.order_id}/payments`, { kind: 'capture', reference: 'BANK-2' }).expect(201);
    expect(rest.body.order).toMatchObject({ financial_status: 'paid', payment_status: 'paid' });
    const txs = rest.body.order.transactions as Tx[];
    expect(txs.map((x) => [x.kind, x.status, x.amount])).toEqual([
      ['authorization', 'succeeded', 59.3],
      ['manual', 'succeeded', 20],
      ['capture', 'succeeded', 39.3],
    ]);
    const events = await paidEvents(placed.order_id);
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      order: { financial_status: 'partially_paid', paid_amount: 20 },
      payment: { kind: 'manual', amount: 20, reference: 'BANK-1' },
    });
    expect(events[1]).toMatchObject({ order: { financial_status: 'paid', paid_amount: 59.3, total: 59.3 }, payment: { kind: 'capture', amount: 39.3 } });

    // fully paid: no more payments
    const again = await shop.admin.post(`/admin/orders/${placed.order_id}/payments`, { amount: 1 }).expect(409);
    expect(again.body.code).toBe('order_already_paid');

    // and now it can be refunded, in part
    const line = before.line_items[0].id;
    const refunded = await shop.admin.post(`/admin/orders/${placed.order_id}/refunds`, { lines: [{ line_id: line, quantity: 1 }] }).expect(201);
    expect(refunded.body.order).toMatchObject({ financial_status: 'partially_refunded', refunded_amount: 24.9 });
  });

  it('captures an authorized provider payment in parts through PaymentProvider.capture(), then voids the rest of the authorization', async () => {
    const placed = await placeOrder(t, shop, ids, [[ids.variants['v-juice'], 4]], { pay: 'card' });
    const o = await order(placed.order_id);
    const auth = (o.transactions as Tx[]).find((x) => x.kind === 'authorization')!;
    const part = await shop.admin.post(`/admin/orders/${placed.order_id}/payments`, { kind: 'capture', amount: 10 }).expect(201);
    expect(part.body.order.financial_status).toBe('partially_paid');
    const capture = (part.body.order.transactions as Tx[]).find((x) => x.kind === 'capture')!;
    expect(capture).toMatchObject({ provider: 'test', reference: `test_capture_${placed.order_id}`, amount: 10, recorded_by: shop.owner.id });
    expect((part.body.order.transactions as Tx[]).find((x) => x.id === auth.id)!.status).toBe('pending');

    // a capture is not an authorization; an unknown id is 404
    const notAuth = await shop.admin.post(`/admin/orders/${placed.order_id}/payments/${capture.id}/void`).expect(409);
    expect(notAuth.body.code).toBe('payment_not_voidable');
    await shop.admin.post(`/admin/orders/${placed.order_id}/payments/00000000-0000-4000-8000-000000000000/void`).expect(404);
    await shop.admin.post(`/admin/orders/${placed.order_id}/payments/not-a-uuid/void`).expect(422);

    const voided = await shop.admin.post(`/admin/orders/${placed.order_id}/payments/${auth.id}/void`).expect(200);
    // what was captured stays paid
    expect(voided.body.order).toMatchObject({ financial_status: 'partially_paid' });
    const after = voided.body.order.transactions as Tx[];
    expect(after.find((x) => x.id === auth.id)!.status).toBe('failed');
    expect(after.find((x) => x.kind === 'void')).toMatchObject({ status: 'succeeded', amount: Number((o.total - 10).toFixed(2)) });
    const twice = await shop.admin.post(`/admin/orders/${placed.order_id}/payments/${auth.id}/void`).expect(409);
    expect(twice.body.code).toBe('payment_not_voidable');
    // no authorization left to capture; money received outside the provider can still be recorded
    const noAuth = await shop.admin.post(`/admin/orders/${placed.order_id}/payments`, { kind: 'capture', amount: 1 }).expect(409);
    expect(noAuth.body.code).toBe('no_pending_authorization');
    const manual = await shop.admin.post(`/admin/orders/${placed.order_id}/payments`, { kind: 'manual' }).expect(201);
    expect(manual.body.order.financial_status).toBe('paid');
  });

  it('voiding the authorization of an unpaid order makes it voided; a cancelled order takes no payment; foreign orders are 404', async () => {
    const placed = await placeOrder(t, shop, ids, [[ids.variants['v-juice'], 1]], { pay: 'card' });
    const auth = ((await order(placed.order_id)).transactions as Tx[])[0];
    const voided = await shop.admin.post(`/admin/orders/${placed.order_id}/payments/${auth.id}/void`).expect(200);
    expect(voided.body.order.financial_status).toBe('voided');

    const cancelled = await placeOrder(t, shop, ids, [[ids.variants['v-juice'], 1]]);
    await shop.admin.post(`/admin/orders/${cancelled.order_id}/cancel`, {}).expect(200);
    const late = await shop.admin.post(`/admin/orders/${cancelled.order_id}/payments`, { amount: 1 }).expect(409);
    expect(late.body.code).toBe('order_cancelled');

    const other = await t.createShop();
    await other.admin.post(`/admin/orders/${cancelled.order_id}/payments`, { amount: 1 }).expect(404);
    await other.admin.post(`/admin/orders/${placed.order_id}/payments/${auth.id}/void`).expect(404);
  });

  it('GET /admin/orders?financial_status=pending&overdue=true lists unpaid invoice orders older than invoice_due_days', async () => {
    const s = await t.createShop();
    const doc = checkoutImport();
    const sids = (await s.admin.post('/admin/catalogue/import', { ...doc, settings: { ...doc.settings, invoice_due_days: 10 } }).expect(200)).body.import
      .ids as Ids;
    const juice = sids.variants['v-juice'];
    const [fresh, old, oldPartly, oldPaid, oldCard] = [
      await placeOrder(t, s, sids, [[juice, 1]]),
      await placeOrder(t, s, sids, [[juice, 1]]),
      await placeOrder(t, s, sids, [[juice, 1]]),
      await placeOrder(t, s, sids, [[juice, 1]]),
      await placeOrder(t, s, sids, [[juice, 1]], { pay: 'card' }),
    ];
    await s.admin.post(`/admin/orders/${oldPartly.order_id}/payments`, { amount: 1 }).expect(201);
    await s.admin.post(`/admin/orders/${oldPaid.order_id}/payments`, {}).expect(201);
    // placed eleven days ago (the invoices are due after ten)
    await t.db.query(`UPDATE orders SET placed_at = now() - interval '11 days' WHERE tenant_id = $1 AND id = ANY($2::uuid[])`, [
      s.tenant.id,
      [old, oldPartly, oldPaid, oldCard].map((p) => p.order_id),
    ]);
    const list = async (q: string) => ((await s.admin.get(`/admin/orders?${q}`).expect(200)).body.orders as Array<{ id: string }>).map((o) => o.id).sort();
    expect(await list('financial_status=pending&overdue=true')).toEqual([old.order_id].sort());
    expect(await list('overdue=true')).toEqual([old.order_id, oldPartly.order_id].sort());
    expect(await list('financial_status=pending&overdue=false')).toEqual([fresh.order_id, old.order_id, oldCard.order_id].sort());
    const bad = await s.admin.get('/admin/orders?overdue=yes').expect(422);
    expect(bad.body.errors).toContain('overdue');
    const exported = (await s.admin.get('/admin/catalogue/export').expect(200)).body;
    expect(exported.settings ?? exported.export?.settings).toMatchObject({ invoice_due_days: 10, return_window_days: 14 });
  });

  it('a payment recorded while a cancel runs: one outcome per order, money and stock agree', async () => {
    const wine = ids.variants['v-wine'];
    const start = total(await levels(shop, wine));
    const orders = [];
    for (let i = 0; i < 6; i++) orders.push(await placeOrder(t, shop, ids, [[wine, 1]]));
    const results = await Promise.all(
      orders.flatMap((p) => [
        shop.admin.post(`/admin/orders/${p.order_id}/cancel`, { reason: 'race' }),
        shop.admin.post(`/admin/orders/${p.order_id}/payments`, {}),
      ]),
    );
    for (const [i, p] of orders.entries()) {
      expect(results[2 * i].status).toBe(200);
      const o = await order(p.order_id);
      expect(o.status).toBe('Cancelled');
      if (results[2 * i + 1].status === 201) {
        // paid first: the cancel refunded exactly what was paid
        expect(o).toMatchObject({ financial_status: 'refunded', refunded_amount: o.total });
      } else {
        expect(results[2 * i + 1].status).toBe(409);
        expect(o.financial_status).toBe('voided');
        expect((o.transactions as Tx[]).some((x) => x.kind === 'manual')).toBe(false);
      }
    }
    expect(total(await levels(shop, wine))).toBe(start);
  });
});
