import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemoryMailTransport } from '../../src/customers/mail/mail-transport.js';
import { MailTransportOverrideModule } from '../../src/customers/mail/mail.module.js';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { Ids, importShop, JUICE_TAX, WINE_TAX } from './checkout.fixture.js';
import { levels, placeOrder, waitFor } from './orders.fixture.js';

/** Issue 17: the back office order lifecycle (list, read, edit, cancel, refund, fulfil), its scopes, events and webhooks. */
describe('admin orders', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let ids: Ids;
  const mail = new MemoryMailTransport();
  const half = (x: number) => Math.floor(x + 0.5 + 1e-9);
  const cents = (x: number) => half(x * 100);

  beforeAll(async () => {
    t = await createTestApp({ config: { WEBHOOK_POLL_MS: 50 }, imports: [MailTransportOverrideModule.use(mail)] });
    shop = await t.createShop();
    other = await t.createShop();
    ids = await importShop(shop.admin);
  });
  afterAll(() => t.close());

  const order = async (id: string, s: TestShop = shop) => (await s.admin.get(`/admin/orders/${id}`).expect(200)).body.order;
  const topics = async (orderId: string) =>
    (
      (await t.db.query(`SELECT topic FROM outbox_events WHERE tenant_id = $1 AND payload->'order'->>'id' = $2 ORDER BY occurred_at, id`, [
        shop.tenant.id,
        orderId,
      ])) as Array<{ topic: string }>
    ).map((e) => e.topic);

  describe('scopes', () => {
    it("the owner and tenant create's admin token hold Shop/orders/read and Shop/orders/write", async () => {
      const tokens = (await shop.admin.get('/admin/access_tokens').expect(200)).body.access_tokens as Array<{ scopes: string }>;
      expect(tokens.some((x) => x.scopes.split(' ').includes('Shop/orders/read') && x.scopes.split(' ').includes('Shop/orders/write'))).toBe(true);
    });

    it('orders/read reads, orders/write writes; Shop/checkouts/* still reads one order and ships it (deprecated)', async () => {
      const p = await placeOrder(t, shop, ids, [[ids.variants['v-juice'], 1]]);
      const mint = async (scopes: string[]) =>
        t.client((await shop.admin.post('/admin/access_tokens', { label: scopes.join(','), tier: 'admin', scopes }).expect(201)).body.access_token.token);
      const reader = await mint(['Shop/orders/read']);
      const writer = await mint(['Shop/orders/write']);
      const legacy = await mint(['Shop/checkouts/read', 'Shop/checkouts/write']);
      await reader.get('/admin/orders').expect(200);
      await reader.get(`/admin/orders/${p.order_id}`).expect(200);
      await reader.post(`/admin/orders/${p.order_id}/cancel`, {}).expect(403);
      await reader.put(`/admin/orders/${p.order_id}`, { note: 'x' }).expect(403);
      await writer.get('/admin/orders').expect(403);
      await writer.put(`/admin/orders/${p.order_id}`, { note: 'x' }).expect(200);
      await legacy.get(`/admin/orders/${p.order_id}`).expect(200);
      await legacy.post(`/admin/orders/${p.order_id}/fulfillment`, { tracking_url: 'https://track.example/legacy' }).expect(200);
      await legacy.get('/admin/orders').expect(403);
      await legacy.post(`/admin/orders/${p.order_id}/refunds`, { amount: 1 }).expect(403);
      await shop.storefront.get('/admin/orders').expect(401);
      await t.client(null).get('/admin/orders').expect(401);
    });
  });

  describe('list and read', () => {
    let s: TestShop;
    let sids: Ids;
    const made: Array<{ id: string; number: string }> = [];

    beforeAll(async () => {
      s = await t.createShop();
      sids = await importShop(s.admin);
      const a = await placeOrder(t, s, sids, [[sids.variants['v-juice'], 1]], { email: 'alice@example.com' });
      const b = await placeOrder(t, s, sids, [[sids.variants['v-juice'], 2]], { paid: true, email: 'bob@example.com' });
      const c = await placeOrder(t, s, sids, [[sids.variants['v-juice'], 3]], { email: 'carol@example.org' });
      await s.admin.post(`/admin/orders/${c.order_id}/cancel`, { reason: 'customer' }).expect(200);
      for (const p of [a, b, c]) made.push({ id: p.order_id, number: p.order_number });
    });

    it('lists summary rows newest first, cursored with the shared pager (Link, stale cursor 422)', async () => {
      const all = (await s.admin.get('/admin/orders').expect(200)).body.orders;
      expect(all.map((o: { id: string }) => o.id)).toEqual([...made].reverse().map((m) => m.id));
      expect(all[2]).toEqual({
        id: made[0].id,
        number: made[0].number,
        created_at: expect.any(String),
        email: 'alice@example.com',
        total: expect.any(Number),
        currency: 'CHF',
        status: 'Open',
        financial_status: 'pending',
        fulfillment_status: 'unfulfilled',
      });
      const first = await s.admin.get('/admin/orders?limit=2').expect(200);
      expect(first.body.orders).toHaveLength(2);
      const next = new URL(/<([^>]+)>; rel="next"/.exec(first.headers.link)![1]);
      const second = await s.admin.get(`/admin/orders${next.search}`).expect(200);
      expect([...first.body.orders, ...second.body.orders].map((o: { id: string }) => o.id)).toEqual(all.map((o: { id: string }) => o.id));
      expect(second.headers.link).toBeUndefined();
      await s.admin.get(`/admin/orders?limit=2&status=Open&page_info=${encodeURIComponent(next.searchParams.get('page_info')!)}`).expect(422);
    });

    it('filters by status, financial and fulfillment status, dates, customer, email and q (number or email, exact or prefix)', async () => {
      const ids = async (query: string) => ((await s.admin.get(`/admin/orders?${query}`).expect(200)).body.orders as Array<{ id: string }>).map((o) => o.id);
      expect(await ids('status=Cancelled')).toEqual([made[2].id]);
      expect(await ids('financial_status=paid')).toEqual([made[1].id]);
      expect(await ids('financial_status=voided')).toEqual([made[2].id]);
      expect(await ids('fulfillment_status=unfulfilled&status=Open')).toEqual([made[1].id, made[0].id]);
      expect(await ids('fulfillment_status=fulfilled')).toEqual([]);
      // status values in any case (issue 29): the other status filters are lower case
      expect(await ids('status=cancelled')).toEqual([made[2].id]);
      expect(await ids('status=OPEN&financial_status=PAID')).toEqual([made[1].id]);
      expect(await ids('fulfillment_status=Unfulfilled&status=open')).toEqual([made[1].id, made[0].id]);
      expect(await ids(`created_at_min=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);
      expect(await ids(`created_at_max=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}&created_at_min=2020-01-01`)).toHaveLength(3);
      expect(await ids(`customer_id=${randomUUID()}`)).toEqual([]);
      expect(await ids('email=BOB@example.com')).toEqual([made[1].id]);
      expect(await ids('q=carol')).toEqual([made[2].id]);
      expect(await ids('q=ALICE@EXAMPLE.COM')).toEqual([made[0].id]);
      expect(await ids(`q=${made[1].number}`)).toEqual([made[1].id]);
      expect(await ids('q=%25')).toEqual([]);
      for (const bad of ['financial_status=lost', 'fulfillment_status=some', 'status=Gone', 'created_at_min=yesterday', 'customer_id=nope', 'limit=abc']) {
        const res = await s.admin.get(`/admin/orders?${bad}`).expect(422);
        expect(res.body.errors).toContain(bad.split('=')[0]);
      }
      expect((await other.admin.get('/admin/orders').expect(200)).body.orders).toEqual([]);
    });

    it('reads one order with statuses, refunds, fulfillments, transactions, note and tags; 404 unknown or foreign, 422 malformed', async () => {
      const o = await order(made[1].id, s);
      expect(o).toMatchObject({
        id: made[1].id,
        number: made[1].number,
        status: 'Open',
        payment_status: 'paid',
        financial_status: 'paid',
        fulfillment_status: 'unfulfilled',
        cancelled_at: null,
        cancel_reason: null,
        refunds: [],
        fulfillments: [],
        note: null,
        tags: [],
        email: 'bob@example.com',
        refunded_amount: 0,
      });
      expect(o.transactions).toEqual([
        expect.objectContaining({ kind: 'authorization', amount: o.total, status: 'succeeded', provider: 'test', reference: `test_${made[1].id}` }),
        expect.objectContaining({ kind: 'capture', amount: o.total, status: 'succeeded', provider: 'test' }),
      ]);
      await s.admin.get(`/admin/orders/${randomUUID()}`).expect(404);
      await other.admin.get(`/admin/orders/${made[1].id}`).expect(404);
      await s.admin.get('/admin/orders/not-a-uuid').expect(422);
    });

    it('PUT changes note, tags and email only; 422 on bad members; 404', async () => {
      const res = await s.admin
        .put(`/admin/orders/${made[0].id}`, { note: 'call first', tags: ['vip', ' gift ', 'vip'], email: 'alice@new.example' })
        .expect(200);
      expect(res.body.order).toMatchObject({ note: 'call first', tags: ['vip', 'gift'], email: 'alice@new.example', status: 'Open' });
      const kept = await s.admin.put(`/admin/orders/${made[0].id}`, { note: null }).expect(200);
      expect(kept.body.order).toMatchObject({ note: null, tags: ['vip', 'gift'], email: 'alice@new.example' });
      await s.admin.put(`/admin/orders/${made[0].id}`, { email: 'not-an-email' }).expect(422);
      await s.admin.put(`/admin/orders/${made[0].id}`, { tags: 'vip' }).expect(422);
      await s.admin.put(`/admin/orders/${made[0].id}`, { tags: [1] }).expect(422);
      await s.admin.put(`/admin/orders/${randomUUID()}`, { note: 'x' }).expect(404);
      await other.admin.put(`/admin/orders/${made[0].id}`, { note: 'x' }).expect(404);
      expect((await order(made[0].id, s)).email).toBe('alice@new.example');
    });
  });

  describe('cancel', () => {
    it('restocks every unfulfilled line where it was taken from (two locations), releases the single-use code, voids the unpaid authorization', async () => {
      const wine = ids.variants['v-wine'];
      await shop.admin.post('/admin/inventory_levels/set', { inventory_item_id: wine, location_id: ids.locations.cellar, available: 3 }).expect(200);
      await shop.admin.post('/admin/inventory_levels/set', { inventory_item_id: wine, location_id: ids.locations.store, available: 5 }).expect(200);
      await shop.admin.post('/admin/discount_codes', { code: 'ONCE', type: 'percent', value: 10 }).expect(201);
      const p = await placeOrder(
        t,
        shop,
        ids,
        [
          [wine, 6],
          [ids.variants['v-juice'], 1],
        ],
        { code: 'ONCE' },
      );
      expect(await levels(shop, wine)).toEqual({ [ids.locations.cellar]: 2, [ids.locations.store]: 0 });
      // the code is used: another checkout cannot take it
      const late = t.client(shop.storefront_token);
      await late.post('/cart/items', { article_id: ids.variants['v-juice'], quantity: 1 }).expect(200);
      expect((await late.post('/cart/discount_code', { code: 'ONCE' }).expect(422)).body.code).toBe('discount_code_already_used');

      const res = await shop.admin.post(`/admin/orders/${p.order_id}/cancel`, { reason: 'customer', note: 'changed their mind' }).expect(200);
      expect(res.body.order).toMatchObject({
        status: 'Cancelled',
        cancel_reason: 'customer',
        cancelled_at: expect.any(String),
        financial_status: 'voided',
        payment_status: 'cancelled',
        refunds: [],
      });
      expect(res.body.order.transactions.map((x: { kind: string; status: string }) => [x.kind, x.status])).toEqual(
        expect.arrayContaining([
          ['authorization', 'failed'],
          ['void', 'succeeded'],
        ]),
      );
      expect(await levels(shop, wine)).toEqual({ [ids.locations.cellar]: 3, [ids.locations.store]: 5 });
      const code = (await t.db.query(`SELECT is_used, using_date FROM discount_codes WHERE tenant_id = $1 AND code = 'ONCE'`, [shop.tenant.id]))[0];
      expect(code).toEqual({ is_used: false, using_date: null });
      // usable again: a new order redeems it
      const again = await placeOrder(t, shop, ids, [[ids.variants['v-juice'], 1]], { code: 'ONCE' });
      expect((await order(again.order_id)).discount_code).toBe('ONCE');
      expect(await topics(p.order_id)).toEqual(['order.placed', 'order.cancelled']);
      const [ev] = await t.db.query(`SELECT payload FROM outbox_events WHERE tenant_id = $1 AND topic = 'order.cancelled' AND payload->'order'->>'id' = $2`, [
        shop.tenant.id,
        p.order_id,
      ]);
      expect(ev.payload.order).toMatchObject({
        reason: 'customer',
        note: 'changed their mind',
        financial_status: 'voided',
        restocked_quantity: 6,
        discount_code_released: true,
      });
      // the guest receipt shows it
      const guest = (
        await t
          .client(shop.storefront_token)
          .get(`/orders/${p.order_id}?hash=${encodeURIComponent(p.hash)}`)
          .expect(200)
      ).body.order;
      expect(guest).toMatchObject({
        status: 'Cancelled',
        financial_status: 'voided',
        fulfillment_status: 'unfulfilled',
        cancel_reason: 'customer',
        refunds: [],
      });
      expect(guest).not.toHaveProperty('transactions');
      // once is enough
      expect((await shop.admin.post(`/admin/orders/${p.order_id}/cancel`, {}).expect(409)).body.errors).toContain('already cancelled');
    });

    it('refunds a paid order in full through the provider; restock: false leaves stock alone', async () => {
      const before = await levels(shop, ids.variants['v-wine']);
      const p = await placeOrder(t, shop, ids, [[ids.variants['v-wine'], 1]], { paid: true });
      const res = await shop.admin.post(`/admin/orders/${p.order_id}/cancel`, { restock: false }).expect(200);
      const o = res.body.order;
      expect(o).toMatchObject({ status: 'Cancelled', financial_status: 'refunded', refunded_amount: o.total, payment_status: 'paid' });
      expect(o.refunds).toEqual([expect.objectContaining({ amount: o.total, lines: [] })]);
      expect(o.transactions.map((x: { kind: string }) => x.kind)).toEqual(expect.arrayContaining(['authorization', 'capture', 'refund']));
      const sum = Object.values(before).reduce((a, b) => a + b, 0);
      expect(Object.values(await levels(shop, ids.variants['v-wine'])).reduce((a, b) => a + b, 0)).toBe(sum - 1);
      expect(await topics(p.order_id)).toEqual(['order.placed', 'order.paid', 'order.refunded', 'order.cancelled']);
    });

    it('refund: false keeps the money; a partly shipped order restocks only what did not ship; a fully fulfilled one is 409', async () => {
      const wine = ids.variants['v-wine'];
      const p = await placeOrder(t, shop, ids, [[wine, 4]], { paid: true });
      const line = (await order(p.order_id)).line_items[0];
      const start = await levels(shop, wine);
      await shop.admin.post(`/admin/orders/${p.order_id}/fulfillments`, { lines: [{ line_id: line.id, quantity: 1 }] }).expect(201);
      const res = await shop.admin.post(`/admin/orders/${p.order_id}/cancel`, { refund: false }).expect(200);
      expect(res.body.order).toMatchObject({ status: 'Cancelled', financial_status: 'paid', refunds: [], fulfillment_status: 'partial' });
      const after = await levels(shop, wine);
      expect(Object.values(after).reduce((a, b) => a + b, 0) - Object.values(start).reduce((a, b) => a + b, 0)).toBe(3);
      const q = await placeOrder(t, shop, ids, [[ids.variants['v-juice'], 1]]);
      await shop.admin.post(`/admin/orders/${q.order_id}/fulfillments`, {}).expect(201);
      expect((await shop.admin.post(`/admin/orders/${q.order_id}/cancel`, {}).expect(409)).body.errors).toContain('fulfilled');
      await shop.admin.post(`/admin/orders/${randomUUID()}/cancel`, {}).expect(404);
      await other.admin.post(`/admin/orders/${q.order_id}/cancel`, {}).expect(404);
      await shop.admin.post(`/admin/orders/${q.order_id}/cancel`, { restock: 'yes' }).expect(422);
    });
  });

  describe('refunds', () => {
    /** What `q` of a line cost, tax included, after its share of the order's discount (rounded once). */
    function expectedLineRefund(
      o: { price_includes_tax: boolean; subtotal: number; discount: number },
      line: { quantity: number; line_total: number },
      q: number,
      rate: number,
    ) {
      const share = (cents(o.subtotal) - cents(o.discount)) / cents(o.subtotal);
      const base = cents(line.line_total) * (q / line.quantity) * share;
      return half(o.price_includes_tax ? base : base * (1 + rate / 100)) / 100;
    }

    for (const includeTax of [true, false]) {
      it(`${includeTax ? 'gross' : 'net'}-price shop, two tax rates and a coupon: per-line amounts as charged, the last refund takes the rest, financial_status follows`, async () => {
        const s = await t.createShop();
        const sids = await importShop(s.admin, { pricesIncludeTax: includeTax });
        await s.admin.post('/admin/discount_codes', { code: 'TEN', type: 'percent', value: 10 }).expect(201);
        const p = await placeOrder(
          t,
          s,
          sids,
          [
            [sids.variants['v-wine'], 3],
            [sids.variants['v-juice'], 2],
          ],
          { paid: true, code: 'TEN' },
        );
        const o = await order(p.order_id, s);
        expect(o).toMatchObject({ financial_status: 'paid', discount: expect.any(Number) });
        expect(o.discount).toBeGreaterThan(0);
        const [wine, juice] = o.line_items;
        const stockBefore = await levels(s, sids.variants['v-wine']);

        const one = await s.admin
          .post(`/admin/orders/${p.order_id}/refunds`, { lines: [{ line_id: wine.id, quantity: 1, restock: true }], note: 'broken bottle' })
          .expect(201);
        const first = expectedLineRefund(o, wine, 1, WINE_TAX);
        expect(one.body.order).toMatchObject({ financial_status: 'partially_refunded', refunded_amount: first });
        expect(one.body.order.refunds).toEqual([
          {
            id: expect.any(String),
            created_at: expect.any(String),
            amount: first,
            shipping: 0,
            note: 'broken bottle',
            lines: [{ line_id: wine.id, quantity: 1, restock: true, amount: first }],
          },
        ]);
        const stockAfter = await levels(s, sids.variants['v-wine']);
        expect(Object.values(stockAfter).reduce((a, b) => a + b, 0)).toBe(Object.values(stockBefore).reduce((a, b) => a + b, 0) + 1);

        const juiceOne = expectedLineRefund(o, juice, 1, JUICE_TAX);
        const two = await s.admin.post(`/admin/orders/${p.order_id}/refunds`, { lines: [{ line_id: juice.id, quantity: 1 }] }).expect(201);
        expect(two.body.order.refunds[1].amount).toBe(juiceOne);
        expect(two.body.order.refunded_amount).toBe(Number((first + juiceOne).toFixed(2)));

        // too much: a line beyond what is left, shipping beyond what was charged, an amount beyond what was paid
        const tooMany = await s.admin.post(`/admin/orders/${p.order_id}/refunds`, { lines: [{ line_id: wine.id, quantity: 3 }] }).expect(422);
        expect(tooMany.body.errors).toContain('lines[0].quantity');
        const shippingGross = includeTax ? o.shipping_amount : half(cents(o.shipping_amount) * (1 + 8.1 / 100)) / 100;
        expect((await s.admin.post(`/admin/orders/${p.order_id}/refunds`, { shipping: shippingGross + 0.01 }).expect(422)).body.errors).toContain('shipping');
        const over = await s.admin.post(`/admin/orders/${p.order_id}/refunds`, { amount: o.total }).expect(422);
        expect(over.body.code).toBe('refund_exceeds_paid');
        expect(
          (await s.admin.post(`/admin/orders/${p.order_id}/refunds`, { lines: [{ line_id: randomUUID(), quantity: 1 }] }).expect(422)).body.errors,
        ).toContain('lines[0].line_id');
        await s.admin.post(`/admin/orders/${p.order_id}/refunds`, {}).expect(422);
        await s.admin.post(`/admin/orders/${p.order_id}/refunds`, { lines: [{ line_id: wine.id, quantity: -1 }] }).expect(422);

        // everything left (two wines, one juice, the shipping): exactly what remains of the total
        const rest = await s.admin
          .post(`/admin/orders/${p.order_id}/refunds`, {
            lines: [
              { line_id: wine.id, quantity: 2 },
              { line_id: juice.id, quantity: 1 },
            ],
            shipping: shippingGross,
          })
          .expect(201);
        const done = rest.body.order;
        expect(done).toMatchObject({ financial_status: 'refunded', refunded_amount: o.total, status: 'Open' });
        expect(cents(done.refunds.reduce((a: number, r: { amount: number }) => a + r.amount, 0))).toBe(cents(o.total));
        // the computed parts are close to the charged total (per-line rounding), the last refund absorbs the difference
        const computed = expectedLineRefund(o, wine, 2, WINE_TAX) + expectedLineRefund(o, juice, 1, JUICE_TAX) + shippingGross;
        expect(Math.abs(cents(computed) - cents(done.refunds[2].amount))).toBeLessThanOrEqual(3);
        expect((await s.admin.post(`/admin/orders/${p.order_id}/refunds`, { amount: 0.01 }).expect(422)).body.code).toBe('refund_exceeds_paid');
        const rows = await t.db.query(
          `SELECT count(*)::int AS n, sum(amount)::float AS total FROM order_transactions WHERE tenant_id = $1 AND order_id = $2 AND kind = 'refund' AND status = 'succeeded'`,
          [s.tenant.id, p.order_id],
        );
        expect(rows[0]).toEqual({ n: 3, total: o.total });
        // the buyer sees amounts only
        const guest = (
          await t
            .client(s.storefront_token)
            .get(`/orders/${p.order_id}?hash=${encodeURIComponent(p.hash)}`)
            .expect(200)
        ).body.order;
        expect(guest.refunds).toEqual(done.refunds.map((r: { created_at: string; amount: number }) => ({ created_at: r.created_at, amount: r.amount })));
        expect(guest.financial_status).toBe('refunded');
      });
    }

    it('a refund retried with its Idempotency-Key refunds once and answers the same', async () => {
      const p = await placeOrder(t, shop, ids, [[ids.variants['v-juice'], 2]], { paid: true });
      const key = randomUUID();
      const [a, b] = await Promise.all(
        [1, 2].map(() => shop.admin.post(`/admin/orders/${p.order_id}/refunds`).set('Idempotency-Key', key).send({ amount: 3 })),
      );
      const c = await shop.admin.post(`/admin/orders/${p.order_id}/refunds`).set('Idempotency-Key', key).send({ amount: 3 });
      for (const r of [a, b, c]) expect(r.status).toBe(201);
      expect(b.body).toEqual(a.body);
      expect(c.body).toEqual(a.body);
      const rows = await t.db.query(`SELECT count(*)::int AS n FROM order_refunds WHERE tenant_id = $1 AND order_id = $2`, [shop.tenant.id, p.order_id]);
      expect(rows[0].n).toBe(1);
      expect((await order(p.order_id)).refunded_amount).toBe(3);
    });

    it("issue 30: a refund names its currency or gets the order's; another currency is 422 and refunds nothing", async () => {
      const p = await placeOrder(t, shop, ids, [[ids.variants['v-juice'], 2]], { paid: true });
      const before = await order(p.order_id);
      expect(before.currency).toBe('CHF');
      const eur = await shop.admin.post(`/admin/orders/${p.order_id}/refunds`, { amount: 1, currency: 'EUR' }).expect(422);
      expect(eur.body).toMatchObject({ code: 'currency_mismatch', errors: expect.stringContaining('currency') });
      const malformed = await shop.admin.post(`/admin/orders/${p.order_id}/refunds`, { amount: 1, currency: 'EURO' }).expect(422);
      expect(malformed.body.errors).toContain('currency');
      await shop.admin.post(`/admin/orders/${p.order_id}/refunds`, { amount: 1, currency: 42 }).expect(422);
      expect((await order(p.order_id)).refunded_amount).toBe(0);
      const chf = await shop.admin.post(`/admin/orders/${p.order_id}/refunds`, { amount: 1, currency: 'chf' }).expect(201);
      expect(chf.body.order).toMatchObject({ refunded_amount: 1 });
      await shop.admin.post(`/admin/orders/${p.order_id}/refunds`, { amount: 1, currency: null }).expect(201);
      expect((await order(p.order_id)).refunded_amount).toBe(2);
    });

    it('an unpaid order has nothing to refund (422 refund_exceeds_paid); an explicit amount refunds part; events per refund', async () => {
      const p = await placeOrder(t, shop, ids, [[ids.variants['v-juice'], 2]]);
      expect((await shop.admin.post(`/admin/orders/${p.order_id}/refunds`, { amount: 1 }).expect(422)).body.code).toBe('refund_exceeds_paid');
      const q = await placeOrder(t, shop, ids, [[ids.variants['v-juice'], 2]], { paid: true });
      const r = await shop.admin.post(`/admin/orders/${q.order_id}/refunds`, { amount: 2.5, note: 'goodwill' }).expect(201);
      expect(r.body.order).toMatchObject({ financial_status: 'partially_refunded', refunded_amount: 2.5 });
      await shop.admin.post(`/admin/orders/${randomUUID()}/refunds`, { amount: 1 }).expect(404);
      await other.admin.post(`/admin/orders/${q.order_id}/refunds`, { amount: 1 }).expect(404);
      expect(await topics(q.order_id)).toEqual(['order.placed', 'order.paid', 'order.refunded']);
    });
  });

  describe('fulfillments', () => {
    it('partial shipments: fulfillment_status follows, quantities never exceed what is left, order.fulfilled each time and order.shipped at the end', async () => {
      const p = await placeOrder(t, shop, ids, [
        [ids.variants['v-wine'], 3],
        [ids.variants['v-juice'], 2],
      ]);
      const [wine, juice] = (await order(p.order_id)).line_items;
      const one = await shop.admin
        .post(`/admin/orders/${p.order_id}/fulfillments`, {
          lines: [{ line_id: wine.id, quantity: 2 }],
          tracking_number: 'TN1',
          tracking_url: 'https://track.example/1',
          carrier: 'Post',
          notify_customer: true,
        })
        .expect(201);
      expect(one.body.order).toMatchObject({ fulfillment_status: 'partial', status: 'Open', tracking_url: 'https://track.example/1' });
      expect(one.body.order.fulfillments).toEqual([
        {
          id: expect.any(String),
          created_at: expect.any(String),
          lines: [{ line_id: wine.id, quantity: 2 }],
          tracking_number: 'TN1',
          tracking_url: 'https://track.example/1',
          carrier: 'Post',
        },
      ]);
      const over = await shop.admin.post(`/admin/orders/${p.order_id}/fulfillments`, { lines: [{ line_id: wine.id, quantity: 2 }] }).expect(422);
      expect(over.body.errors).toContain('lines[0].quantity');
      await shop.admin.post(`/admin/orders/${p.order_id}/fulfillments`, { lines: [{ line_id: randomUUID(), quantity: 1 }] }).expect(422);
      await shop.admin.post(`/admin/orders/${p.order_id}/fulfillments`, { lines: [] }).expect(422);
      await shop.admin.post(`/admin/orders/${p.order_id}/fulfillments`, { tracking_url: 'javascript:alert(1)' }).expect(422);
      await shop.admin.post(`/admin/orders/${p.order_id}/fulfillments`, { lines: [{ line_id: juice.id, quantity: 'two' }] }).expect(422);
      const rest = await shop.admin.post(`/admin/orders/${p.order_id}/fulfillments`, { tracking_number: 'TN2' }).expect(201);
      expect(rest.body.order).toMatchObject({ fulfillment_status: 'fulfilled', status: 'Shipped', tracking_url: 'https://track.example/1' });
      expect(rest.body.order.fulfillments[1].lines).toEqual([
        { line_id: wine.id, quantity: 1 },
        { line_id: juice.id, quantity: 2 },
      ]);
      expect((await shop.admin.post(`/admin/orders/${p.order_id}/fulfillments`, {}).expect(409)).body.errors).toContain('fulfilled');
      expect(await topics(p.order_id)).toEqual(['order.placed', 'order.fulfilled', 'order.fulfilled', 'order.shipped']);
      const [ev] = await t.db.query(
        `SELECT payload FROM outbox_events WHERE tenant_id = $1 AND topic = 'order.fulfilled' AND payload->'fulfillment'->>'tracking_number' = 'TN1'`,
        [shop.tenant.id],
      );
      expect(ev.payload).toMatchObject({ notify_customer: true, order: { id: p.order_id, fulfillment_status: 'partial' } });
      const guest = (
        await t
          .client(shop.storefront_token)
          .get(`/orders/${p.order_id}?hash=${encodeURIComponent(p.hash)}`)
          .expect(200)
      ).body.order;
      expect(guest).toMatchObject({ fulfillment_status: 'fulfilled', status: 'Shipped' });
      // notify_customer: one shipping notice, for the first fulfillment only
      const sent = await waitFor(
        () => mail.outbox.filter((m) => m.kind === 'order_fulfilled' && m.data?.order_id === p.order_id),
        (x) => x.length > 0,
      );
      await new Promise((r) => setTimeout(r, 300));
      expect(mail.outbox.filter((m) => m.kind === 'order_fulfilled' && m.data?.order_id === p.order_id)).toHaveLength(1);
      expect(sent[0]).toMatchObject({
        to: 'anna@example.ch',
        subject: `Your order ${p.order_number} has partly shipped`,
        data: { tracking_url: 'https://track.example/1' },
      });
      expect(sent[0].text).toContain('TN1');
    });

    it('units a refund returned to stock are not fulfilled any more; a refund without restock still ships', async () => {
      const p = await placeOrder(
        t,
        shop,
        ids,
        [
          [ids.variants['v-wine'], 3],
          [ids.variants['v-juice'], 2],
        ],
        { paid: true },
      );
      const [wine, juice] = (await order(p.order_id)).line_items;
      await shop.admin
        .post(`/admin/orders/${p.order_id}/refunds`, {
          lines: [
            { line_id: wine.id, quantity: 2, restock: true },
            { line_id: juice.id, quantity: 1, restock: false },
          ],
        })
        .expect(201);
      const over = await shop.admin.post(`/admin/orders/${p.order_id}/fulfillments`, { lines: [{ line_id: wine.id, quantity: 2 }] }).expect(422);
      expect(over.body.errors).toContain('what is left to fulfil of this line (1)');
      const rest = await shop.admin.post(`/admin/orders/${p.order_id}/fulfillments`, {}).expect(201);
      expect(rest.body.order.fulfillments[0].lines).toEqual([
        { line_id: wine.id, quantity: 1 },
        { line_id: juice.id, quantity: 2 },
      ]);
      expect(rest.body.order.fulfillment_status).toBe('fulfilled');
      await shop.admin.post(`/admin/orders/${p.order_id}/fulfillments`, {}).expect(409);
    });

    it('a refund returning the units left to ship completes a partly shipped order (fulfilled, Shipped); without a shipment it stays unfulfilled', async () => {
      const wineId = ids.variants['v-wine'];
      await shop.admin.post('/admin/inventory_levels/set', { inventory_item_id: wineId, location_id: ids.locations.cellar, available: 10 }).expect(200);
      const p = await placeOrder(
        t,
        shop,
        ids,
        [
          [wineId, 2],
          [ids.variants['v-juice'], 1],
        ],
        { paid: true },
      );
      const [wine, juice] = (await order(p.order_id)).line_items;
      const part = await shop.admin.post(`/admin/orders/${p.order_id}/fulfillments`, { lines: [{ line_id: wine.id, quantity: 1 }] }).expect(201);
      expect(part.body.order.fulfillment_status).toBe('partial');
      // a refund that returns nothing to stock leaves its units to ship (the juice is not stock-tracked)
      await shop.admin.post(`/admin/orders/${p.order_id}/refunds`, { lines: [{ line_id: juice.id, quantity: 1, restock: true }] }).expect(201);
      expect((await order(p.order_id)).fulfillment_status).toBe('partial');
      await shop.admin.post(`/admin/orders/${p.order_id}/fulfillments`, { lines: [{ line_id: juice.id, quantity: 1 }] }).expect(201);
      await shop.admin.post(`/admin/orders/${p.order_id}/refunds`, { lines: [{ line_id: wine.id, quantity: 1, restock: true }] }).expect(201);
      const done = await order(p.order_id);
      expect({ fulfillment: done.fulfillment_status, status: done.status }).toEqual({ fulfillment: 'fulfilled', status: 'Shipped' });
      expect((await topics(p.order_id)).slice(-2)).toEqual(['order.refunded', 'order.shipped']);
      await shop.admin.post(`/admin/orders/${p.order_id}/fulfillments`, {}).expect(409);

      const q = await placeOrder(t, shop, ids, [[wineId, 1]], { paid: true });
      const [line] = (await order(q.order_id)).line_items;
      await shop.admin.post(`/admin/orders/${q.order_id}/refunds`, { lines: [{ line_id: line.id, quantity: 1, restock: true }] }).expect(201);
      const none = await order(q.order_id);
      expect({ fulfillment: none.fulfillment_status, status: none.status }).toEqual({ fulfillment: 'unfulfilled', status: 'Open' });
    });

    it('a cancelled order cannot be fulfilled (409); unknown and foreign orders are 404', async () => {
      const p = await placeOrder(t, shop, ids, [[ids.variants['v-juice'], 1]]);
      await shop.admin.post(`/admin/orders/${p.order_id}/cancel`, {}).expect(200);
      await shop.admin.post(`/admin/orders/${p.order_id}/fulfillments`, {}).expect(409);
      await shop.admin.post(`/admin/orders/${randomUUID()}/fulfillments`, {}).expect(404);
      await other.admin.post(`/admin/orders/${p.order_id}/fulfillments`, {}).expect(404);
    });
  });

  describe('webhooks', () => {
    interface Received {
      path: string;
      headers: IncomingHttpHeaders;
      body: string;
    }
    let server: Server;
    let base = '';
    const got: Received[] = [];

    beforeAll(async () => {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          got.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
          res.writeHead(200).end('ok');
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    });

    it('delivers order.cancelled, order.refunded and order.fulfilled signed, with their payloads', async () => {
      const s = await t.createShop();
      const sids = await importShop(s.admin);
      const secrets: Record<string, string> = {};
      for (const topic of ['order.cancelled', 'order.refunded', 'order.fulfilled']) {
        const w = (await s.admin.post('/admin/webhooks', { topic, address: `${base}/${topic}` }).expect(201)).body.webhook;
        secrets[topic] = w.secret;
      }
      const a = await placeOrder(t, s, sids, [[sids.variants['v-juice'], 2]], { paid: true });
      await s.admin
        .post(`/admin/orders/${a.order_id}/fulfillments`, { lines: [{ line_id: (await order(a.order_id, s)).line_items[0].id, quantity: 1 }] })
        .expect(201);
      await s.admin.post(`/admin/orders/${a.order_id}/refunds`, { amount: 1 }).expect(201);
      await s.admin.post(`/admin/orders/${a.order_id}/cancel`, { reason: 'fraud' }).expect(200);
      const all = await waitFor(
        () => got.filter((r) => r.body.includes(a.order_id)),
        (x) => x.length >= 4,
      );
      const byTopic = (topic: string) => all.filter((r) => r.headers['x-webhook-topic'] === topic).map((r) => ({ ...r, json: JSON.parse(r.body) }));
      expect(byTopic('order.fulfilled')).toHaveLength(1);
      expect(byTopic('order.refunded')).toHaveLength(2); // the partial refund and the cancellation's refund of the rest
      expect(byTopic('order.cancelled')).toHaveLength(1);
      for (const r of all) {
        const topic = String(r.headers['x-webhook-topic']);
        expect(r.path).toBe(`/${topic}`);
        const ts = String(r.headers['x-webhook-timestamp']);
        const expected = Buffer.from(`sha256=${createHmac('sha256', secrets[topic]).update(`${ts}.${r.body}`).digest('hex')}`);
        const given = Buffer.from(String(r.headers['x-webhook-signature']));
        expect(expected.length === given.length && timingSafeEqual(expected, given)).toBe(true);
      }
      expect(byTopic('order.cancelled')[0].json).toMatchObject({
        topic: 'order.cancelled',
        shop_id: s.tenant.id,
        data: { order: { id: a.order_id, reason: 'fraud', financial_status: 'refunded' }, refund: { amount: expect.any(Number) } },
      });
      expect(byTopic('order.fulfilled')[0].json.data).toMatchObject({
        order: { id: a.order_id, fulfillment_status: 'partial' },
        fulfillment: { lines: [{ quantity: 1 }] },
        notify_customer: false,
      });
      expect(byTopic('order.refunded').map((r) => r.json.data.refund.amount)).toContain(1);
    });
  });

  it('the OpenAPI document has the order routes', async () => {
    const doc = (await t.http().get('/api/2026-04-01/openapi.json').expect(200)).body;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/2026-04-01/admin/orders',
        '/api/2026-04-01/admin/orders/{id}',
        '/api/2026-04-01/admin/orders/{id}/cancel',
        '/api/2026-04-01/admin/orders/{id}/refunds',
        '/api/2026-04-01/admin/orders/{id}/fulfillments',
      ]),
    );
    expect(doc.components.schemas.AdminOrderDto.properties).toHaveProperty('transactions');
  });
});
