import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { OrdersService } from '../../src/checkout/orders.service.js';
import { RequestContext } from '../../src/common/context/request-context.js';
import { createTestApp, ShopClient, TestApp, TestShop } from '../helpers/test-app.js';

/**
 * Issue 31, what a sale keeps: the admin product API stores each variant's tax_category and volume_ml; the volume
 * drives the destination rules' litres; a destination-taxed checkout with a rate-table method taxes the shipping
 * the table priced; the order keeps the applied tax and shipping rows; a refund of lines gives back their VAT and
 * excise, and the tax report follows. Every amount is worked out by hand in the comments.
 */

const ADDRESS = { first_name: 'Anna', last_name: 'Muster', street: 'Rue 1', zip_code: '75001', location: 'Paris', email: 'anna@example.com' };
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

function shopDocument() {
  const variant = (key: string, price: number, extra: object) => ({
    key,
    sku: key,
    price,
    tax_rate: 19,
    published: true,
    active: true,
    track_inventory: false,
    ...extra,
  });
  return {
    settings: { default_language: 'en', languages: ['en'], default_currency: 'EUR', prices_include_tax: true, guest_checkout_enabled: true },
    currencies: [
      { key: 'EUR', code: 'EUR', name: 'Euro', symbol: '€', rate: 1, published: true },
      { key: 'CHF', code: 'CHF', name: 'Swiss franc', symbol: 'CHF', rate: 0.95, published: true },
    ],
    countries: ['DE', 'FR'].map((code) => ({ key: code, code, name: code, shipping: true })),
    shipping_methods: [
      {
        key: 'cases',
        name: 'Cases',
        price: 12,
        tax_rate: 19,
        countries: ['DE', 'FR'],
        free_over: null,
        rate_table: {
          basis: 'bottles',
          steps: [
            { from: 1, to: 6, price: 12 },
            { from: 7, to: 12, price: 18 },
          ],
          beyond: { every: 6, price: 8 },
        },
      },
    ],
    payment_types: [{ key: 'invoice', name: 'Invoice', kind: 'invoice' }],
    locations: [{ key: 'cellar', name: 'Cellar' }],
    tax: {
      mode: 'destination',
      gross_price_policy: 'constant',
      excise_display: 'included',
      categories: [
        { key: 'wine', name: 'Still wine', excise_class: 'still' },
        { key: 'sparkling', name: 'Sparkling wine', excise_class: 'sparkling' },
      ],
      zones: [
        { key: 'DE', name: 'Germany', countries: ['DE'] },
        { key: 'FR', name: 'France', countries: ['FR'] },
        // a region inside France (ISO 3166-2 FR-20R, Corse) with its own rates: more specific than the country
        { key: 'COR', name: 'Corsica', regions: ['FR-20R'] },
      ],
      rates: [
        { category: 'wine', zone: 'DE', rate: 19 },
        { category: 'sparkling', zone: 'DE', rate: 19, excise_per_hl: 136 },
        { category: 'wine', zone: 'FR', rate: 20, excise_per_hl: 4.1 },
        { category: 'sparkling', zone: 'FR', rate: 20, excise_per_hl: 10.15 },
        { category: 'wine', zone: 'COR', rate: 13 },
        { category: 'sparkling', zone: 'COR', rate: 13 },
      ],
    },
    products: [
      // no category and no volume yet: the admin API sets them
      { key: 'p-wine', title: 'Riesling Magnum', published: true, variants: [variant('v-wine', 12, { alcohol_volume: 12 })] },
      { key: 'p-spk', title: 'Sekt', published: true, variants: [variant('v-spk', 23.8, { tax_category: 'sparkling', volume_ml: 750, alcohol_volume: 12 })] },
    ],
  };
}

describe('taxes and shipping kept on orders', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: {
    variants: Record<string, string>;
    products: Record<string, string>;
    shipping_methods: Record<string, string>;
    payment_types: Record<string, string>;
    tax_zones: Record<string, string>;
    locations: Record<string, string>;
  };
  const visitor = (): ShopClient => t.client(shop.storefront_token);

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    const res = await shop.admin.post('/admin/catalogue/import', shopDocument());
    if (res.status !== 200) throw new Error(`import failed: ${res.status} ${JSON.stringify(res.body)}`);
    ids = res.body.import.ids;
    await shop.admin.post('/admin/destination_rules', { zone: 'FR', max_litres_per_order: 9 }).expect(201);
  });
  afterAll(() => t.close());

  async function checkout(client: ShopClient, lines: Array<[string, number]>, country: string) {
    for (const [key, quantity] of lines) await client.post('/cart/items', { article_id: ids.variants[key], quantity }).expect(200);
    const c = (await client.post('/checkouts').expect(200)).body.checkout;
    return (
      await client
        .put(`/checkouts/${c.id}`, { shipping_address: { ...ADDRESS, country_code: country }, shipping_method_id: ids.shipping_methods.cases })
        .expect(200)
    ).body.checkout;
  }

  it('the admin product API stores tax_category and volume_ml per variant (PUT, POST, the export), 422 naming the member', async () => {
    const productId = ids.products['p-wine'];
    const variantId = ids.variants['v-wine'];
    const before = (await shop.admin.get(`/admin/products/${productId}`).expect(200)).body.product;
    // unset: neither member (a shop without taxes by destination answers as before)
    expect(before.variants[0]).not.toHaveProperty('tax_category');
    expect(before.variants[0]).not.toHaveProperty('volume_ml');

    const bad = await shop.admin.put(`/admin/products/${productId}`, { variants: [{ id: variantId, tax_category: 'beer' }] }).expect(422);
    expect(bad.body.errors).toContain('product.variants[0].tax_category');
    expect((await shop.admin.get(`/admin/products/${productId}`).expect(200)).body.product.variants[0]).not.toHaveProperty('tax_category');

    const put = await shop.admin.put(`/admin/products/${productId}`, { variants: [{ id: variantId, tax_category: 'wine', volume_ml: 1500 }] }).expect(200);
    expect(put.body.product.variants[0]).toMatchObject({ id: variantId, tax_category: 'wine', volume_ml: 1500 });
    expect((await shop.admin.get(`/admin/products/${productId}`).expect(200)).body.product.variants[0]).toMatchObject({
      tax_category: 'wine',
      volume_ml: 1500,
    });
    // a PUT of other members keeps them; null clears
    await shop.admin.put(`/admin/products/${productId}/variants/${variantId}`, { sku: 'v-wine-2' }).expect(200);
    expect((await shop.admin.get(`/admin/products/${productId}`).expect(200)).body.product.variants[0]).toMatchObject({
      sku: 'v-wine-2',
      tax_category: 'wine',
      volume_ml: 1500,
    });

    const created = await shop.admin
      .post('/admin/products', { title: 'Crémant', variants: [{ sku: 'cr', price: 15, tax_rate: 19, tax_category: 'sparkling', volume_ml: 375 }] })
      .expect(201);
    expect(created.body.product.variants[0]).toMatchObject({ tax_category: 'sparkling', volume_ml: 375 });
    const cleared = await shop.admin.put(`/admin/products/${created.body.product.id}`, {
      variants: [{ id: created.body.product.variants[0].id, volume_ml: null }],
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.product.variants[0]).toMatchObject({ tax_category: 'sparkling' });
    expect(cleared.body.product.variants[0]).not.toHaveProperty('volume_ml');

    const exported = await shop.admin.get('/admin/catalogue/export').expect(200);
    const doc = typeof exported.body === 'object' && exported.body.products ? exported.body : JSON.parse(exported.text);
    const wine = doc.products.find((p: { key: string }) => p.key === 'p-wine');
    expect(wine.variants[0]).toMatchObject({ tax_category: 'wine', volume_ml: 1500 });
  });

  it('litres come from volume_ml (the size text only when none is stored): 6 magnums = 9 l pass, 7 are refused', async () => {
    const ok = await checkout(visitor(), [['v-wine', 6]], 'FR');
    expect(ok.compliance.destination).toEqual({ allowed: true, reasons: [] });
    const over = await checkout(visitor(), [['v-wine', 7]], 'FR');
    expect(over.compliance.destination.reasons.map((r: { code: string; message: string }) => [r.code, r.message])).toEqual([
      ['volume_limit_exceeded', expect.stringContaining('10.5 l')],
    ]);
  });

  it('a checkout address takes a region (ISO 3166-2): zones made of regions match it, more specific than the country', async () => {
    const client = visitor();
    const c = await checkout(client, [['v-spk', 1]], 'FR');
    expect(c.totals.tax_lines[0]).toMatchObject({ name: 'Tax 20% France', rate: 20 });
    expect(c.shipping_address).not.toHaveProperty('region');
    const put = (region: unknown, country = 'FR') =>
      client.put(`/checkouts/${c.id}`, { shipping_address: { ...ADDRESS, zip_code: '20000', country_code: country, region } });
    const corsica = (await put('fr-20r').expect(200)).body.checkout;
    expect(corsica.shipping_address.region).toBe('FR-20R');
    // the bottle and its shipping (1 bottle: 12.00) at 13 %: (23.80 + 12.00) x 13/113 = 4.1186 -> 4.12; no excise there
    expect(corsica.totals).toMatchObject({ tax_zone: 'Corsica', tax_lines: [{ name: 'Tax 13% Corsica', rate: 13, amount: 4.12 }], excise_amount: 0 });
    expect((await put('DE-BE').expect(422)).body.errors).toContain('shipping_address.region');
    expect((await put('Corsica').expect(422)).body.errors).toContain('region must be an ISO 3166-2');
    // unchanged by the refused updates
    expect((await client.get(`/checkouts/${c.id}`).expect(200)).body.checkout.totals.tax_zone).toBe('Corsica');
  });

  let orderId = '';

  it('taxes by destination the shipping a rate table priced, and the order keeps the tax and shipping rows applied', async () => {
    const client = visitor();
    const c = await checkout(
      client,
      [
        ['v-wine', 2],
        ['v-spk', 6],
      ],
      'FR',
    );
    // 8 bottles: the table's 7-12 step, 18.00, taxed at France's 20 % (the highest line rate)
    // lines 24.00 + 142.80 = 166.80; 20 %: (166.80 + 18.00) x 20/120 = 30.80
    // excise: 2 x 0.015 hl x 4.10 = 0.123 -> 0.12; 6 x 0.0075 hl x 10.15 = 0.45675 -> 0.46
    expect(c.totals).toMatchObject({
      subtotal: 166.8,
      shipping_amount: 18,
      shipping_tax_rate: 20,
      tax_lines: [
        { name: 'Tax 20% France', rate: 20, amount: 30.8 },
        { name: 'Excise duty', rate: 0, amount: 0.58 },
      ],
      tax_amount: 31.38,
      excise_amount: 0.58,
      total: 185.38,
      tax_zone: 'France',
      gross_price_policy: 'constant',
    });
    // to Germany the same cart: 19 % on lines and shipping, German sparkling excise 6 x 0.0075 x 136 = 6.12 (still wine: none)
    // total 166.80 + 18.00 + 6.12 = 190.92
    const de = (await client.put(`/checkouts/${c.id}`, { shipping_address: { ...ADDRESS, zip_code: '10115', country_code: 'DE' } }).expect(200)).body.checkout;
    expect(de.totals).toMatchObject({ shipping_amount: 18, shipping_tax_rate: 19, excise_amount: 6.12, total: 190.92 });
    await client.put(`/checkouts/${c.id}`, { shipping_address: { ...ADDRESS, country_code: 'FR' } }).expect(200);

    const done = await client.post(`/checkouts/${c.id}/complete`, { payment_type_id: ids.payment_types.invoice, age_confirmed: true }).expect(200);
    orderId = done.body.checkout.order_id;
    const order = (await shop.admin.get(`/admin/orders/${orderId}`).expect(200)).body.order;
    expect(order.gross_price_policy).toBe('constant');
    expect(order.shipping).toEqual({
      method_id: ids.shipping_methods.cases,
      method_name: 'Cases',
      zone: null,
      amount: 18,
      tax_rate: 20,
      rate: { source: 'table', basis: 'bottles', from: 7, to: 12, price: 18, beyond_blocks: 0, free: false },
    });
    const byLine = new Map(order.line_items.map((l: { id: string; sku: string }) => [l.id, l.sku]));
    expect(order.taxes.tax_zone).toBe('France');
    expect(order.taxes.excise_amount).toBe(0.58);
    expect(order.taxes.lines.map((l: { line_id: string }) => ({ ...l, sku: byLine.get(l.line_id) }))).toEqual([
      { line_id: expect.any(String), sku: 'v-wine-2', tax_rate: 20, tax_category: 'wine', tax_zone: 'France', excise_amount: 0.12, excise_tax: 0 },
      { line_id: expect.any(String), sku: 'v-spk', tax_rate: 20, tax_category: 'sparkling', tax_zone: 'France', excise_amount: 0.46, excise_tax: 0 },
    ]);
    // the receipt names the price policy too
    const receipt = (await client.get(`/orders/${orderId}?hash=${done.body.checkout.hash}`).expect(200)).body.order;
    expect(receipt.gross_price_policy).toBe('constant');
  });

  it("a refund of a line gives back its VAT and excise; the tax report takes them back at the line's rate", async () => {
    await t.get(OrdersService).recordPayment(RequestContext.forTenant(shop.tenant.id), orderId, 'paid');
    const order = (await shop.admin.get(`/admin/orders/${orderId}`).expect(200)).body.order;
    const spk = order.line_items.find((l: { sku: string }) => l.sku === 'v-spk');
    const refunded = (await shop.admin.post(`/admin/orders/${orderId}/refunds`, { lines: [{ line_id: spk.id, quantity: 6 }] }).expect(201)).body.order;
    // 142.80 of goods (VAT 142.80 x 20/120 = 23.80) + its excise 0.46
    expect(refunded.refunds[0]).toMatchObject({ amount: 143.26, lines: [{ line_id: spk.id, quantity: 6, amount: 143.26, tax: 23.8, excise: 0.46 }] });
    const rows = (await shop.admin.get(`/admin/reports/tax?from=${day(-1)}&to=${day(0)}`).expect(200)).body.tax_report.rows;
    // what is left: the wine 24.00 and shipping 18.00 at 20 %: net 35.00, VAT 7.00, excise 0.12
    expect(rows).toEqual([{ country: 'FR', currency: 'EUR', rate: 20, taxable_amount: 35, tax_amount: 7, excise_amount: 0.12, orders: 1 }]);
  });

  it("excise amounts are in the zone's currency (excise_currency), converted to the checkout's; admin, export and 422", async () => {
    const zone = ids.tax_zones.FR;
    expect((await shop.admin.put(`/admin/tax_zones/${zone}`, { excise_currency: 'francs' }).expect(422)).body.errors).toContain('excise_currency');
    const put = await shop.admin.put(`/admin/tax_zones/${zone}`, { excise_currency: 'chf' }).expect(200);
    expect(put.body.tax_zone.excise_currency).toBe('CHF');
    // 2 magnums: 2 x 0.015 hl x 4.10 CHF = 0.123 CHF = 0.1295 EUR (rate 0.95) -> 0.13
    const c = await checkout(visitor(), [['v-wine', 2]], 'FR');
    expect(c.totals.excise_amount).toBe(0.13);
    const exported = await shop.admin.get('/admin/catalogue/export').expect(200);
    const doc = typeof exported.body === 'object' && exported.body.tax ? exported.body : JSON.parse(exported.text);
    expect(doc.tax.zones.find((z: { key: string }) => z.key === 'FR')).toMatchObject({ excise_currency: 'CHF' });
    expect(doc.tax.zones.find((z: { key: string }) => z.key === 'DE')).not.toHaveProperty('excise_currency');
    const bad = await shop.admin.post('/admin/catalogue/import', { tax: { zones: [{ key: 'FR', name: 'France', countries: ['FR'], excise_currency: 12 }] } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toContain('tax.zones[0].excise_currency');
    // back to the default currency: 0.123 EUR -> 0.12
    await shop.admin.put(`/admin/tax_zones/${zone}`, { excise_currency: null }).expect(200);
    expect((await checkout(visitor(), [['v-wine', 2]], 'FR')).totals.excise_amount).toBe(0.12);
  });

  it('a zone whose VAT base includes the excise charges VAT on it; the order, a refund and the report follow', async () => {
    const zone = ids.tax_zones.FR;
    await shop.admin.put(`/admin/tax_zones/${zone}`, { excise_in_vat_base: 'yes' }).expect(422);
    expect((await shop.admin.put(`/admin/tax_zones/${zone}`, { excise_in_vat_base: true }).expect(200)).body.tax_zone.excise_in_vat_base).toBe(true);
    const client = visitor();
    const c = await checkout(
      client,
      [
        ['v-wine', 2],
        ['v-spk', 6],
      ],
      'FR',
    );
    // as before (30.80 VAT, excise 0.12 + 0.46), plus 20 % on each line's excise: 0.024 -> 0.02 and 0.092 -> 0.09
    expect(c.totals).toMatchObject({
      tax_lines: [
        { name: 'Tax 20% France', rate: 20, amount: 30.91 },
        { name: 'Excise duty', rate: 0, amount: 0.58 },
      ],
      tax_amount: 31.49,
      excise_amount: 0.58,
      total: 185.49,
    });
    const done = await client.post(`/checkouts/${c.id}/complete`, { payment_type_id: ids.payment_types.invoice, age_confirmed: true }).expect(200);
    const id = done.body.checkout.order_id;
    await t.get(OrdersService).recordPayment(RequestContext.forTenant(shop.tenant.id), id, 'paid');
    const order = (await shop.admin.get(`/admin/orders/${id}`).expect(200)).body.order;
    expect(order.taxes.lines.map((l: { excise_amount: number; excise_tax: number }) => [l.excise_amount, l.excise_tax])).toEqual([
      [0.12, 0.02],
      [0.46, 0.09],
    ]);
    const spk = order.line_items.find((l: { sku: string }) => l.sku === 'v-spk');
    const refunded = (await shop.admin.post(`/admin/orders/${id}/refunds`, { lines: [{ line_id: spk.id, quantity: 6 }] }).expect(201)).body.order;
    // 142.80 + excise 0.46 + its VAT 0.09; VAT back 23.80 + 0.09
    expect(refunded.refunds[0].lines).toEqual([{ line_id: spk.id, quantity: 6, restock: false, amount: 143.35, tax: 23.89, excise: 0.46 }]);
    const rows = (await shop.admin.get(`/admin/reports/tax?from=${day(-1)}&to=${day(0)}`).expect(200)).body.tax_report.rows;
    // the first order (35.00, 7.00, 0.12) and this one: wine 24.00 + shipping 18.00 + its excise 0.12 in the base:
    // net 35.12, VAT 7.00 + 0.02 = 7.02, excise 0.12
    expect(rows).toEqual([{ country: 'FR', currency: 'EUR', rate: 20, taxable_amount: 70.12, tax_amount: 14.02, excise_amount: 0.24, orders: 2 }]);
    await shop.admin.put(`/admin/tax_zones/${zone}`, { excise_in_vat_base: false }).expect(200);
  });

  it('a return refunds what the returned units cost with their excise (issue 33 returns on an order taxed by destination)', async () => {
    const client = visitor();
    const c = await checkout(client, [['v-spk', 6]], 'FR');
    const done = await client.post(`/checkouts/${c.id}/complete`, { payment_type_id: ids.payment_types.invoice, age_confirmed: true }).expect(200);
    const id = done.body.checkout.order_id;
    await shop.admin.post(`/admin/orders/${id}/payments`, {}).expect(201);
    await shop.admin.post(`/admin/orders/${id}/fulfillments`, {}).expect(201);
    const line = (await shop.admin.get(`/admin/orders/${id}`).expect(200)).body.order.line_items[0].id;
    const r = (await shop.admin.post(`/admin/orders/${id}/returns`, { lines: [{ line_id: line, quantity: 2 }] }).expect(201)).body.return;
    await shop.admin
      .post(`/admin/orders/${id}/returns/${r.id}/receive`, { lines: [{ line_id: line, quantity_received: 2, location_id: ids.locations.cellar }] })
      .expect(200);
    await shop.admin.post(`/admin/orders/${id}/returns/${r.id}/refund`, {}).expect(200);
    // 2 x 23.80 = 47.60 and a third of the line's excise 0.46 = 0.153 -> 0.15
    const refunds = (await shop.admin.get(`/admin/orders/${id}`).expect(200)).body.order.refunds;
    expect(refunds).toMatchObject([{ amount: 47.75, lines: [{ line_id: line, quantity: 2, amount: 47.75, excise: 0.15 }] }]);
  });
});
