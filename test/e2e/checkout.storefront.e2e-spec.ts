import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { OrdersService } from '../../src/checkout/orders.service.js';
import { RequestContext } from '../../src/common/context/request-context.js';
import { createTestApp, ShopClient, TestApp, TestShop } from '../helpers/test-app.js';
import {
  CH_ADDRESS,
  checkoutImport,
  checkoutWith,
  EUR_RATE,
  expectedTotals,
  Ids,
  importShop,
  JUICE_TAX,
  SHIPPING,
  US_ADDRESS,
  WINE_TAX,
} from './checkout.fixture.js';

/** SPEC "Storefront: checkouts", "Placed order", CONTRACT 4 (guest read) and 7 (totals). */
describe('storefront checkout', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;
  const visitor = (): ShopClient => t.client(shop.storefront_token);
  const wine = () => ids.variants['v-wine'];
  const juice = () => ids.variants['v-juice'];
  const invoice = () => ids.payment_types.invoice;
  const accept = { accepted_terms: true, age_confirmed: true };

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    ids = await importShop(shop.admin);
  });
  afterAll(() => t.close());

  async function ready(client: ShopClient, lines: Array<[string, number]>, opts: { code?: string; currency?: string; address?: object; method?: string } = {}) {
    const c = await checkoutWith(client, lines, opts);
    const put = await client
      .put(`/checkouts/${c.id}`, { shipping_address: opts.address ?? CH_ADDRESS, shipping_method_id: opts.method ?? ids.shipping_methods.post })
      .expect(200);
    return put.body.checkout;
  }

  it('422 for an empty cart', async () => {
    const res = await visitor().post('/checkouts').expect(422);
    expect(typeof res.body.errors).toBe('string');
  });

  it('creates a checkout from the cart with its own lines, options and compliance', async () => {
    const c = await checkoutWith(visitor(), [
      [wine(), 2],
      [juice(), 3],
    ]);
    const exp = expectedTotals({
      includeTax: true,
      lines: [
        { price: 24.9, tax: WINE_TAX, qty: 2 },
        { price: 6.35, tax: JUICE_TAX, qty: 3 },
      ],
    });
    expect(c).toMatchObject({
      id: expect.any(String),
      currency: 'CHF',
      is_completed: false,
      guest_checkout_enabled: true,
      comments: null,
      selected_shipping_method_id: null,
      selected_payment_type_id: null,
      billing_same_as_shipping: true,
    });
    expect(c.line_items).toEqual([
      {
        id: expect.any(String),
        article_id: wine(),
        title: 'Merlot 2019',
        sku: 'V-WINE',
        quantity: 2,
        ...exp.lines[0],
        image_url: 'https://cdn.example/merlot.jpg',
      },
      { id: expect.any(String), article_id: juice(), title: 'Grape juice', sku: 'V-JUICE', quantity: 3, ...exp.lines[1], image_url: null },
    ]);
    expect(c.totals).toEqual({ ...exp.totals, shipping_tax_rate: 0, shipping_method_name: null, coupon_text: null, currency: 'CHF', price_includes_tax: true });
    // every method while no country is chosen, cheapest first
    expect((c.shipping_options as Array<{ id: string }>).map((o) => o.id)).toEqual([
      ids.shipping_methods.post,
      ids.shipping_methods.express,
      ids.shipping_methods.usa,
    ]);
    expect((c.payment_types as Array<{ id: string; name: string }>).map((p) => p.name).sort()).toEqual(['Card', 'Crypto', 'Invoice', 'Prepayment']);
    expect(c.available_countries).toEqual([
      { code: 'CH', name: 'Switzerland' },
      { code: 'DE', name: 'Germany' },
      { code: 'US', name: 'United States' },
    ]);
    expect(c.compliance).toEqual({
      terms: { required: true, terms_url: 'https://shop.example/terms', privacy_url: 'https://shop.example/privacy' },
      age_verification: { required: true, min_age: 16 },
    });
    const read = await visitor().get(`/checkouts/${c.id}`).expect(200);
    expect(read.body.checkout).toEqual(c);
  });

  it('PUT sets addresses, shipping by method and country, shipping tax, payment type and comments', async () => {
    const client = visitor();
    const c = await checkoutWith(client, [
      [wine(), 2],
      [juice(), 3],
    ]);
    const res = await client
      .put(`/checkouts/${c.id}`, {
        shipping_address: CH_ADDRESS,
        shipping_method_id: ids.shipping_methods.post,
        payment_type_id: invoice(),
        comments: 'Ring twice',
      })
      .expect(200);
    const k = res.body.checkout;
    const exp = expectedTotals({
      includeTax: true,
      lines: [
        { price: 24.9, tax: WINE_TAX, qty: 2 },
        { price: 6.35, tax: JUICE_TAX, qty: 3 },
      ],
      shipping: SHIPPING.post,
    });
    expect(k.totals).toEqual({
      ...exp.totals,
      shipping_tax_rate: 8.1,
      shipping_method_name: 'Swiss Post',
      coupon_text: null,
      currency: 'CHF',
      price_includes_tax: true,
    });
    expect(k.totals.shipping_amount).toBe(9.5);
    expect(k.totals.tax_lines.map((l: { rate: number }) => l.rate)).toEqual([2.6, 8.1]);
    expect(k.totals.tax_lines.reduce((a: number, l: { amount: number }) => a + l.amount, 0)).toBeCloseTo(k.totals.tax_amount, 6);
    expect(k).toMatchObject({ selected_shipping_method_id: ids.shipping_methods.post, selected_payment_type_id: invoice(), comments: 'Ring twice' });
    expect(k.shipping_address).toEqual({
      id: null,
      company: null,
      department: null,
      vat_number: null,
      po_box: null,
      phone_number: null,
      mobile_number: null,
      ...CH_ADDRESS,
      country_name: 'Switzerland',
    });
    expect(k.billing_address).toEqual(k.shipping_address);
    expect((k.shipping_options as Array<{ id: string; price: string; expected_delivery_date: string | null }>).map((o) => [o.id, o.price])).toEqual([
      [ids.shipping_methods.post, '9.50'],
      [ids.shipping_methods.express, '25.00'],
    ]);
    expect(k.shipping_options[0].expected_delivery_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // a separate billing address
    const billing = { ...CH_ADDRESS, first_name: 'Berta', street: 'Seestrasse' };
    const sep = (await client.put(`/checkouts/${c.id}`, { billing_same_as_shipping: false, billing_address: billing }).expect(200)).body.checkout;
    expect(sep.billing_address).toMatchObject({ first_name: 'Berta', street: 'Seestrasse', country_name: 'Switzerland' });
    expect(sep.shipping_address.first_name).toBe('Anna');
    // German labels
    const de = (await client.get(`/checkouts/${c.id}?locale=de`).expect(200)).body.checkout;
    expect(de.totals.shipping_method_name).toBe('Die Post');
    expect(de.shipping_address.country_name).toBe('Schweiz');
  });

  it('422 for a method not offered in the shipping country or a country the shop does not deliver to; a country change drops the method', async () => {
    const client = visitor();
    const c = await ready(client, [[wine(), 1]]);
    const de = await client
      .put(`/checkouts/${c.id}`, { shipping_address: { ...CH_ADDRESS, country_code: 'DE' }, shipping_method_id: ids.shipping_methods.express })
      .expect(422);
    expect(de.body.errors).toContain('shipping_method_id');
    await client.put(`/checkouts/${c.id}`, { shipping_address: { ...CH_ADDRESS, country_code: 'FR' } }).expect(422);
    await client.put(`/checkouts/${c.id}`, { shipping_method_id: randomUUID() }).expect(422);
    await client.put(`/checkouts/${c.id}`, { payment_type_id: randomUUID() }).expect(422);
    await client.put(`/checkouts/${c.id}`, { shipping_method_id: 'nope' }).expect(422);
    await client.put(`/checkouts/${c.id}`, { billing_same_as_shipping: 'yes' }).expect(422);
    await client.put(`/checkouts/${c.id}`, { shipping_address: { email: 'not an email' } }).expect(422);
    const us = (await client.put(`/checkouts/${c.id}`, { shipping_address: US_ADDRESS }).expect(200)).body.checkout;
    expect(us.selected_shipping_method_id).toBeNull();
    expect(us.totals.shipping_amount).toBe(0);
    expect(us.shipping_options.map((o: { id: string }) => o.id)).toEqual([ids.shipping_methods.usa]);
  });

  it('free shipping over the threshold, compared with the subtotal after discount', async () => {
    // 7 x 24.90 = 174.30 >= 150: free
    const big = await ready(visitor(), [[wine(), 7]]);
    const exp = expectedTotals({ includeTax: true, lines: [{ price: 24.9, tax: WINE_TAX, qty: 7 }], shipping: SHIPPING.post });
    expect(big.totals).toMatchObject(exp.totals);
    expect(big.totals.shipping_amount).toBe(0);
    expect(big.shipping_options[0].price).toBe('0.00');
    // 6 x 24.90 = 149.40 < 150: charged
    const small = await ready(visitor(), [[wine(), 6]]);
    expect(small.totals.shipping_amount).toBe(9.5);
    expect(small.totals).toMatchObject(expectedTotals({ includeTax: true, lines: [{ price: 24.9, tax: WINE_TAX, qty: 6 }], shipping: SHIPPING.post }).totals);
  });

  it('a percent coupon from the cart: discount, coupon_text and tax spread over both rates', async () => {
    await shop.admin.post('/admin/discount_codes', { code: 'TEN', type: 'percent', value: 10, is_infinite: true }).expect(201);
    const k = await ready(
      visitor(),
      [
        [wine(), 3],
        [juice(), 5],
      ],
      { code: 'TEN' },
    );
    const exp = expectedTotals({
      includeTax: true,
      lines: [
        { price: 24.9, tax: WINE_TAX, qty: 3 },
        { price: 6.35, tax: JUICE_TAX, qty: 5 },
      ],
      coupon: { percent: 10 },
      shipping: SHIPPING.post,
    });
    expect(k.totals).toEqual({
      ...exp.totals,
      shipping_tax_rate: 8.1,
      shipping_method_name: 'Swiss Post',
      coupon_text: 'TEN: 10% off',
      currency: 'CHF',
      price_includes_tax: true,
    });
    expect(k.totals.subtotal).toBeCloseTo(k.totals.subtotal_before_discount - k.totals.discount, 6);
    expect(k.totals.total).toBeCloseTo(k.totals.subtotal + k.totals.shipping_amount, 6);
  });

  it('totals in the cart currency (EUR by rate), with a value coupon', async () => {
    await shop.admin.post('/admin/discount_codes', { code: 'EURO5', type: 'value', value: 5, is_infinite: true, currency_id: ids.currencies.EUR }).expect(201);
    const k = await ready(
      visitor(),
      [
        [wine(), 2],
        [juice(), 1],
      ],
      { currency: 'EUR', code: 'EURO5' },
    );
    const exp = expectedTotals({
      includeTax: true,
      rate: EUR_RATE,
      lines: [
        { price: 24.9, tax: WINE_TAX, qty: 2 },
        { price: 6.35, tax: JUICE_TAX, qty: 1 },
      ],
      coupon: { value: 5 },
      shipping: SHIPPING.post,
    });
    expect(k.currency).toBe('EUR');
    expect(k.totals).toEqual({
      ...exp.totals,
      shipping_tax_rate: 8.1,
      shipping_method_name: 'Swiss Post',
      coupon_text: 'EURO5: 5.00 EUR off',
      currency: 'EUR',
      price_includes_tax: true,
    });
    expect(
      k.line_items.map((l: object) => ({
        ...l,
        id: undefined,
        article_id: undefined,
        title: undefined,
        sku: undefined,
        quantity: undefined,
        image_url: undefined,
      })),
    ).toEqual(
      exp.lines.map((l) => ({ ...l, id: undefined, article_id: undefined, title: undefined, sku: undefined, quantity: undefined, image_url: undefined })),
    );
    expect(k.totals.shipping_amount).toBe(10.07); // 9.50 x 1.06
  });

  it('a shop whose prices exclude tax adds the tax to the total', async () => {
    const net = await t.createShop();
    const netIds = await importShop(net.admin, { pricesIncludeTax: false, wine: 20, juice: 5 });
    const client = t.client(net.storefront_token);
    const c = await checkoutWith(client, [
      [netIds.variants['v-wine'], 3],
      [netIds.variants['v-juice'], 2],
    ]);
    const k = (await client.put(`/checkouts/${c.id}`, { shipping_address: CH_ADDRESS, shipping_method_id: netIds.shipping_methods.post }).expect(200)).body
      .checkout;
    const exp = expectedTotals({
      includeTax: false,
      lines: [
        { price: 20, tax: WINE_TAX, qty: 3 },
        { price: 5, tax: JUICE_TAX, qty: 2 },
      ],
      shipping: SHIPPING.post,
    });
    expect(k.totals).toEqual({
      ...exp.totals,
      shipping_tax_rate: 8.1,
      shipping_method_name: 'Swiss Post',
      coupon_text: null,
      currency: 'CHF',
      price_includes_tax: false,
    });
    expect(k.totals.total).toBeCloseTo(k.totals.subtotal + k.totals.shipping_amount + k.totals.tax_amount, 6);
    expect(k.line_items[0]).toMatchObject({ unit_price: 20, unit_price_with_tax: 21.62, line_total: 60, line_total_with_tax: 64.86 });
    // and in EUR
    const eur = await checkoutWith(t.client(net.storefront_token), [[netIds.variants['v-wine'], 1]], { currency: 'EUR' });
    expect(eur.totals).toEqual({
      ...expectedTotals({ includeTax: false, rate: EUR_RATE, lines: [{ price: 20, tax: WINE_TAX, qty: 1 }] }).totals,
      shipping_tax_rate: 0,
      shipping_method_name: null,
      coupon_text: null,
      currency: 'EUR',
      price_includes_tax: false,
    });
  });

  it('compliance gates for an alcohol cart shipped to a min-age-21 country; consent is never stored', async () => {
    const client = visitor();
    const c = await ready(client, [[wine(), 1]], { address: US_ADDRESS, method: ids.shipping_methods.usa });
    expect(c.compliance.age_verification).toEqual({ required: true, min_age: 21 });
    const noTerms = await client.post(`/checkouts/${c.id}/complete`, { payment_type_id: invoice(), age_confirmed: true }).expect(422);
    expect(noTerms.body.code).toBe('terms_acceptance_required');
    const falseTerms = await client.post(`/checkouts/${c.id}/complete`, { payment_type_id: invoice(), accepted_terms: false, age_confirmed: true }).expect(422);
    expect(falseTerms.body.code).toBe('terms_acceptance_required');
    const noAge = await client.post(`/checkouts/${c.id}/complete`, { payment_type_id: invoice(), accepted_terms: true }).expect(422);
    expect(noAge.body).toMatchObject({ code: 'age_verification_required' });
    expect(noAge.body.errors).toContain('21');
    // a German delivery needs 18; a juice-only cart needs no age check at all
    const de = (await client.put(`/checkouts/${c.id}`, { shipping_address: { ...US_ADDRESS, country_code: 'DE' } }).expect(200)).body.checkout;
    expect(de.compliance.age_verification).toEqual({ required: true, min_age: 18 });
    const juiceOnly = await ready(visitor(), [[juice(), 1]], { address: US_ADDRESS, method: ids.shipping_methods.usa });
    expect(juiceOnly.compliance.age_verification).toEqual({ required: false, min_age: 0 });
    await visitor().post(`/checkouts/${juiceOnly.id}/complete`, { payment_type_id: invoice(), accepted_terms: true }).expect(200);
    // consent was not stored: still required on the next call
    await client.put(`/checkouts/${c.id}`, { shipping_address: US_ADDRESS, shipping_method_id: ids.shipping_methods.usa }).expect(200);
    expect((await client.post(`/checkouts/${c.id}/complete`, { payment_type_id: invoice(), accepted_terms: true }).expect(422)).body.code).toBe(
      'age_verification_required',
    );
    const ok = await client.post(`/checkouts/${c.id}/complete`, { payment_type_id: invoice(), ...accept }).expect(200);
    expect(ok.body.checkout.success).toBe(true);
  });

  it('complete places the order: result shape, completed checkout, 409 after, stock through the ledger, empty cart, receipt', async () => {
    const client = visitor();
    const before = (await client.get(`/products/${ids.products['p-wine']}`).expect(200)).body.product.variants[0].inventory_quantity;
    const c = await ready(client, [
      [wine(), 2],
      [juice(), 1],
    ]);
    await client.post('/cart/items', { article_id: juice(), quantity: 1 }).expect(200);
    const res = await client.post(`/checkouts/${c.id}/complete`, { payment_type_id: invoice(), comments: 'Leave at the door', ...accept }).expect(200);
    const r = res.body.checkout;
    expect(r).toEqual({
      success: true,
      payment_url: null,
      order_id: expect.any(String),
      order_number: expect.stringMatching(/^\d+$/),
      hash: expect.any(String),
    });
    expect(r.hash.length).toBeGreaterThanOrEqual(32);

    const done = (await client.get(`/checkouts/${c.id}`).expect(200)).body.checkout;
    expect(done.is_completed).toBe(true);
    expect(done.totals).toEqual(c.totals);
    expect(done.comments).toBe('Leave at the door');
    const again = await client.post(`/checkouts/${c.id}/complete`, { payment_type_id: invoice(), ...accept }).expect(409);
    expect(typeof again.body.errors).toBe('string');
    await client.put(`/checkouts/${c.id}`, { comments: 'x' }).expect(409);

    const after = (await client.get(`/products/${ids.products['p-wine']}`).expect(200)).body.product.variants[0].inventory_quantity;
    expect(after).toBe(before - 2);
    expect((await client.get('/cart').expect(200)).body.cart.item_count).toBe(0);

    const receipt = await visitor()
      .get(`/orders/${r.order_id}?hash=${encodeURIComponent(r.hash)}`)
      .expect(200);
    expect(Object.keys(receipt.body)).toEqual(['order']);
    const o = receipt.body.order;
    expect(o).toMatchObject({
      id: r.order_id,
      number: r.order_number,
      status: 'Open',
      currency: 'CHF',
      price_includes_tax: true,
      subtotal: c.totals.subtotal_before_discount,
      discount: 0,
      discount_code: null,
      shipping_amount: 9.5,
      shipping_method_name: 'Swiss Post',
      total: c.totals.total,
      tax_amount: c.totals.tax_amount,
      tax_lines: c.totals.tax_lines,
      comments: 'Leave at the door',
      payment_type: 'Invoice',
      payment_status: 'pending',
      tracking_url: null,
    });
    expect(new Date(o.date).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(o.line_items).toEqual([
      {
        id: expect.any(String),
        variant_id: wine(),
        product_id: ids.products['p-wine'],
        title: 'Merlot 2019',
        sku: 'V-WINE',
        description: 'v-wine 75 cl',
        quantity: 2,
        unit_price: c.line_items[0].unit_price,
        unit_price_with_tax: 24.9,
        line_total: 49.8,
      },
      {
        id: expect.any(String),
        variant_id: juice(),
        product_id: ids.products['p-juice'],
        title: 'Grape juice',
        sku: 'V-JUICE',
        description: 'v-juice 75 cl',
        quantity: 1,
        unit_price: c.line_items[1].unit_price,
        unit_price_with_tax: 6.35,
        line_total: 6.35,
      },
    ]);
    expect(o.shipping_address).toMatchObject({ ...CH_ADDRESS, country_name: 'Switzerland' });
    expect(o.billing_address).toEqual(o.shipping_address);
  });

  it('guest read: a wrong or missing hash, or a foreign shop, is 404', async () => {
    const client = visitor();
    const c = await ready(client, [[juice(), 1]]);
    const r = (await client.post(`/checkouts/${c.id}/complete`, { payment_type_id: invoice(), accepted_terms: true }).expect(200)).body.checkout;
    await visitor().get(`/orders/${r.order_id}?hash=wrong`).expect(404);
    // one character changed (never the same one: a hash may already end in x)
    await visitor()
      .get(`/orders/${r.order_id}?hash=${r.hash.slice(0, -1)}${r.hash.endsWith('x') ? 'y' : 'x'}`)
      .expect(404);
    await visitor().get(`/orders/${r.order_id}`).expect(404);
    await visitor().get(`/orders/${randomUUID()}?hash=${r.hash}`).expect(404);
    await visitor().get(`/orders/not-a-uuid?hash=${r.hash}`).expect(422);
    const other = await t.createShop();
    await t.client(other.storefront_token).get(`/orders/${r.order_id}?hash=${r.hash}`).expect(404);
    await t.client(other.storefront_token).get(`/checkouts/${c.id}`).expect(404);
  });

  it('the receipt never changes after a catalogue price change', async () => {
    const priced = await t.createShop();
    const pIds = await importShop(priced.admin);
    const client = t.client(priced.storefront_token);
    const c = await checkoutWith(client, [[pIds.variants['v-wine'], 2]]);
    await client.put(`/checkouts/${c.id}`, { shipping_address: CH_ADDRESS, shipping_method_id: pIds.shipping_methods.post }).expect(200);
    const r = (await client.post(`/checkouts/${c.id}/complete`, { payment_type_id: pIds.payment_types.invoice, ...accept }).expect(200)).body.checkout;
    const url = `/orders/${r.order_id}?hash=${encodeURIComponent(r.hash)}`;
    const first = (await client.get(url).expect(200)).body.order;
    const doneBefore = (await client.get(`/checkouts/${c.id}`).expect(200)).body.checkout;
    await priced.admin.post('/admin/catalogue/import', checkoutImport({ wine: 99.9 })).expect(200);
    const product = (await client.get(`/products/${pIds.products['p-wine']}`).expect(200)).body.product;
    expect(product.variants[0].price).toBe(99.9);
    expect((await client.get(url).expect(200)).body.order).toEqual(first);
    expect(first.line_items[0].unit_price_with_tax).toBe(24.9);
    expect((await client.get(`/checkouts/${c.id}`).expect(200)).body.checkout.totals).toEqual(doneBefore.totals);
  });

  it('redirect payment: return_url required, payment_url to the test page, pay sends the buyer back with order_id and hash', async () => {
    const client = visitor();
    const c = await ready(client, [[juice(), 2]]);
    const card = ids.payment_types.card;
    const missing = await client.post(`/checkouts/${c.id}/complete`, { payment_type_id: card, accepted_terms: true }).expect(422);
    expect(missing.body.code).toBe('return_url_required');
    await client.post(`/checkouts/${c.id}/complete`, { payment_type_id: card, accepted_terms: true, return_url: 'javascript:alert(1)' }).expect(422);
    const res = await client
      .post(`/checkouts/${c.id}/complete`, { payment_type_id: card, accepted_terms: true, return_url: 'https://shop.example/thanks?x=1' })
      .expect(200);
    const r = res.body.checkout;
    expect(r.payment_url).toMatch(new RegExp(`^http://[^/]+/storefront/payments/test/${r.order_id}\\?hash=`));
    const path = new URL(r.payment_url).pathname + new URL(r.payment_url).search;
    const page = await t.http().get(path).expect(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.text).toContain('Pay');
    await t.http().get(`/storefront/payments/test/${r.order_id}?hash=wrong`).expect(404);
    const pay = await t
      .http()
      .post(`/storefront/payments/test/${r.order_id}/pay?hash=${encodeURIComponent(r.hash)}`)
      .expect(303);
    const back = new URL(pay.headers.location);
    expect(back.origin + back.pathname).toBe('https://shop.example/thanks');
    expect(Object.fromEntries(back.searchParams)).toEqual({ x: '1', order_id: r.order_id, hash: r.hash, payment_status: 'paid' });
    const receipt = (await client.get(`/orders/${r.order_id}?hash=${encodeURIComponent(r.hash)}`).expect(200)).body.order;
    expect(receipt).toMatchObject({ payment_type: 'Card', payment_status: 'paid' });
    // a cancelled payment on another order; cancel after paid changes nothing
    const c2 = await ready(visitor(), [[juice(), 1]]);
    const r2 = (
      await visitor().post(`/checkouts/${c2.id}/complete`, { payment_type_id: card, accepted_terms: true, return_url: 'https://shop.example/back' }).expect(200)
    ).body.checkout;
    const cancel = await t
      .http()
      .post(`/storefront/payments/test/${r2.order_id}/cancel?hash=${encodeURIComponent(r2.hash)}`)
      .expect(303);
    expect(new URL(cancel.headers.location).searchParams.get('payment_status')).toBe('cancelled');
    await t
      .http()
      .post(`/storefront/payments/test/${r.order_id}/cancel?hash=${encodeURIComponent(r.hash)}`)
      .expect(303);
    expect((await client.get(`/orders/${r.order_id}?hash=${encodeURIComponent(r.hash)}`).expect(200)).body.order.payment_status).toBe('paid');
    // prepayment needs no return_url
    const c3 = await ready(visitor(), [[juice(), 1]]);
    const r3 = (await visitor().post(`/checkouts/${c3.id}/complete`, { payment_type_id: ids.payment_types.prepayment, accepted_terms: true }).expect(200)).body
      .checkout;
    expect(r3.payment_url).toBeNull();
  });

  it('422 for an unknown payment type, a kind no provider serves, a missing shipping method or payment_type_id', async () => {
    const client = visitor();
    const c = await checkoutWith(client, [[juice(), 1]]);
    await client.post(`/checkouts/${c.id}/complete`, { accepted_terms: true }).expect(422);
    await client.post(`/checkouts/${c.id}/complete`, { payment_type_id: randomUUID(), accepted_terms: true }).expect(422);
    expect(
      (
        await client
          .post(`/checkouts/${c.id}/complete`, { payment_type_id: ids.payment_types.crypto, accepted_terms: true, return_url: 'https://x.example/' })
          .expect(422)
      ).body.code,
    ).toBe('payment_type_unavailable');
    expect((await client.post(`/checkouts/${c.id}/complete`, { payment_type_id: invoice(), accepted_terms: true }).expect(422)).body.code).toBe(
      'shipping_method_required',
    );
    await client.post(`/checkouts/${c.id}/complete`).expect(422);
    await client.post(`/checkouts/${randomUUID()}/complete`, { payment_type_id: invoice(), accepted_terms: true }).expect(404);
    await client.get(`/checkouts/${randomUUID()}`).expect(404);
    await client.put(`/checkouts/${randomUUID()}`, {}).expect(404);
    await client.get('/checkouts/nope').expect(422);
  });

  it('422 insufficient_stock leaves stock and checkout untouched; backorder goes below zero', async () => {
    const client = visitor();
    const c = await ready(client, [[ids.variants['v-last'], 11]]);
    const res = await client.post(`/checkouts/${c.id}/complete`, { payment_type_id: invoice(), ...accept }).expect(422);
    expect(res.body.code).toBe('insufficient_stock');
    expect((await client.get(`/checkouts/${c.id}`).expect(200)).body.checkout.is_completed).toBe(false);
    const level = await shop.admin.get(`/admin/inventory_levels?inventory_item_ids=${ids.variants['v-last']}`).expect(200);
    expect(level.body.inventory_levels).toEqual([{ inventory_item_id: ids.variants['v-last'], location_id: ids.locations.cellar, available: 10 }]);
    const back = await ready(visitor(), [[ids.variants['v-back'], 3]]);
    await visitor()
      .post(`/checkouts/${back.id}/complete`, { payment_type_id: invoice(), ...accept })
      .expect(200);
    const bl = await shop.admin.get(`/admin/inventory_levels?inventory_item_ids=${ids.variants['v-back']}`).expect(200);
    expect(bl.body.inventory_levels[0].available).toBe(-2);
  });

  it('a single-use coupon is redeemed once (is_used, using_date); a second checkout with it gets discount_code_already_used', async () => {
    const code = (await shop.admin.post('/admin/discount_codes', { code: 'ONCE5', type: 'value', value: 5 }).expect(201)).body.discount_code;
    const a = await ready(visitor(), [[juice(), 2]], { code: 'ONCE5' });
    const b = await ready(visitor(), [[juice(), 2]], { code: 'ONCE5' });
    expect(a.totals.discount).toBe(5);
    expect(a.totals.coupon_text).toBe('ONCE5: 5.00 CHF off');
    const r = (await visitor().post(`/checkouts/${a.id}/complete`, { payment_type_id: invoice(), accepted_terms: true }).expect(200)).body.checkout;
    const used = (await shop.admin.get(`/admin/discount_codes/${code.id}`).expect(200)).body.discount_code;
    expect(used.is_used).toBe(true);
    expect(new Date(used.using_date).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const lost = await visitor().post(`/checkouts/${b.id}/complete`, { payment_type_id: invoice(), accepted_terms: true }).expect(422);
    expect(lost.body.code).toBe('discount_code_already_used');
    const receipt = (
      await visitor()
        .get(`/orders/${r.order_id}?hash=${encodeURIComponent(r.hash)}`)
        .expect(200)
    ).body.order;
    expect(receipt).toMatchObject({ discount: 5, discount_code: 'ONCE5', subtotal: 12.7, total: 12.7 - 5 + 9.5 });
  });

  it('Idempotency-Key on POST /checkouts and complete: same answer, reuse with another body is 422', async () => {
    const client = visitor();
    await client.post('/cart/items', { article_id: juice(), quantity: 1 }).expect(200);
    const key = randomUUID();
    const one = await client.post('/checkouts').set('Idempotency-Key', key).expect(200);
    const two = await client.post('/checkouts').set('Idempotency-Key', key).expect(200);
    expect(two.body).toEqual(one.body);
    const id = one.body.checkout.id;
    await client.put(`/checkouts/${id}`, { shipping_address: CH_ADDRESS, shipping_method_id: ids.shipping_methods.post }).expect(200);
    const ck = randomUUID();
    const body = { payment_type_id: invoice(), accepted_terms: true };
    const first = await client.post(`/checkouts/${id}/complete`).set('Idempotency-Key', ck).send(body).expect(200);
    const second = await client.post(`/checkouts/${id}/complete`).set('Idempotency-Key', ck).send(body).expect(200);
    expect(second.body).toEqual(first.body);
    const reused = await client
      .post(`/checkouts/${id}/complete`)
      .set('Idempotency-Key', ck)
      .send({ ...body, comments: 'other' })
      .expect(422);
    expect(reused.body.code).toBe('idempotency_key_reused');
    // a stored refusal is replayed too; without the key the call runs (409)
    await client.post(`/checkouts/${id}/complete`).send(body).expect(409);
    await client.post('/checkouts').set('Idempotency-Key', 'x'.repeat(256)).expect(422);
    // keys are per caller: another visitor's same key is another request
    const stranger = visitor();
    await stranger.post('/cart/items', { article_id: juice(), quantity: 1 }).expect(200);
    const theirs = await stranger.post('/checkouts').set('Idempotency-Key', key).expect(200);
    expect(theirs.body.checkout.id).not.toBe(id);
  });

  it('a shopper principal owns the order: OrdersService lists it for the customer-tier routes; the address is saved', async () => {
    const client = visitor();
    await client.post('/customers', { email: 'buyer@example.ch', password: 'correct horse', first_name: 'Bea', last_name: 'Buyer' }).expect(201);
    const login = await client.post('/customer/auth/token', { email: 'buyer@example.ch', password: 'correct horse' }).expect(200);
    const shopper = t.client(login.body.customer_access_token.access_token);
    const c = await checkoutWith(shopper, [[juice(), 2]]);
    await shopper.put(`/checkouts/${c.id}`, { shipping_address: CH_ADDRESS, shipping_method_id: ids.shipping_methods.post }).expect(200);
    const r = (await shopper.post(`/checkouts/${c.id}/complete`, { payment_type_id: invoice(), accepted_terms: true }).expect(200)).body.checkout;
    const orders = t.get(OrdersService);
    const ctx = RequestContext.forTenant(shop.tenant.id);
    const customerId = (await t.db.query(`SELECT id FROM customers WHERE tenant_id = $1 AND email = $2`, [shop.tenant.id, 'buyer@example.ch']))[0].id;
    const list = await orders.listForCustomer(ctx, customerId, 50, 0);
    expect(list).toEqual([{ id: r.order_id, number: r.order_number, status: 'Open', date: expect.any(String), total: expect.any(Number), line_items: 1 }]);
    const receipt = await orders.getForCustomer(ctx, customerId, r.order_id);
    expect(receipt.id).toBe(r.order_id);
    await expect(orders.getForCustomer(ctx, randomUUID(), r.order_id)).rejects.toMatchObject({ status: 404 });
    const addresses = await shopper.get('/customers/me/addresses').expect(200);
    expect(addresses.body.addresses).toEqual(
      expect.arrayContaining([expect.objectContaining({ street: 'Bahnhofstrasse', zip_code: '8001', location: 'Zürich' })]),
    );
  });

  it('a shop without guest checkout refuses anonymous checkouts with 401 guest_checkout_disabled', async () => {
    const closed = await t.createShop();
    const doc = checkoutImport();
    const cIds = (await closed.admin.post('/admin/catalogue/import', { ...doc, settings: { ...doc.settings, guest_checkout_enabled: false } }).expect(200)).body
      .import.ids;
    const client = t.client(closed.storefront_token);
    await client.post('/cart/items', { article_id: cIds.variants['v-juice'], quantity: 1 }).expect(200);
    const res = await client.post('/checkouts').expect(401);
    expect(res.body.code).toBe('guest_checkout_disabled');
  });

  it('documents the checkout routes in OpenAPI', async () => {
    const doc = (await t.http().get('/api/2026-04-01/openapi.json').expect(200)).body;
    const complete = doc.paths['/api/2026-04-01/checkouts/{token}/complete'].post;
    expect(complete.responses['200'].content['application/json'].schema.properties.checkout.$ref).toBe('#/components/schemas/CompleteResultDto');
    expect(complete.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/2026-04-01/orders/{id}',
        '/api/2026-04-01/admin/checkouts',
        '/api/2026-04-01/admin/inventory_levels/adjust',
        '/api/2026-04-01/admin/orders/{id}/fulfillment',
      ]),
    );
  });
});
