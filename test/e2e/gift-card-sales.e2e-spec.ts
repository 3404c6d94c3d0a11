import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GiftCardSalesHandler } from '../../src/checkout/gift-card-sales.handler.js';
import { RequestContext } from '../../src/common/context/request-context.js';
import { MemoryMailTransport } from '../../src/customers/mail/mail-transport.js';
import { MailTransportOverrideModule } from '../../src/customers/mail/mail.module.js';
import type { DomainEvent } from '../../src/events/index.js';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { Ids, importShop } from './checkout.fixture.js';
import { placeOrder, waitFor } from './orders.fixture.js';

/** Issue 33: a variant flagged `gift_card` sells gift cards: one per unit, issued and mailed once the order is paid. */
describe('gift cards sold as products', () => {
  const mail = new MemoryMailTransport();
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;
  let product: string;
  let voucher: string;

  beforeAll(async () => {
    t = await createTestApp({ config: { WEBHOOK_POLL_MS: 50 }, imports: [MailTransportOverrideModule.use(mail)] });
    shop = await t.createShop();
    ids = await importShop(shop.admin);
    const created = await shop.admin
      .post('/admin/products', {
        title: 'Gift card',
        published: true,
        variants: [{ key: 'gc-50', title: '50 CHF', price: 50, tax_rate: 0, track_inventory: false, gift_card: true }],
      })
      .expect(201);
    product = created.body.product.id;
    voucher = created.body.product.variants[0].id;
    expect(created.body.product.variants[0]).toMatchObject({ gift_card: true, price: 50 });
  });
  afterAll(() => t.close());

  const order = async (id: string) => (await shop.admin.get(`/admin/orders/${id}`).expect(200)).body.order;
  const cardsOf = async (orderId: string) =>
    (
      await t.db.query(`SELECT id FROM balance_accounts WHERE tenant_id = $1 AND order_line_id IN (SELECT id FROM order_lines WHERE order_id = $2)`, [
        shop.tenant.id,
        orderId,
      ])
    ).length as number;
  const mails = (orderId: string) => mail.outbox.filter((m) => m.kind === 'gift_card_issued' && m.data?.order_id === orderId);
  const paidEvent = (orderId: string, tenantId = shop.tenant.id): DomainEvent<'order.paid'> => ({
    id: '00000000-0000-4000-8000-000000000000',
    tenantId,
    topic: 'order.paid',
    occurredAt: new Date(),
    payload: {
      order: { id: orderId, number: '0', total: 0, currency: 'CHF', financial_status: 'paid', paid_amount: 0 },
      payment: { id: orderId, kind: 'manual', amount: 0, reference: null },
    },
  });

  it('the flag is a variant member: PUT changes it, other variants are false, the export carries it', async () => {
    const wine = (await shop.admin.get(`/admin/products/${ids.products['p-wine']}`).expect(200)).body.product.variants[0];
    expect(wine.gift_card).toBe(false);
    const off = await shop.admin.put(`/admin/products/${product}/variants/${voucher}`, { gift_card: false }).expect(200);
    expect(off.body.variant.gift_card).toBe(false);
    const nul = await shop.admin.put(`/admin/products/${product}/variants/${voucher}`, { gift_card: null }).expect(200);
    expect(nul.body.variant.gift_card).toBe(false); // null leaves it unchanged
    await shop.admin.put(`/admin/products/${product}/variants/${voucher}`, { gift_card: 'yes' }).expect(422);
    const on = await shop.admin.put(`/admin/products/${product}/variants/${voucher}`, { gift_card: true }).expect(200);
    expect(on.body.variant.gift_card).toBe(true);
    const doc = (await shop.admin.get('/admin/catalogue/export').expect(200)).body;
    const variants = (doc.products as Array<{ variants: Array<{ key: string; gift_card: boolean }> }>).flatMap((p) => p.variants);
    expect(variants.find((v) => v.key === 'gc-50')!.gift_card).toBe(true);
    expect(variants.find((v) => v.key === 'v-wine')!.gift_card).toBe(false);
    // and an import of it into another shop keeps the flag
    const copy = await t.createShop();
    const imported = await copy.admin.post('/admin/catalogue/import', doc).expect(200);
    const copiedId = imported.body.import.ids.variants['gc-50'];
    const row = await t.db.query(`SELECT gift_card FROM variants WHERE tenant_id = $1 AND id = $2`, [copy.tenant.id, copiedId]);
    expect(row).toEqual([{ gift_card: true }]);
  });

  it('bought by invoice: nothing until the order is paid, then one card per unit, mailed once, the gift card line fulfilled by e-mail', async () => {
    const placed = await placeOrder(t, shop, ids, [
      [voucher, 2],
      [ids.variants['v-wine'], 1],
    ]); // 2 × 50 + 24.90 + 9.50 shipping = 134.40
    const line = (await order(placed.order_id)).line_items.find((l: { variant_id: string }) => l.variant_id === voucher);
    await shop.admin.post(`/admin/orders/${placed.order_id}/payments`, { amount: 100, kind: 'manual' }).expect(201);
    await new Promise((r) => setTimeout(r, 500));
    expect(await cardsOf(placed.order_id)).toBe(0); // partially paid: nothing issued yet
    expect(mails(placed.order_id)).toHaveLength(0);

    await shop.admin.post(`/admin/orders/${placed.order_id}/payments`, { kind: 'manual', reference: 'BANK-2' }).expect(201);
    const sent = await waitFor(
      () => mails(placed.order_id),
      (m) => m.length > 0,
    );
    // the mail leaves just before the handler's transaction commits the cards
    await waitFor(
      () => cardsOf(placed.order_id),
      (n) => n === 2,
    );
    expect(sent[0]).toMatchObject({ to: 'anna@example.ch', subject: `Your 2 gift cards (order ${placed.order_number})` });
    const codes = sent[0].data!.codes.split(',');
    expect(codes).toHaveLength(2);
    expect(new Set(codes).size).toBe(2);
    for (const code of codes) {
      expect(sent[0].text).toContain(code);
      const balance = await t.client(shop.storefront_token).post('/gift_cards/balance', { code }).expect(200);
      expect(balance.body.gift_card).toMatchObject({ balance: 50, currency: 'CHF' });
    }
    const cardIds = sent[0].data!.gift_card_ids.split(',');
    for (const id of cardIds) {
      const card = (await shop.admin.get(`/admin/gift_cards/${id}`).expect(200)).body.gift_card;
      expect(card).toMatchObject({ initial_value: 50, balance: 50, currency: 'CHF', last_characters: expect.any(String) });
      const rows = (await shop.admin.get(`/admin/gift_cards/${id}/transactions`).expect(200)).body.transactions;
      expect(rows).toMatchObject([{ kind: 'issue', amount: 50, order_id: placed.order_id }]);
    }
    // the gift card line needs no shipping: fulfilled by e-mail; the wine waits for its shipment
    const after = await waitFor(
      () => order(placed.order_id),
      (o) => o.fulfillments.length > 0,
    );
    expect(after).toMatchObject({ financial_status: 'paid', fulfillment_status: 'partial' });
    expect(after.fulfillments).toMatchObject([{ carrier: 'email', lines: [{ line_id: line.id, quantity: 2 }] }]);

    // the outbox delivers at least once: the handler running again issues and mails nothing more
    await t.get(GiftCardSalesHandler).issue(paidEvent(placed.order_id), RequestContext.forTenant(shop.tenant.id));
    expect(await cardsOf(placed.order_id)).toBe(2);
    expect(mails(placed.order_id)).toHaveLength(1);
    expect((await order(placed.order_id)).fulfillments).toHaveLength(1);
    // a foreign tenant's event names no order of that shop: nothing
    const other = await t.createShop();
    await t.get(GiftCardSalesHandler).issue(paidEvent(placed.order_id, other.tenant.id), RequestContext.forTenant(other.tenant.id));
    expect(await cardsOf(placed.order_id)).toBe(2);
  });

  it('a mail that failed is sent again with the same codes; the cards are not issued twice', async () => {
    const placed = await placeOrder(t, shop, ids, [[voucher, 1]]);
    const send = mail.send.bind(mail);
    let failures = 1;
    mail.send = async (m) => {
      if (m.kind === 'gift_card_issued' && failures-- > 0) throw new Error('smtp down');
      return send(m);
    };
    try {
      await shop.admin.post(`/admin/orders/${placed.order_id}/payments`, { kind: 'manual' }).expect(201);
      const sent = await waitFor(
        () => mails(placed.order_id),
        (m) => m.length > 0,
        30_000,
      );
      expect(failures).toBeLessThan(0);
      expect(sent).toHaveLength(1);
      await waitFor(
        () => cardsOf(placed.order_id),
        (n) => n === 1,
      );
      const balance = await t.client(shop.storefront_token).post('/gift_cards/balance', { code: sent[0].data!.codes }).expect(200);
      expect(balance.body.gift_card.balance).toBe(50);
    } finally {
      mail.send = send;
    }
  });

  it('a refund of a gift card unit disables its card (what is left expires); a cancel disables the rest', async () => {
    const placed = await placeOrder(t, shop, ids, [
      [voucher, 2],
      [ids.variants['v-wine'], 1],
    ]);
    const line = (await order(placed.order_id)).line_items.find((l: { variant_id: string }) => l.variant_id === voucher);
    await shop.admin.post(`/admin/orders/${placed.order_id}/payments`, { kind: 'manual' }).expect(201);
    await waitFor(
      () => cardsOf(placed.order_id),
      (n) => n === 2,
    );
    const live = async () =>
      (
        await t.db.query(`SELECT order_unit FROM balance_accounts WHERE tenant_id = $1 AND order_line_id = $2 AND disabled_at IS NULL ORDER BY order_unit`, [
          shop.tenant.id,
          line.id,
        ])
      ).map((r: { order_unit: number }) => r.order_unit);
    const [second] = await t.db.query(`SELECT id FROM balance_accounts WHERE tenant_id = $1 AND order_line_id = $2 AND order_unit = 2`, [
      shop.tenant.id,
      line.id,
    ]);
    await shop.admin.post(`/admin/orders/${placed.order_id}/refunds`, { lines: [{ line_id: line.id, quantity: 1, restock: false }] }).expect(201);
    await waitFor(live, (units) => units.length === 1);
    expect(await live()).toEqual([1]);
    const revoked = (await shop.admin.get(`/admin/gift_cards/${second.id}`).expect(200)).body.gift_card;
    expect(revoked).toMatchObject({ disabled: true, balance: 0 });
    const rows = (await shop.admin.get(`/admin/gift_cards/${second.id}/transactions`).expect(200)).body.transactions;
    expect(rows.map((r: { kind: string; amount: number }) => [r.kind, r.amount])).toEqual([
      ['issue', 50],
      ['expire', -50],
    ]);
    // the wine is still unshipped, so the order can be cancelled: every card of it is disabled
    await shop.admin.post(`/admin/orders/${placed.order_id}/cancel`, {}).expect(200);
    await waitFor(live, (units) => units.length === 0);
    // and the paid handler running late issues nothing again
    await t.get(GiftCardSalesHandler).issue(paidEvent(placed.order_id), RequestContext.forTenant(shop.tenant.id));
    expect(await live()).toEqual([]);
    expect(await cardsOf(placed.order_id)).toBe(2);
  });

  it('an order cancelled before payment issues nothing, even if a late order.paid arrives', async () => {
    const placed = await placeOrder(t, shop, ids, [[voucher, 1]]);
    const line = (await order(placed.order_id)).line_items[0];
    // a refund before payment is refused (nothing was paid), so it cannot issue or revoke anything either
    const early = await shop.admin.post(`/admin/orders/${placed.order_id}/refunds`, { lines: [{ line_id: line.id, quantity: 1, restock: false }] }).expect(422);
    expect(early.body.code).toBe('refund_exceeds_paid');
    await shop.admin.post(`/admin/orders/${placed.order_id}/cancel`, {}).expect(200);
    await shop.admin.post(`/admin/orders/${placed.order_id}/payments`, { kind: 'manual' }).expect(409);
    await t.get(GiftCardSalesHandler).issue(paidEvent(placed.order_id), RequestContext.forTenant(shop.tenant.id));
    await new Promise((r) => setTimeout(r, 300));
    expect(await cardsOf(placed.order_id)).toBe(0);
    expect(mails(placed.order_id)).toHaveLength(0);
  });

  it('paid at once by card: the card is issued after the provider confirms, not at placement', async () => {
    const placed = await placeOrder(t, shop, ids, [[voucher, 1]], { pay: 'card' });
    await new Promise((r) => setTimeout(r, 300));
    expect(await cardsOf(placed.order_id)).toBe(0);
    await t.http().post(`/storefront/payments/test/${placed.order_id}/pay?hash=${encodeURIComponent(placed.hash)}`);
    await waitFor(
      () => mails(placed.order_id),
      (m) => m.length > 0,
    );
    await waitFor(
      () => cardsOf(placed.order_id),
      (n) => n === 1,
    );
  });
});
