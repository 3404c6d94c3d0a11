/**
 * Promotions in the checkout and on orders (issue 32), through the storefront and admin HTTP API: shipping
 * promotions by zone (country) and method, the shipping-country and first-order conditions, what placement keeps
 * (receipt, admin order, completed checkout), refunds of discounted lines, and the usage limits under 20 concurrent
 * completions.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, TestApp } from '../helpers/test-app.js';
import { statementsDuring } from '../helpers/statements.js';
import { pay } from './orders.fixture.js';
import { ADDRESS, checkoutTo, complete, fill, promoShop } from './promotions.fixture.js';

const cents = (x: number) => Math.round(x * 100);

describe('promotions in the checkout and on orders', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('free shipping by zone: free to CH, paid to DE; the shipping part shows in discounts and comes off shipping_amount', async () => {
    const p = await promoShop(t);
    const promo = await p.promote({
      name: 'Free shipping in CH from 50',
      conditions: [{ type: 'min_subtotal', amount: 50 }],
      actions: [{ type: 'shipping', countries: ['CH'] }],
    });
    const ch = p.visitor();
    await fill(ch, [[p.ids.variants['v-barolo'], 2]]);
    const toCh = await checkoutTo(p, ch, 'CH');
    expect(toCh.totals.shipping_amount).toBe(0);
    expect(toCh.totals.discount).toBe(0);
    expect(toCh.totals.discounts).toEqual([{ promotion_id: promo.id, name: promo.name, kind: 'shipping', amount: 10, lines_amount: 0, shipping_amount: 10 }]);
    expect(toCh.totals.total).toBe(60);
    const de = p.visitor();
    await fill(de, [[p.ids.variants['v-barolo'], 2]]);
    const toDe = await checkoutTo(p, de, 'DE');
    expect(toDe.totals.shipping_amount).toBe(10);
    expect(toDe.totals.discounts).toEqual([]);
    expect(toDe.totals.total).toBe(70);
  });

  it('shipping zones: free shipping into a zone (the action), and a line promotion for a zone with a postcode range (the condition)', async () => {
    const p = await promoShop(t);
    await p.shop.admin.post('/admin/tax_zones', { name: 'Alps', key: 'alps', countries: ['CH'] }).expect(201);
    const zurich = (await p.shop.admin.post('/admin/tax_zones', { name: 'Zurich', key: 'zurich', postcodes: [{ country: 'CH', pattern: '80*' }] }).expect(201))
      .body.tax_zone;
    const free = await p.promote({ name: 'Free shipping in the Alps', combines_with: { product: true }, actions: [{ type: 'shipping', zones: ['alps'] }] });
    expect(free.actions).toEqual([{ type: 'shipping', percent: 100, amount: null, method_ids: [], countries: [], zones: ['alps'] }]);
    await p.promote({
      name: 'Zurich 10%',
      combines_with: { shipping: true },
      conditions: [{ type: 'shipping_zone', zones: [zurich.id] }],
      actions: [{ type: 'percent_off_lines', percent: 10 }],
    });
    const a = p.visitor();
    await fill(a, [[p.ids.variants['v-barolo'], 1]]);
    const inZurich = await checkoutTo(p, a, 'CH');
    expect(inZurich.totals.shipping_amount).toBe(0);
    expect(inZurich.totals.discount).toBe(3);
    const b = p.visitor();
    await fill(b, [[p.ids.variants['v-barolo'], 1]]);
    const c = (await b.post('/checkouts').expect(200)).body.checkout;
    const bern = (
      await b
        .put(`/checkouts/${c.id}`, {
          shipping_address: { ...ADDRESS, zip_code: '3000', country_code: 'CH', email: 'b@example.ch' },
          shipping_method_id: p.ids.shipping_methods.post,
        })
        .expect(200)
    ).body.checkout;
    expect(bern.totals.shipping_amount).toBe(0);
    expect(bern.totals.discount).toBe(0);
    const d = p.visitor();
    await fill(d, [[p.ids.variants['v-barolo'], 1]]);
    expect((await checkoutTo(p, d, 'DE')).totals.shipping_amount).toBe(10);
  });

  it('discounted shipping by method, and the shipping_country condition on a line promotion', async () => {
    const p = await promoShop(t);
    await p.promote({ name: 'Express half price', actions: [{ type: 'shipping', percent: 50, method_ids: [p.ids.shipping_methods['express']] }] });
    await p.promote({
      name: 'Germany 10% off reds',
      conditions: [{ type: 'shipping_country', countries: ['DE'] }],
      actions: [{ type: 'percent_off_lines', percent: 10 }],
    });
    const a = p.visitor();
    await fill(a, [[p.ids.variants['v-barolo'], 1]]);
    const express = await checkoutTo(p, a, 'CH', 'express');
    expect(express.totals.shipping_amount).toBe(10);
    expect(express.totals.discount).toBe(0);
    const post = await checkoutTo(p, a, 'CH', 'post');
    expect(post.totals.shipping_amount).toBe(10);
    const b = p.visitor();
    await fill(b, [[p.ids.variants['v-barolo'], 1]]);
    const de = await checkoutTo(p, b, 'DE');
    expect(de.totals.discount).toBe(3);
    expect(de.line_items[0].promotions).toEqual([expect.objectContaining({ amount: 3 })]);
    expect(de.totals.subtotal).toBe(27);
    expect(de.totals.total).toBe(37);
  });

  it('placement keeps what was applied: receipt, admin order and the completed checkout show the promotions; the totals add up', async () => {
    const p = await promoShop(t);
    const lines = await p.promote({
      name: '20% Barolo',
      combines_with: { order: true },
      conditions: [{ type: 'lines', selector: [{ type: 'product', ids: [p.ids.products['p-barolo']] }] }],
      actions: [{ type: 'percent_off_lines', percent: 20 }],
    });
    const order = await p.promote({ name: '5 off the order', combines_with: { product: true }, actions: [{ type: 'fixed_off_order', amount: 5 }] });
    const v = p.visitor();
    await fill(v, [
      [p.ids.variants['v-barolo'], 2],
      [p.ids.variants['v-cheap'], 1],
    ]);
    const c = await checkoutTo(p, v, 'CH');
    // 70.00: Barolo 60 - 12; then 5.00 off the 58 left; shipping 10
    expect(c.totals.subtotal_before_discount).toBe(70);
    expect(c.totals.discount).toBe(17);
    expect(c.totals.subtotal).toBe(53);
    expect(c.totals.total).toBe(63);
    const sum = (xs: Array<{ amount: number }> = []) => xs.reduce((a, x) => a + cents(x.amount), 0);
    expect(c.line_items.reduce((a, l) => a + sum(l.promotions), 0)).toBe(1700);
    const placed = (await complete(p, v, c.id).expect(200)).body.checkout;
    const receipt = (await v.get(`/orders/${placed.order_id}?hash=${encodeURIComponent(placed.hash)}`).expect(200)).body.order;
    expect(receipt.discount).toBe(17);
    expect(receipt.subtotal).toBe(70);
    expect(receipt.total).toBe(63);
    expect(receipt.discounts.map((d: { promotion_id: string }) => d.promotion_id).sort()).toEqual([lines.id, order.id].sort());
    const barolo = receipt.line_items.find((l: { variant_id: string }) => l.variant_id === p.ids.variants['v-barolo']);
    expect(barolo.promotions).toEqual(expect.arrayContaining([{ promotion_id: lines.id, name: '20% Barolo', amount: 12 }]));
    const admin = (await p.shop.admin.get(`/admin/orders/${placed.order_id}`).expect(200)).body.order;
    expect(admin.discounts).toEqual(receipt.discounts);
    expect(admin.line_items).toEqual(receipt.line_items);
    const done = (await v.get(`/checkouts/${c.id}`).expect(200)).body.checkout;
    expect(done.totals.discounts).toEqual(receipt.discounts);
    expect(done.line_items.map((l: { promotions: unknown }) => l.promotions)).toEqual(c.line_items.map((l) => l.promotions));
    // the uses were counted
    expect((await p.shop.admin.get(`/admin/promotions/${lines.id}`).expect(200)).body.promotion.times_used).toBe(1);
  });

  it('refunding a discounted line refunds what it cost after its promotions and its share of the coupon', async () => {
    const p = await promoShop(t);
    await p.promote({
      name: '20% Barolo',
      combines_with: { discount_codes: true },
      conditions: [{ type: 'lines', selector: [{ type: 'product', ids: [p.ids.products['p-barolo']] }] }],
      actions: [{ type: 'percent_off_lines', percent: 20 }],
    });
    await p.shop.admin.post('/admin/discount_codes', { code: 'TEN', type: 'value', value: 10, is_active: true, is_infinite: true }).expect(201);
    const v = p.visitor();
    await fill(v, [
      [p.ids.variants['v-barolo'], 2],
      [p.ids.variants['v-langhe'], 2],
    ]);
    await v.post('/cart/discount_code', { code: 'TEN' }).expect(200);
    const c = await checkoutTo(p, v, 'CH');
    // 100.00: Barolo 60 - 12 = 48, Langhe 40; the coupon 10.00 on the 88 left
    expect(c.totals.discount).toBe(22);
    const placed = (await complete(p, v, c.id, 'card').expect(200)).body.checkout;
    await pay(t, placed);
    const order = (await p.shop.admin.get(`/admin/orders/${placed.order_id}`).expect(200)).body.order;
    const barolo = order.line_items.find((l: { variant_id: string }) => l.variant_id === p.ids.variants['v-barolo']);
    const refund = (await p.shop.admin.post(`/admin/orders/${placed.order_id}/refunds`, { lines: [{ line_id: barolo.id, quantity: 1 }] }).expect(201)).body
      .order;
    // one Barolo: (60 - 12) / 2 = 24.00, less its share of the coupon: 24 x 78 / 88 = 21.27
    expect(refund.refunded_amount).toBe(21.27);
  });

  it('a discount code that no longer applies does not set aside the promotions that do not combine with codes', async () => {
    const p = await promoShop(t);
    await p.promote({ name: '10%', actions: [{ type: 'percent_off_order', percent: 10 }] });
    await p.shop.admin.post('/admin/discount_codes', { code: 'BIG', type: 'value', value: 5, is_active: true, is_infinite: true, min_value: 50 }).expect(201);
    const v = p.visitor();
    await fill(v, [[p.ids.variants['v-barolo'], 2]]);
    expect(((await v.post('/cart/discount_code', { code: 'BIG' }).expect(200)).body.cart as { total_discount: number }).total_discount).toBe(5);
    const c = await checkoutTo(p, v, 'CH');
    expect(c.totals.discount).toBe(5); // the code applies: the 10% stands aside
    await p.shop.admin
      .put(`/admin/discount_codes/${(await p.shop.admin.get('/admin/discount_codes').expect(200)).body.discount_codes[0].id}`, { min_value: 500 })
      .expect(200);
    const after = (await v.get(`/checkouts/${c.id}`).expect(200)).body.checkout;
    expect(after.totals.coupon_text).toBeNull();
    expect(after.totals.discount).toBe(6);
  });

  it('first order: a shopper without an order gets it, and no longer after the first order', async () => {
    const p = await promoShop(t);
    await p.promote({ name: 'Welcome 10%', conditions: [{ type: 'first_order' }], actions: [{ type: 'percent_off_order', percent: 10 }] });
    const c = p.visitor();
    await c.post('/customers', { email: 'new@example.ch', password: 'correct horse battery' }).expect(201);
    const token = (await c.post('/customer/auth/token', { email: 'new@example.ch', password: 'correct horse battery' }).expect(200)).body.customer_access_token
      .access_token;
    const me = t.client(token);
    expect((await fill(p.visitor(), [[p.ids.variants['v-barolo'], 1]])).total_discount).toBe(0); // a guest
    expect((await fill(me, [[p.ids.variants['v-barolo'], 1]])).total_discount).toBe(3);
    const checkout = await checkoutTo(p, me, 'CH', 'post', 'new@example.ch');
    expect(checkout.totals.discount).toBe(3);
    await complete(p, me, checkout.id).expect(200);
    expect((await fill(me, [[p.ids.variants['v-barolo'], 1]])).total_discount).toBe(0);
  });

  it('usage_limit holds under 20 concurrent completions: exactly 5 orders get the promotion, the others are refused', async () => {
    const p = await promoShop(t);
    const promo = await p.promote({ name: 'First five', usage_limit: 5, actions: [{ type: 'percent_off_order', percent: 10 }] });
    const buyers = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const v = p.visitor();
        await fill(v, [[p.ids.variants['v-barolo'], 1]]);
        return { v, c: await checkoutTo(p, v, 'CH') };
      }),
    );
    expect(buyers.every((b) => b.c.totals.discount === 3)).toBe(true);
    const results = await Promise.all(buyers.map((b) => complete(p, b.v, b.c.id)));
    // exactly 5 orders took it; every other buyer was shown it and is refused, whether racing the fifth use or coming
    // after it: no order is placed at a total its buyer was not shown
    expect(results.filter((r) => r.status === 200).length).toBe(5);
    for (const r of results.filter((x) => x.status !== 200)) expect([r.status, r.body.code]).toEqual([422, 'promotion_usage_limit_reached']);
    expect((await p.shop.admin.get(`/admin/promotions/${promo.id}`).expect(200)).body.promotion.times_used).toBe(5);
    const orders = (await p.shop.admin.get('/admin/orders?limit=50').expect(200)).body.orders as Array<{ id: string }>;
    expect(orders.length).toBe(5);
    for (const o of orders) expect((await p.shop.admin.get(`/admin/orders/${o.id}`).expect(200)).body.order.discounts?.[0]?.amount).toBe(3);
    // used up: a refused buyer's re-read shows the full price, and completing then places the order at it
    const again = buyers.find((_, i) => results[i].status !== 200)!;
    const reread = (await again.v.get(`/checkouts/${again.c.id}`).expect(200)).body.checkout;
    expect([reread.totals.discount, reread.totals.discounts]).toEqual([0, undefined]);
    await complete(p, again.v, again.c.id).expect(200);
    const late = p.visitor();
    await fill(late, [[p.ids.variants['v-barolo'], 1]]);
    expect((await checkoutTo(p, late, 'CH')).totals.discount).toBe(0);
  });

  it('usage_limit_per_customer: the same buyer (by email for guests) gets it once, even racing', async () => {
    const p = await promoShop(t);
    const promo = await p.promote({ name: 'Once each', usage_limit_per_customer: 1, actions: [{ type: 'fixed_off_order', amount: 5 }] });
    const racers = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const v = p.visitor();
        await fill(v, [[p.ids.variants['v-barolo'], 1]]);
        return { v, c: await checkoutTo(p, v, 'CH', 'post', 'same@example.ch') };
      }),
    );
    const results = await Promise.all(racers.map((r) => complete(p, r.v, r.c.id)));
    // once for this buyer: one order took it; every other completion of the same buyer, racing or after, is refused
    expect(results.filter((r) => r.status === 200).length).toBe(1);
    for (const r of results.filter((x) => x.status !== 200)) expect([r.status, r.body.code]).toEqual([422, 'promotion_usage_limit_reached']);
    expect((await p.shop.admin.get(`/admin/promotions/${promo.id}`).expect(200)).body.promotion.times_used).toBe(1);
    const other = p.visitor();
    await fill(other, [[p.ids.variants['v-barolo'], 1]]);
    const c = await checkoutTo(p, other, 'CH', 'post', 'someone.else@example.ch');
    expect(c.totals.discount).toBe(5);
    const used = p.visitor();
    await fill(used, [[p.ids.variants['v-barolo'], 1]]);
    expect((await checkoutTo(p, used, 'CH', 'post', 'SAME@example.ch')).totals.discount).toBe(0);
  });

  it('a promotion the buyer was shown and that ended before the completion: 422 promotion_unavailable, nothing placed; the re-read total is the one charged', async () => {
    const p = await promoShop(t);
    const promo = await p.promote({ name: 'Weekend 10%', actions: [{ type: 'percent_off_order', percent: 10 }] });
    const v = p.visitor();
    await fill(v, [[p.ids.variants['v-barolo'], 2]]);
    const shown = await checkoutTo(p, v, 'CH');
    expect(shown.totals.discount).toBe(6);
    await p.shop.admin.put(`/admin/promotions/${promo.id}`, { enabled: false }).expect(200);
    const refused = await complete(p, v, shown.id).expect(422);
    expect(refused.body.code).toBe('promotion_unavailable');
    expect(JSON.stringify(refused.body.errors)).toContain('Weekend 10%');
    expect((await p.shop.admin.get('/admin/orders').expect(200)).body.orders).toEqual([]);
    // refused again until the buyer reads the checkout: then the new total is what completing charges
    await complete(p, v, shown.id).expect(422);
    const reread = (await v.get(`/checkouts/${shown.id}`).expect(200)).body.checkout;
    expect(reread.totals.discount).toBe(0);
    expect(reread.totals.total).toBe(shown.totals.total + 6);
    const placed = (await complete(p, v, shown.id).expect(200)).body.checkout;
    const order = (await v.get(`/orders/${placed.order_id}?hash=${encodeURIComponent(placed.hash)}`).expect(200)).body.order;
    expect([order.total, order.discount]).toEqual([reread.totals.total, 0]);
  });

  it('a limited promotion used up by another buyer before this completion began: 422 promotion_usage_limit_reached, then the full price once re-read', async () => {
    const p = await promoShop(t);
    const promo = await p.promote({ name: 'Only one', usage_limit: 1, actions: [{ type: 'fixed_off_order', amount: 5 }] });
    const [a, b] = [p.visitor(), p.visitor()];
    await fill(a, [[p.ids.variants['v-barolo'], 1]]);
    await fill(b, [[p.ids.variants['v-barolo'], 1]]);
    const [ca, cb] = [await checkoutTo(p, a, 'CH'), await checkoutTo(p, b, 'CH', 'post', 'b@example.ch')];
    expect([ca.totals.discount, cb.totals.discount]).toEqual([5, 5]);
    await complete(p, a, ca.id).expect(200);
    expect((await complete(p, b, cb.id).expect(422)).body.code).toBe('promotion_usage_limit_reached');
    expect((await p.shop.admin.get(`/admin/promotions/${promo.id}`).expect(200)).body.promotion.times_used).toBe(1);
    const reread = (await b.get(`/checkouts/${cb.id}`).expect(200)).body.checkout;
    expect([reread.totals.discount, reread.totals.total]).toEqual([0, cb.totals.total + 5]);
    const placed = (await complete(p, b, cb.id).expect(200)).body.checkout;
    expect((await b.get(`/orders/${placed.order_id}?hash=${encodeURIComponent(placed.hash)}`).expect(200)).body.order.total).toBe(reread.totals.total);
  });

  it('a promotion starting after the last read only lowers the total: the completion applies it; a re-read showing the same promotions writes nothing', async () => {
    const p = await promoShop(t);
    const v = p.visitor();
    await fill(v, [[p.ids.variants['v-barolo'], 2]]);
    const before = await checkoutTo(p, v, 'CH');
    expect(before.totals.discount).toBe(0);
    await p.promote({ name: 'Flash 10%', combines_with: { order: true }, actions: [{ type: 'percent_off_order', percent: 10 }] });
    const shown = (await v.get(`/checkouts/${before.id}`).expect(200)).body.checkout;
    expect(shown.totals.discount).toBe(6);
    const writes = (await statementsDuring(() => v.get(`/checkouts/${before.id}`).expect(200))).filter((q) => /^UPDATE checkouts/.test(q));
    expect(writes).toEqual([]);
    await p.promote({ name: 'Flash 5 off', combines_with: { order: true }, actions: [{ type: 'fixed_off_order', amount: 5 }] });
    const placed = (await complete(p, v, before.id).expect(200)).body.checkout;
    const order = (await v.get(`/orders/${placed.order_id}?hash=${encodeURIComponent(placed.hash)}`).expect(200)).body.order;
    expect(order.total).toBeLessThan(shown.totals.total);
    expect((order.discounts as Array<{ name: string }>).map((d) => d.name).sort()).toEqual(['Flash 10%', 'Flash 5 off']);
  });
});
