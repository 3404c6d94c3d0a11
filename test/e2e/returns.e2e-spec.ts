import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, ShopClient, TestApp, TestShop } from '../helpers/test-app.js';
import { Ids, importShop } from './checkout.fixture.js';
import { levels, placeOrder } from './orders.fixture.js';

/** Issue 33: returns (RMA) and claims after the sale. */
describe('returns and claims', () => {
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
  const topics = async (orderId: string) =>
    (
      await t.db.query(`SELECT topic FROM outbox_events WHERE tenant_id = $1 AND payload->'return'->>'order_id' = $2 ORDER BY occurred_at, id`, [
        shop.tenant.id,
        orderId,
      ])
    ).map((r: { topic: string }) => r.topic);
  /** A paid and shipped invoice order of `quantity` wine. */
  const shipped = async (quantity: number, client?: ShopClient) => {
    const p = await placeOrder(t, shop, ids, [[ids.variants['v-wine'], quantity]], { client });
    await shop.admin.post(`/admin/orders/${p.order_id}/payments`, {}).expect(201);
    await shop.admin.post(`/admin/orders/${p.order_id}/fulfillments`, {}).expect(201);
    return { ...p, line: (await order(p.order_id)).line_items[0].id as string };
  };
  const shopper = async () => {
    const email = `r-${Math.random().toString(36).slice(2)}@example.com`;
    await shop.storefront.post('/customers', { email, password: 'secret-pass-1', first_name: 'R', last_name: 'S' }).expect(201);
    const tok = (await shop.storefront.post('/customer/auth/token', { email, password: 'secret-pass-1' }).expect(200)).body.customer_access_token.access_token;
    const client = t.client(tok);
    return { client, id: (await client.get('/customers/me').expect(200)).body.customer.id as string };
  };

  it('requested → received (two staff at once: one 200, one 409, stock moved once) → refunded less the return shipping fee', async () => {
    const o = await shipped(3);
    const cellar = ids.locations.cellar;
    const unshipped = await placeOrder(t, shop, ids, [[ids.variants['v-wine'], 1]]);
    const noShip = await shop.admin
      .post(`/admin/orders/${unshipped.order_id}/returns`, { lines: [{ line_id: (await order(unshipped.order_id)).line_items[0].id, quantity: 1 }] })
      .expect(422);
    expect(noShip.body.errors).toContain('lines[0].quantity');
    await shop.admin.post(`/admin/orders/${o.order_id}/returns`, { lines: [{ line_id: o.line, quantity: 4 }] }).expect(422);
    await shop.admin.post(`/admin/orders/${o.order_id}/returns`, { lines: [{ line_id: unshipped.order_id, quantity: 1 }] }).expect(422);
    await shop.admin.post(`/admin/orders/${o.order_id}/returns`, { lines: [] }).expect(422);

    const created = await shop.admin
      .post(`/admin/orders/${o.order_id}/returns`, { lines: [{ line_id: o.line, quantity: 2, reason: 'breakage' }], note: 'box crushed' })
      .expect(201);
    const r = created.body.return;
    expect(r).toMatchObject({ status: 'requested', requested_by: 'staff', note: 'box crushed', lines: [{ line_id: o.line, quantity: 2, reason: 'breakage' }] });
    // the rest of the line is still returnable, not more
    await shop.admin.post(`/admin/orders/${o.order_id}/returns`, { lines: [{ line_id: o.line, quantity: 2 }] }).expect(422);
    const early = await shop.admin.post(`/admin/orders/${o.order_id}/returns/${r.id}/refund`, {}).expect(409);
    expect(early.body.code).toBe('return_not_refundable');
    await shop.admin.post(`/admin/orders/${o.order_id}/returns/${r.id}/receive`, { lines: [{ line_id: o.line, quantity_received: 1 }] }).expect(422); // no location
    await shop.admin
      .post(`/admin/orders/${o.order_id}/returns/${r.id}/receive`, {
        lines: [{ line_id: o.line, quantity_received: 2, quantity_damaged: 1, location_id: cellar }],
      })
      .expect(422);

    const before = (await levels(shop, ids.variants['v-wine']))[cellar];
    const body = { lines: [{ line_id: o.line, quantity_received: 1, quantity_damaged: 1, location_id: cellar }] };
    const both = await Promise.all([
      shop.admin.post(`/admin/orders/${o.order_id}/returns/${r.id}/receive`, body),
      shop.admin.post(`/admin/orders/${o.order_id}/returns/${r.id}/receive`, body),
    ]);
    expect(both.map((x) => x.status).sort()).toEqual([200, 409]);
    expect(both.find((x) => x.status === 409)!.body.code).toBe('return_not_receivable');
    expect(both.find((x) => x.status === 200)!.body.return).toMatchObject({
      status: 'received',
      lines: [{ quantity_received: 1, quantity_damaged: 1, location_id: cellar }],
    });
    // one undamaged unit back, once; the damaged one is recorded, not restocked
    expect((await levels(shop, ids.variants['v-wine']))[cellar]).toBe(before + 1);

    const tooDear = await shop.admin.post(`/admin/orders/${o.order_id}/returns/${r.id}/refund`, { shipping_fee: 49.81 }).expect(422);
    expect(tooDear.body.errors).toContain('shipping_fee');
    const refunded = await shop.admin.post(`/admin/orders/${o.order_id}/returns/${r.id}/refund`, { shipping_fee: 5 }).expect(200);
    expect(refunded.body.return).toMatchObject({ status: 'refunded', refund_to: 'original', shipping_fee: 5, refunded_amount: 44.8 });
    expect(await order(o.order_id)).toMatchObject({ financial_status: 'partially_refunded', refunded_amount: 44.8 });
    await shop.admin.post(`/admin/orders/${o.order_id}/returns/${r.id}/refund`, {}).expect(409);
    expect(await topics(o.order_id)).toEqual(['return.requested', 'return.received', 'return.refunded']);
    const listed = (await shop.admin.get(`/admin/orders/${o.order_id}/returns`).expect(200)).body.returns;
    expect(listed).toHaveLength(1);
    // the admin order embeds its returns as the returns endpoint answers them
    expect(await order(o.order_id)).toMatchObject({ returns: listed, claims: [] });
    expect((await order(unshipped.order_id)).returns).toEqual([]);
    const other = await t.createShop();
    await other.admin.get(`/admin/orders/${o.order_id}/returns`).expect(404);
    await other.admin.post(`/admin/orders/${o.order_id}/returns/${r.id}/receive`, body).expect(404);
  });

  it('shoppers ask within return_window_days of the shipment; staff approve or reject; a refund as store credit', async () => {
    const me = await shopper();
    const stranger = await shopper();
    const o = await shipped(2, me.client);
    const ask = { lines: [{ line_id: o.line, quantity: 1, reason: 'withdrawal' }] };
    await stranger.client.post(`/customer/orders/${o.order_id}/returns`, ask).expect(404);
    await shop.storefront.post(`/customer/orders/${o.order_id}/returns`, ask).expect(401);
    const first = (await me.client.post(`/customer/orders/${o.order_id}/returns`, ask).expect(201)).body.return;
    expect(first).toMatchObject({ status: 'requested', requested_by: 'customer' });
    const rejected = await shop.admin.post(`/admin/orders/${o.order_id}/returns/${first.id}/reject`, { reason: 'opened bottle' }).expect(200);
    expect(rejected.body.return).toMatchObject({ status: 'rejected', rejected_reason: 'opened bottle' });
    await shop.admin
      .post(`/admin/orders/${o.order_id}/returns/${first.id}/receive`, {
        lines: [{ line_id: o.line, quantity_received: 1, location_id: ids.locations.cellar }],
      })
      .expect(409);

    // a rejected return frees its units for another request
    const second = (await me.client.post(`/customer/orders/${o.order_id}/returns`, ask).expect(201)).body.return;
    const approved = await shop.admin.post(`/admin/orders/${o.order_id}/returns/${second.id}/approve`).expect(200);
    expect(approved.body.return.status).toBe('approved');
    await shop.admin.post(`/admin/orders/${o.order_id}/returns/${second.id}/approve`).expect(409);
    await shop.admin
      .post(`/admin/orders/${o.order_id}/returns/${second.id}/receive`, {
        lines: [{ line_id: o.line, quantity_received: 1, location_id: ids.locations.store }],
      })
      .expect(200);
    const credit = await shop.admin.post(`/admin/orders/${o.order_id}/returns/${second.id}/refund`, { refund_to: 'store_credit' }).expect(200);
    expect(credit.body.return).toMatchObject({ status: 'refunded', refund_to: 'store_credit', refunded_amount: 24.9 });
    expect((await me.client.get('/customers/me/store_credit').expect(200)).body.store_credit).toEqual([{ currency: 'CHF', balance: 24.9 }]);
    const o2 = await order(o.order_id);
    expect(o2).toMatchObject({ financial_status: 'partially_refunded', refunded_amount: 24.9 });
    expect(o2.transactions.find((x: { kind: string }) => x.kind === 'refund')).toMatchObject({ provider: 'store_credit', amount: 24.9 });

    // after the window: 422
    await t.db.query(`UPDATE order_fulfillments SET created_at = now() - interval '15 days' WHERE tenant_id = $1 AND order_id = $2`, [
      shop.tenant.id,
      o.order_id,
    ]);
    const late = await me.client.post(`/customer/orders/${o.order_id}/returns`, ask).expect(422);
    expect(late.body.code).toBe('return_window_closed');
    expect(await topics(o.order_id)).toEqual(['return.requested', 'return.rejected', 'return.requested', 'return.received', 'return.refunded']);
  });

  it('a refund claim refunds lines without a return (original or store credit); guests get no store credit', async () => {
    const o = await shipped(2);
    const guest = await shop.admin
      .post(`/admin/orders/${o.order_id}/claims`, { type: 'refund', lines: [{ line_id: o.line, quantity: 1 }], refund_to: 'store_credit' })
      .expect(422);
    expect(guest.body.code).toBe('store_credit_needs_customer');
    const claim = await shop.admin
      .post(`/admin/orders/${o.order_id}/claims`, {
        type: 'refund',
        lines: [{ line_id: o.line, quantity: 1, reason: 'broken in transit' }],
        reason: 'breakage',
      })
      .expect(201);
    expect(claim.body.claim).toMatchObject({
      type: 'refund',
      reason: 'breakage',
      lines: [{ line_id: o.line, quantity: 1, reason: 'broken in transit' }],
      replacement_order_id: null,
    });
    const after = await order(o.order_id);
    expect(after).toMatchObject({ financial_status: 'partially_refunded', refunded_amount: 24.9 });
    expect(after.refunds.at(-1).id).toBe(claim.body.claim.refund_id);
    await shop.admin.post(`/admin/orders/${o.order_id}/claims`, { type: 'refund', lines: [{ line_id: o.line, quantity: 2 }] }).expect(422);
    await shop.admin.post(`/admin/orders/${o.order_id}/claims`, { type: 'other', lines: [{ line_id: o.line, quantity: 1 }] }).expect(422);
    expect((await shop.admin.get(`/admin/orders/${o.order_id}/claims`).expect(200)).body.claims).toHaveLength(1);

    // a replacement: a zero-priced order linked to the original, its stock taken, shipped as usual
    const wine = ids.variants['v-wine'];
    const stockBefore = Object.values(await levels(shop, wine)).reduce((a, b) => a + b, 0);
    await shop.admin.post(`/admin/orders/${o.order_id}/claims`, { type: 'replace', lines: [{ line_id: o.line, quantity: 3 }] }).expect(422);
    const replace = await shop.admin
      .post(`/admin/orders/${o.order_id}/claims`, { type: 'replace', lines: [{ line_id: o.line, quantity: 1 }], reason: 'wrong vintage' })
      .expect(201);
    const replacementId = replace.body.claim.replacement_order_id;
    expect(replace.body.claim).toMatchObject({ type: 'replace', refund_id: null });
    const replacement = await order(replacementId);
    expect(replacement).toMatchObject({ total: 0, status: 'Open', financial_status: 'paid', replacement_for: o.order_id, fulfillment_status: 'unfulfilled' });
    expect(replacement.line_items).toMatchObject([{ variant_id: wine, quantity: 1, unit_price: 0, line_total: 0 }]);
    expect(Object.values(await levels(shop, wine)).reduce((a, b) => a + b, 0)).toBe(stockBefore - 1);
    const sent = await shop.admin.post(`/admin/orders/${replacementId}/fulfillments`, {}).expect(201);
    expect(sent.body.order.fulfillment_status).toBe('fulfilled');
    // both claims on the original admin order, the replacement linked both ways
    const original = await order(o.order_id);
    expect(original.replacement_for).toBeNull();
    expect(original.returns).toEqual([]);
    expect(original.claims).toEqual((await shop.admin.get(`/admin/orders/${o.order_id}/claims`).expect(200)).body.claims);
    expect(original.claims.map((c: { type: string; replacement_order_id: string | null }) => [c.type, c.replacement_order_id])).toEqual([
      ['refund', null],
      ['replace', replacementId],
    ]);
    expect((await order(replacementId)).claims).toEqual([]);
  });
});
