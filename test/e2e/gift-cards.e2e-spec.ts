import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, ShopClient, TestApp, TestShop } from '../helpers/test-app.js';
import { CH_ADDRESS, checkoutImport, checkoutWith, Ids, importShop } from './checkout.fixture.js';

type Row = { kind: string; amount: number; order_id: string | null };
const sum = (rows: Row[]) => Math.round(rows.reduce((a, r) => a + r.amount * 100, 0)) / 100;

/** Issue 33: gift cards and store credit on one append-only ledger, spent at checkout, returned on cancel and refund. */
describe('gift cards and store credit', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    ids = await importShop(shop.admin);
  });
  afterAll(() => t.close());

  const history = async (s: TestShop, id: string) => (await s.admin.get(`/admin/gift_cards/${id}/transactions`).expect(200)).body.transactions as Row[];
  const card = async (s: TestShop, id: string) => (await s.admin.get(`/admin/gift_cards/${id}`).expect(200)).body.gift_card;
  const ready = async (client: ShopClient, lines: Array<[string, number]>, s = shop, sids = ids) => {
    const c = await checkoutWith(client, lines);
    await client.put(`/checkouts/${c.id}`, { shipping_address: CH_ADDRESS, shipping_method_id: sids.shipping_methods.post }).expect(200);
    void s;
    return c.id as string;
  };

  it('staff CRUD: the code is shown once and stored hashed; history sums to the balance; adjustments never go below zero; delete expires the rest', async () => {
    const created = await shop.admin.post('/admin/gift_cards', { initial_value: 50, note: 'birthday' }).expect(201);
    const g = created.body.gift_card;
    expect(g).toMatchObject({ currency: 'CHF', initial_value: 50, balance: 50, note: 'birthday', disabled: false });
    expect(g.code).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    expect(g.last_characters).toBe(g.code.slice(-4));
    const [stored] = await t.db.query(`SELECT code_hash, last_characters FROM balance_accounts WHERE id = $1`, [g.id]);
    expect(stored.code_hash.toString('utf8')).not.toContain(g.code.replace(/-/g, ''));
    const listed = (await shop.admin.get('/admin/gift_cards').expect(200)).body.gift_cards;
    expect(listed.find((x: { id: string }) => x.id === g.id)).not.toHaveProperty('code');
    expect((await card(shop, g.id)).code).toBeUndefined();

    await shop.admin.post(`/admin/gift_cards/${g.id}/adjustments`, { amount: -20, note: 'damaged' }).expect(201);
    const over = await shop.admin.post(`/admin/gift_cards/${g.id}/adjustments`, { amount: -30.01 }).expect(422);
    expect(over.body.code).toBe('balance_insufficient');
    await shop.admin.post(`/admin/gift_cards/${g.id}/adjustments`, { amount: 0 }).expect(422);
    const put = await shop.admin.put(`/admin/gift_cards/${g.id}`, { note: 'changed', expires_at: '2030-01-01T00:00:00Z' }).expect(200);
    expect(put.body.gift_card).toMatchObject({ note: 'changed', expires_at: '2030-01-01T00:00:00.000Z', balance: 30 });
    expect((await history(shop, g.id)).map((r) => [r.kind, r.amount])).toEqual([
      ['issue', 50],
      ['adjust', -20],
    ]);
    await shop.admin.post('/admin/gift_cards', { initial_value: 0 }).expect(422);
    await shop.admin.post('/admin/gift_cards', { initial_value: 5, currency: 'XXX' }).expect(422);
    await shop.admin.post('/admin/gift_cards', { initial_value: 5, customer_id: '00000000-0000-4000-8000-000000000000' }).expect(422);
    const dup = await shop.admin.post('/admin/gift_cards', { initial_value: 5, code: g.code }).expect(422);
    expect(dup.body.errors).toContain('code');
    // the ledger is append-only
    await expect(t.db.query(`UPDATE balance_transactions SET amount = 1000 WHERE account_id = $1`, [g.id])).rejects.toThrow(/append-only/);

    await shop.admin.delete(`/admin/gift_cards/${g.id}`).expect(204);
    await shop.admin.delete(`/admin/gift_cards/${g.id}`).expect(404);
    const gone = await card(shop, g.id);
    expect(gone).toMatchObject({ disabled: true, balance: 0 });
    expect((await history(shop, g.id)).at(-1)).toMatchObject({ kind: 'expire', amount: -30 });
    const other = await t.createShop();
    await other.admin.get(`/admin/gift_cards/${g.id}`).expect(404);
    // balance check: unknown, disabled and live cards answer one shape
    const unknown = await shop.storefront.post('/gift_cards/balance', { code: 'AAAA-BBBB-CCCC-DDDD' }).expect(200);
    const disabled = await shop.storefront.post('/gift_cards/balance', { code: g.code }).expect(200);
    expect(unknown.body).toEqual({ gift_card: { balance: 0, currency: null, expires_at: null } });
    expect(disabled.body).toEqual(unknown.body);
    const live = (await shop.admin.post('/admin/gift_cards', { initial_value: 7.5 }).expect(201)).body.gift_card;
    const seen = await shop.storefront.post('/gift_cards/balance', { code: live.code.toLowerCase() }).expect(200);
    expect(seen.body.gift_card).toEqual({ balance: 7.5, currency: 'CHF', expires_at: null });
  });

  it('a checkout fully covered by gift cards completes without a payment provider; a cancel returns what it redeemed', async () => {
    const a = (await shop.admin.post('/admin/gift_cards', { initial_value: 40 }).expect(201)).body.gift_card;
    const b = (await shop.admin.post('/admin/gift_cards', { initial_value: 100 }).expect(201)).body.gift_card;
    const client = t.client(shop.storefront_token);
    const token = await ready(client, [[ids.variants['v-wine'], 2]]); // 59.30
    const bad = await client.post(`/checkouts/${token}/gift_cards`, { code: 'NOPE-NOPE-NOPE-NOPE' }).expect(422);
    expect(bad.body.code).toBe('gift_card_not_found');
    await client.post(`/checkouts/${token}/gift_cards`, { code: a.code }).expect(200);
    const both = (await client.post(`/checkouts/${token}/gift_cards`, { code: b.code }).expect(200)).body.checkout;
    expect(both.gift_cards.map((x: { id: string; amount: number }) => [x.id, x.amount])).toEqual([
      [a.id, 40],
      [b.id, 19.3],
    ]);
    expect(both.amount_due).toBe(0);
    const removed = (await client.delete(`/checkouts/${token}/gift_cards/${a.id}`).expect(200)).body.checkout;
    expect(removed.gift_cards.map((x: { amount: number }) => x.amount)).toEqual([59.3]);
    await client.delete(`/checkouts/${token}/gift_cards/${a.id}`).expect(404);
    // re-applied, it comes last: the cards pay in the order applied
    const again = (await client.post(`/checkouts/${token}/gift_cards`, { code: a.code }).expect(200)).body.checkout;
    expect(again.gift_cards.map((x: { id: string; amount: number }) => [x.id, x.amount])).toEqual([
      [b.id, 59.3],
      [a.id, 0],
    ]);
    await client.delete(`/checkouts/${token}/gift_cards/${b.id}`).expect(200);
    await client.post(`/checkouts/${token}/gift_cards`, { code: b.code }).expect(200);

    const done = await client.post(`/checkouts/${token}/complete`, { accepted_terms: true, age_confirmed: true }).expect(200);
    const orderId = done.body.checkout.order_id;
    const order = (await shop.admin.get(`/admin/orders/${orderId}`).expect(200)).body.order;
    expect(order).toMatchObject({ financial_status: 'paid', payment_status: 'paid', total: 59.3 });
    expect((await card(shop, a.id)).balance).toBe(0);
    expect((await card(shop, b.id)).balance).toBe(80.7);
    expect((await history(shop, b.id)).at(-1)).toMatchObject({ kind: 'redeem', amount: -19.3, order_id: orderId });
    await client.post(`/checkouts/${token}/gift_cards`, { code: a.code }).expect(409);

    await shop.admin.post(`/admin/orders/${orderId}/cancel`, {}).expect(200);
    const after = (await shop.admin.get(`/admin/orders/${orderId}`).expect(200)).body.order;
    expect(after).toMatchObject({ status: 'Cancelled', financial_status: 'refunded', refunded_amount: 59.3 });
    expect((await card(shop, a.id)).balance).toBe(40);
    expect((await card(shop, b.id)).balance).toBe(100);
    for (const g of [a, b]) expect(sum(await history(shop, g.id))).toBe((await card(shop, g.id)).balance);
  });

  it('a card paying part of an invoice order: the rest is due; a refund takes the provider money first, then refills the card', async () => {
    const g = (await shop.admin.post('/admin/gift_cards', { initial_value: 20 }).expect(201)).body.gift_card;
    const client = t.client(shop.storefront_token);
    const token = await ready(client, [[ids.variants['v-wine'], 2]]);
    const applied = (await client.post(`/checkouts/${token}/gift_cards`, { code: g.code }).expect(200)).body.checkout;
    expect(applied.amount_due).toBe(39.3);
    const none = await client.post(`/checkouts/${token}/complete`, { accepted_terms: true, age_confirmed: true }).expect(422);
    expect(none.body.code).toBe('payment_required');
    const done = await client
      .post(`/checkouts/${token}/complete`, { payment_type_id: ids.payment_types.invoice, accepted_terms: true, age_confirmed: true })
      .expect(200);
    const id = done.body.checkout.order_id;
    let order = (await shop.admin.get(`/admin/orders/${id}`).expect(200)).body.order;
    expect(order.financial_status).toBe('partially_paid');
    // both written in the placement's transaction (one timestamp): compare as a set
    expect(order.transactions.map((x: { kind: string; provider: string; amount: number }) => [x.kind, x.provider, x.amount]).sort()).toEqual([
      ['authorization', 'offline', 39.3],
      ['capture', 'gift_card', 20],
    ]);
    order = (await shop.admin.post(`/admin/orders/${id}/payments`, {}).expect(201)).body.order;
    expect(order.financial_status).toBe('paid');
    order = (await shop.admin.post(`/admin/orders/${id}/refunds`, { amount: 45 }).expect(201)).body.order;
    expect(order).toMatchObject({ financial_status: 'partially_refunded', refunded_amount: 45 });
    expect((await card(shop, g.id)).balance).toBe(5.7);
    order = (await shop.admin.post(`/admin/orders/${id}/refunds`, { amount: 14.3 }).expect(201)).body.order;
    expect(order.financial_status).toBe('refunded');
    expect((await card(shop, g.id)).balance).toBe(20);
    await shop.admin.post(`/admin/orders/${id}/refunds`, { amount: 0.01 }).expect(422);
  });

  it('store credit: issued by staff per currency, spent by the signed-in shopper, visible in the customer tier', async () => {
    const email = `credit-${Date.now()}@example.com`;
    await shop.storefront.post('/customers', { email, password: 'secret-pass-1', first_name: 'A', last_name: 'B' }).expect(201);
    const tok = (await shop.storefront.post('/customer/auth/token', { email, password: 'secret-pass-1' }).expect(200)).body.customer_access_token.access_token;
    const me = t.client(tok);
    const customerId = (await me.get('/customers/me').expect(200)).body.customer.id;
    const issued = await shop.admin.post(`/admin/customers/${customerId}/store_credit`, { amount: 15, note: 'goodwill' }).expect(201);
    expect(issued.body.store_credit).toEqual([{ currency: 'CHF', balance: 15 }]);
    const short = await shop.admin.post(`/admin/customers/${customerId}/store_credit`, { amount: -16 }).expect(422);
    expect(short.body.code).toBe('balance_insufficient');
    await shop.admin.post('/admin/customers/00000000-0000-4000-8000-000000000000/store_credit', { amount: 1 }).expect(404);
    expect((await me.get('/customers/me/store_credit').expect(200)).body.store_credit).toEqual([{ currency: 'CHF', balance: 15 }]);

    const guest = t.client(shop.storefront_token);
    const guestToken = await ready(guest, [[ids.variants['v-juice'], 1]]);
    await guest.post(`/checkouts/${guestToken}/store_credit`).expect(401);
    const token = await ready(me, [[ids.variants['v-juice'], 1]]); // 6.35 + 9.50
    const applied = (await me.post(`/checkouts/${token}/store_credit`).expect(200)).body.checkout;
    expect(applied.gift_cards).toMatchObject([{ kind: 'store_credit', last_characters: null, amount: 15 }]);
    expect(applied.amount_due).toBe(0.85);
    await me.post(`/checkouts/${token}/complete`, { payment_type_id: ids.payment_types.invoice, accepted_terms: true, age_confirmed: true }).expect(200);
    expect((await shop.admin.get(`/admin/customers/${customerId}/store_credit`).expect(200)).body.store_credit).toEqual([{ currency: 'CHF', balance: 0 }]);
  });

  it('export carries codes only as hashes with each ledger; import into another shop recreates the cards, once', async () => {
    const from = await t.createShop();
    const to = await t.createShop();
    await importShop(from.admin);
    await importShop(to.admin);
    const g = (await from.admin.post('/admin/gift_cards', { initial_value: 30, note: 'moving' }).expect(201)).body.gift_card;
    await from.admin.post(`/admin/gift_cards/${g.id}/adjustments`, { amount: -4.5 }).expect(201);
    const exported = (await from.admin.get('/admin/gift_cards/export').expect(200)).body.gift_cards;
    expect(exported).toHaveLength(1);
    expect(JSON.stringify(exported)).not.toContain(g.code.replace(/-/g, '').slice(0, 8));
    expect(exported[0]).toMatchObject({ last_characters: g.last_characters, currency: 'CHF', initial_value: 30, note: 'moving', disabled: false });
    expect(exported[0].transactions.map((x: Row) => [x.kind, x.amount])).toEqual([
      ['issue', 30],
      ['adjust', -4.5],
    ]);
    const first = await to.admin.post('/admin/gift_cards/import', { gift_cards: exported }).expect(200);
    expect(first.body.import).toEqual({ created: 1, unchanged: 0 });
    expect((await to.admin.post('/admin/gift_cards/import', { gift_cards: exported }).expect(200)).body.import).toEqual({ created: 0, unchanged: 1 });
    expect((await to.storefront.post('/gift_cards/balance', { code: g.code }).expect(200)).body.gift_card).toMatchObject({ balance: 25.5, currency: 'CHF' });
    const bad = await to.admin.post('/admin/gift_cards/import', { gift_cards: [{ ...exported[0], code_hash: 'A'.repeat(44) }] }).expect(422);
    expect(bad.body.errors).toContain('gift_cards[0].code_hash');
    await to.admin.post('/admin/gift_cards/import', { gift_cards: [{ ...exported[0], transactions: [{ kind: 'steal', amount: 1 }] }] }).expect(422);
  });

  it('store credit export names customers by e-mail with each ledger; import into another shop recreates it, once', async () => {
    const from = await t.createShop();
    const to = await t.createShop();
    await importShop(from.admin);
    await importShop(to.admin);
    const email = `Move-${Date.now()}@example.com`;
    const customer = async (s: TestShop, address: string) =>
      (await s.admin.post('/admin/customers', { email: address, first_name: 'M', last_name: 'V' }).expect(201)).body.customer.id as string;
    const a = await customer(from, email);
    await from.admin.post(`/admin/customers/${a}/store_credit`, { amount: 20, note: 'goodwill' }).expect(201);
    await from.admin.post(`/admin/customers/${a}/store_credit`, { amount: -5.25 }).expect(201);
    await from.admin.post(`/admin/customers/${a}/store_credit`, { amount: 7, currency: 'EUR' }).expect(201);
    const exported = (await from.admin.get('/admin/store_credit/export').expect(200)).body.store_credit;
    expect(exported).toMatchObject([
      {
        customer_email: email,
        customer_id: a,
        currency: 'CHF',
        balance: 14.75,
        transactions: [
          { kind: 'issue', amount: 20, note: 'goodwill' },
          { kind: 'adjust', amount: -5.25 },
        ],
      },
      { customer_email: email, currency: 'EUR', balance: 7, transactions: [{ kind: 'issue', amount: 7 }] },
    ]);
    // the customer must exist in the target shop (matched by e-mail, without case); nothing is written before that
    const missing = await to.admin.post('/admin/store_credit/import', { store_credit: exported }).expect(422);
    expect(missing.body.errors).toContain('store_credit[0].customer_email');
    const b = await customer(to, email.toLowerCase());
    expect((await to.admin.get(`/admin/customers/${b}/store_credit`).expect(200)).body.store_credit).toEqual([]);
    const first = await to.admin.post('/admin/store_credit/import', { store_credit: exported }).expect(200);
    expect(first.body.import).toEqual({ created: 2, unchanged: 0 });
    expect((await to.admin.post('/admin/store_credit/import', { store_credit: exported }).expect(200)).body.import).toEqual({ created: 0, unchanged: 2 });
    expect((await to.admin.get(`/admin/customers/${b}/store_credit`).expect(200)).body.store_credit).toEqual([
      { currency: 'CHF', balance: 14.75 },
      { currency: 'EUR', balance: 7 },
    ]);
    const again = (await to.admin.get('/admin/store_credit/export').expect(200)).body.store_credit;
    expect(again.map((x: { balance: number; transactions: Row[] }) => [x.balance, x.transactions.map((r) => [r.kind, r.amount])])).toEqual(
      exported.map((x: { balance: number; transactions: Row[] }) => [x.balance, x.transactions.map((r) => [r.kind, r.amount])]),
    );
    const row = { customer_email: email, currency: 'CHF', transactions: [{ kind: 'issue', amount: 1 }] };
    const neg = await to.admin.post('/admin/store_credit/import', { store_credit: [{ ...row, transactions: [{ kind: 'adjust', amount: -1 }] }] }).expect(422);
    expect(neg.body.errors).toContain('store_credit[0].transactions');
    const cur = await to.admin.post('/admin/store_credit/import', { store_credit: [{ ...row, currency: 'JPY' }] }).expect(422);
    expect(cur.body.errors).toContain('store_credit[0].currency');
    await to.admin.post('/admin/store_credit/import', { store_credit: [{ ...row, transactions: [{ kind: 'steal', amount: 1 }] }] }).expect(422);
    await to.admin.post('/admin/store_credit/import', { credit: [] }).expect(422);
  });

  it("one customer's store credit spent from two sessions at once: exactly as many orders as it covers, never below zero", async () => {
    const s = await t.createShop();
    const doc = checkoutImport({ juice: 10 });
    const sids = (await s.admin.post('/admin/catalogue/import', { ...doc, shipping_methods: [] }).expect(200)).body.import.ids as Ids;
    const email = `two-${Date.now()}@example.com`;
    await s.storefront.post('/customers', { email, password: 'secret-pass-1', first_name: 'T', last_name: 'S' }).expect(201);
    const session = async () =>
      t.client((await s.storefront.post('/customer/auth/token', { email, password: 'secret-pass-1' }).expect(200)).body.customer_access_token.access_token);
    const [one, two] = [await session(), await session()];
    const customerId = (await one.get('/customers/me').expect(200)).body.customer.id;
    await s.admin.post(`/admin/customers/${customerId}/store_credit`, { amount: 35 }).expect(201);
    await one.post('/cart/items', { article_id: sids.variants['v-juice'], quantity: 1 }).expect((r) => expect(r.status).toBeLessThan(300));
    const tokens: Array<{ client: ShopClient; token: string }> = [];
    for (let i = 0; i < 8; i++) {
      const client = i % 2 === 0 ? one : two;
      const token = (await client.post('/checkouts').expect(200)).body.checkout.id as string;
      expect((await client.post(`/checkouts/${token}/store_credit`).expect(200)).body.checkout.amount_due).toBe(0);
      tokens.push({ client, token });
    }
    const results = await Promise.all(
      tokens.map(({ client, token }) => client.post(`/checkouts/${token}/complete`, { accepted_terms: true, age_confirmed: true })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    for (const r of results.filter((x) => x.status !== 200)) expect([r.status, r.body.code]).toEqual([422, 'payment_required']);
    expect((await one.get('/customers/me/store_credit').expect(200)).body.store_credit).toEqual([{ currency: 'CHF', balance: 5 }]);
    const [sum] = await t.db.query(`SELECT sum(amount)::float AS s FROM balance_transactions WHERE tenant_id = $1`, [s.tenant.id]);
    expect(sum.s).toBe(5);
  });

  it('100 checkouts redeeming one card of 100.00 for 10.00 each, with 20 staff adjustments at once: never below zero, the ledger is the balance, exactly as many orders as it allows', async () => {
    const s = await t.createShop();
    const doc = checkoutImport({ juice: 10 });
    const sids = (await s.admin.post('/admin/catalogue/import', { ...doc, shipping_methods: [] }).expect(200)).body.import.ids as Ids;
    const g = (await s.admin.post('/admin/gift_cards', { initial_value: 100 }).expect(201)).body.gift_card;
    const tokens: Array<{ client: ShopClient; token: string }> = [];
    for (let batch = 0; batch < 10; batch++) {
      tokens.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, async () => {
            const client = t.client(s.storefront_token);
            const c = await checkoutWith(client, [[sids.variants['v-juice'], 1]]);
            const view = (await client.post(`/checkouts/${c.id}/gift_cards`, { code: g.code }).expect(200)).body.checkout;
            expect(view.amount_due).toBe(0);
            return { client, token: c.id as string };
          }),
        )),
      );
    }
    const results = await Promise.all([
      ...tokens.map(({ client, token }) => client.post(`/checkouts/${token}/complete`, { accepted_terms: true, age_confirmed: true })),
      ...Array.from({ length: 20 }, () => s.admin.post(`/admin/gift_cards/${g.id}/adjustments`, { amount: -1 })),
    ]);
    const orders = results.slice(0, 100);
    const adjustments = results.slice(100);
    for (const r of orders) {
      if (r.status !== 200) {
        expect(r.status).toBe(422);
        expect(r.body.code).toBe('payment_required');
      }
    }
    for (const r of adjustments) if (r.status !== 201) expect(r.body.code).toBe('balance_insufficient');
    const won = orders.filter((r) => r.status === 200).length;
    const adjusted = adjustments.filter((r) => r.status === 201).length;
    const final = (await card(s, g.id)).balance;
    const rows = await history(s, g.id);
    expect(final).toBeGreaterThanOrEqual(0);
    expect(final).toBeLessThan(10); // every order was tried after the card fell below 10, or the card is spent
    expect(sum(rows)).toBe(final);
    expect(won * 10 + adjusted + final).toBe(100);
    expect(rows.filter((r) => r.kind === 'redeem')).toHaveLength(won);
    // a running sum of the ledger in order never goes below zero
    let running = 0;
    for (const r of rows) {
      running = Math.round((running + r.amount) * 100) / 100;
      expect(running).toBeGreaterThanOrEqual(0);
    }
    const paid = await t.db.query(`SELECT count(*)::int AS n FROM orders WHERE tenant_id = $1 AND financial_status = 'paid'`, [s.tenant.id]);
    expect(paid[0].n).toBe(won);
  }, 300_000);
});
