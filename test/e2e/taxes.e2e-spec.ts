import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import passport from 'passport';
import type { Strategy } from 'passport';
import { BearerStrategy } from '../../src/auth/bearer.strategy.js';
import { OrdersService } from '../../src/checkout/orders.service.js';
import { runCli } from '../../src/cli/cli.js';
import { RequestContext } from '../../src/common/context/request-context.js';
import { createTestApp, ShopClient, TestApp, TestShop } from '../helpers/test-app.js';
import { checkoutWith } from './checkout.fixture.js';

/** Issue 31, taxes: an EU shop (origin DE) selling to FR, IT and CH, with excise on sparkling wine. */

const ADDRESS = { first_name: 'Anna', last_name: 'Muster', street: 'Rue 1', zip_code: '75001', location: 'Paris', email: 'anna@example.com' };
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

function euShop() {
  const country = (code: string) => ({ key: code, code, name: code, shipping: true });
  const variant = (key: string, price: number, tax_rate: number, extra: object) => ({
    key,
    sku: key,
    title: `${key} 75 cl`,
    price,
    tax_rate,
    published: true,
    active: true,
    track_inventory: false,
    ...extra,
  });
  return {
    settings: { default_language: 'en', languages: ['en'], default_currency: 'EUR', prices_include_tax: true, guest_checkout_enabled: true },
    currencies: [{ key: 'EUR', code: 'EUR', name: 'Euro', symbol: '€', rate: 1, published: true }],
    countries: ['DE', 'FR', 'IT', 'CH'].map(country),
    shipping_methods: [{ key: 'post', name: 'Post', price: 10, tax_rate: 19, countries: ['DE', 'FR', 'IT', 'CH'], free_over: null }],
    payment_types: [{ key: 'invoice', name: 'Invoice', kind: 'invoice' }],
    tax: {
      mode: 'destination',
      gross_price_policy: 'constant',
      excise_display: 'included',
      categories: [
        { key: 'wine', name: 'Still wine', excise_class: 'still' },
        { key: 'sparkling', name: 'Sparkling wine', excise_class: 'sparkling' },
        { key: 'food', name: 'Food' },
      ],
      zones: ['DE', 'FR', 'IT', 'CH'].map((c) => ({ key: c, name: { DE: 'Germany', FR: 'France', IT: 'Italy', CH: 'Switzerland' }[c], countries: [c] })),
      rates: [
        { category: 'wine', zone: 'DE', rate: 19 },
        { category: 'sparkling', zone: 'DE', rate: 19, excise_per_hl: 136 },
        { category: 'food', zone: 'DE', rate: 7 },
        { category: 'wine', zone: 'FR', rate: 20, excise_per_hl: 4.1 },
        { category: 'sparkling', zone: 'FR', rate: 20, excise_per_hl: 10.15 },
        { category: 'food', zone: 'FR', rate: 5.5 },
        { category: 'wine', zone: 'IT', rate: 22 },
        { category: 'sparkling', zone: 'IT', rate: 22 },
        { category: 'food', zone: 'IT', rate: 10 },
        { category: 'wine', zone: 'CH', rate: 8.1 },
        { category: 'sparkling', zone: 'CH', rate: 8.1 },
        { category: 'food', zone: 'CH', rate: 2.6 },
      ],
    },
    products: [
      {
        key: 'p-wine',
        title: 'Riesling',
        published: true,
        variants: [variant('v-wine', 12, 19, { tax_category: 'wine', volume_ml: 750, alcohol_volume: 12 })],
      },
      {
        key: 'p-spk',
        title: 'Sekt',
        published: true,
        variants: [variant('v-spk', 23.8, 19, { tax_category: 'sparkling', size: null, volume_ml: 750, alcohol_volume: 12 })],
      },
      { key: 'p-oil', title: 'Olive oil', published: true, variants: [variant('v-oil', 10.7, 7, { tax_category: 'food' })] },
    ],
  };
}

describe('taxes by destination', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: {
    variants: Record<string, string>;
    shipping_methods: Record<string, string>;
    payment_types: Record<string, string>;
    tax_zones: Record<string, string>;
    tax_categories: Record<string, string>;
  };
  const visitor = (): ShopClient => t.client(shop.storefront_token);

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    const res = await shop.admin.post('/admin/catalogue/import', euShop());
    if (res.status !== 200) throw new Error(`import failed: ${res.status} ${JSON.stringify(res.body)}`);
    ids = res.body.import.ids;
  });
  afterAll(() => t.close());

  async function checkout(client: ShopClient, country: string) {
    const c = await checkoutWith(client, [
      [ids.variants['v-wine'], 2],
      [ids.variants['v-spk'], 6],
      [ids.variants['v-oil'], 1],
    ]);
    return (
      await client
        .put(`/checkouts/${c.id}`, { shipping_address: { ...ADDRESS, country_code: country }, shipping_method_id: ids.shipping_methods.post })
        .expect(200)
    ).body.checkout;
  }

  it('France: French VAT by rate, excise on wine and sparkling, the shelf price kept (hand-computed)', async () => {
    const c = await checkout(visitor(), 'FR');
    // lines 24.00 + 142.80 + 10.70 = 177.50 gross; shipping 10.00 taxed at the highest line rate (20 %)
    // 20 %: (166.80 + 10.00) x 20/120 = 29.4667 -> 29.47; 5.5 %: 10.70 x 5.5/105.5 = 0.5578 -> 0.56
    // excise: 2 x 0.0075 hl x 4.10 = 0.0615 -> 0.06; 6 x 0.0075 hl x 10.15 = 0.45675 -> 0.46
    expect(c.totals).toMatchObject({
      subtotal: 177.5,
      shipping_amount: 10,
      shipping_tax_rate: 20,
      tax_lines: [
        { name: 'Tax 5.5% France', rate: 5.5, amount: 0.56 },
        { name: 'Tax 20% France', rate: 20, amount: 29.47 },
        { name: 'Excise duty', rate: 0, amount: 0.52 },
      ],
      tax_amount: 30.55,
      excise_amount: 0.52,
      total: 188.02,
      tax_zone: 'France',
      gross_price_policy: 'constant',
    });
    expect(c.line_items.map((l: { unit_price_with_tax: number }) => l.unit_price_with_tax)).toEqual([12, 23.8, 10.7]);
  });

  it('Italy and Switzerland: their rates, no excise, the same gross total (constant policy)', async () => {
    const it_ = (await checkout(visitor(), 'IT')).totals;
    // 22 %: 176.80 x 22/122 = 31.882 -> 31.88; 10 %: 10.70 x 10/110 = 0.9727 -> 0.97
    expect(it_.tax_lines).toEqual([
      { name: 'Tax 10% Italy', rate: 10, amount: 0.97 },
      { name: 'Tax 22% Italy', rate: 22, amount: 31.88 },
    ]);
    expect(it_.total).toBe(187.5);
    const ch = (await checkout(visitor(), 'CH')).totals;
    // 8.1 %: 176.80 x 8.1/108.1 = 13.2477 -> 13.25; 2.6 %: 10.70 x 2.6/102.6 = 0.2712 -> 0.27
    expect(ch.tax_lines).toEqual([
      { name: 'Tax 2.6% Switzerland', rate: 2.6, amount: 0.27 },
      { name: 'Tax 8.1% Switzerland', rate: 8.1, amount: 13.25 },
    ]);
    expect(ch.total).toBe(187.5);
    expect(ch.excise_amount).toBe(0);
  });

  it('re-prices when the shipping country changes; recompute keeps the net and moves the gross', async () => {
    const client = visitor();
    const fr = await checkout(client, 'FR');
    const ch = (await client.put(`/checkouts/${fr.id}`, { shipping_address: { ...ADDRESS, country_code: 'CH' } }).expect(200)).body.checkout;
    expect(ch.totals.tax_zone).toBe('Switzerland');
    expect(ch.totals.total).toBe(187.5);
    await shop.admin.put('/admin/tax_settings', { gross_price_policy: 'recompute' }).expect(200);
    try {
      const a = (await visitor().get(`/checkouts/${fr.id}`).expect(200)).body.checkout;
      const net = a.line_items.map((l: { unit_price: number }) => l.unit_price);
      const de = (await client.put(`/checkouts/${fr.id}`, { shipping_address: { ...ADDRESS, country_code: 'DE' } }).expect(200)).body.checkout;
      expect(de.line_items.map((l: { unit_price: number }) => l.unit_price)).toEqual(net);
      // DE keeps the imported gross (its rates are the origin ones); CH's gross is lower: the net x 1.081
      expect(de.line_items.map((l: { unit_price_with_tax: number }) => l.unit_price_with_tax)).toEqual([12, 23.8, 10.7]);
      expect(a.line_items.map((l: { unit_price_with_tax: number }) => l.unit_price_with_tax)).toEqual([10.9, 21.62, 10.26]);
      expect(a.totals.gross_price_policy).toBe('recompute');
    } finally {
      await shop.admin.put('/admin/tax_settings', { gross_price_policy: 'constant' }).expect(200);
    }
  });

  it('orders keep the rate, zone, category and excise charged; a rate change applies from its day', async () => {
    const client = visitor();
    const c = await checkout(client, 'FR');
    const done = await client.post(`/checkouts/${c.id}/complete`, { payment_type_id: ids.payment_types.invoice, accepted_terms: true, age_confirmed: true });
    expect([done.status, done.body.errors]).toEqual([200, undefined]);
    const orderId = done.body.checkout.order_id ?? done.body.checkout.order?.id;
    const lines = await t.db.query(
      `SELECT tax_rate::float8 AS rate, tax_category, tax_zone, excise_amount::float8 AS excise FROM order_lines WHERE order_id = $1 ORDER BY position`,
      [orderId],
    );
    expect(lines).toEqual([
      { rate: 20, tax_category: 'wine', tax_zone: 'France', excise: 0.06 },
      { rate: 20, tax_category: 'sparkling', tax_zone: 'France', excise: 0.46 },
      { rate: 5.5, tax_category: 'food', tax_zone: 'France', excise: 0 },
    ]);

    // France lowers wine VAT to 10 % from tomorrow: today's checkout still pays 20 %
    const rates = (await shop.admin.get('/admin/tax_rates?limit=250').expect(200)).body.tax_rates as Array<{
      id: string;
      category_id: string;
      zone_id: string;
    }>;
    const frWine = rates.find((r) => r.category_id === ids.tax_categories.wine && r.zone_id === ids.tax_zones.FR)!;
    await shop.admin.put(`/admin/tax_rates/${frWine.id}`, { valid_to: day(0) }).expect(200);
    const lower = (
      await shop.admin
        .post('/admin/tax_rates', { category_id: ids.tax_categories.wine, zone_id: ids.tax_zones.FR, rate: 10, excise_per_hl: 4.1, valid_from: day(1) })
        .expect(201)
    ).body.tax_rate;
    const overlap = await shop.admin
      .post('/admin/tax_rates', { category_id: ids.tax_categories.wine, zone_id: ids.tax_zones.FR, rate: 5, valid_from: day(0) })
      .expect(422);
    expect(overlap.body.errors).toMatch(/overlaps/);
    const before = (await checkout(visitor(), 'FR')).line_items[0];
    expect(before.unit_price).toBe(10); // 12.00 / 1.20
    // the change moves to today: new checkouts pay 10 %, the placed order keeps its 20 %
    await shop.admin.put(`/admin/tax_rates/${frWine.id}`, { valid_to: day(-1) }).expect(200);
    await shop.admin.put(`/admin/tax_rates/${lower.id}`, { valid_from: day(0) }).expect(200);
    const after = await checkout(visitor(), 'FR');
    expect(after.line_items[0].unit_price).toBe(10.91); // 12.00 / 1.10
    expect(after.totals.tax_lines.map((l: { rate: number }) => l.rate)).toEqual([5.5, 10, 20, 0]);
    const order = (await shop.admin.get(`/admin/orders/${orderId}`).expect(200)).body.order;
    expect(order.tax_lines).toEqual([
      { name: 'Tax 5.5% France', rate: 5.5, amount: 0.56 },
      { name: 'Tax 20% France', rate: 20, amount: 29.47 },
      { name: 'Excise duty', rate: 0, amount: 0.52 },
    ]);
  });

  it('separate excise: out of tax_lines and tax_amount, still in the total', async () => {
    await shop.admin.put('/admin/tax_settings', { excise_display: 'separate' }).expect(200);
    try {
      const c = (await checkout(visitor(), 'DE')).totals;
      // sparkling 6 x 0.0075 hl x 136 = 6.12; wine and food have none in DE
      expect(c.excise_amount).toBe(6.12);
      expect(c.tax_lines.some((l: { name: string }) => l.name === 'Excise duty')).toBe(false);
      expect(c.tax_amount).toBeCloseTo(
        c.tax_lines.reduce((a: number, l: { amount: number }) => a + l.amount, 0),
        2,
      );
      expect(c.total).toBe(177.5 + 10 + 6.12);
    } finally {
      await shop.admin.put('/admin/tax_settings', { excise_display: 'included' }).expect(200);
    }
  });

  it('an address in no zone keeps the origin rates; origin mode answers as before', async () => {
    await shop.admin.put('/admin/tax_settings', { mode: 'origin' }).expect(200);
    try {
      const c = (await checkout(visitor(), 'FR')).totals;
      expect(c.tax_zone).toBeUndefined();
      expect(c.excise_amount).toBeUndefined();
      expect(c.tax_lines.map((l: { name: string }) => l.name)).toEqual(['Tax 7%', 'Tax 19%']);
    } finally {
      await shop.admin.put('/admin/tax_settings', { mode: 'destination' }).expect(200);
    }
  });

  it('admin categories, rates and settings: CRUD, 422 naming the member, 404 foreign, scopes', async () => {
    const cat = (await shop.admin.post('/admin/tax_categories', { key: 'books', name: 'Books' }).expect(201)).body.tax_category;
    expect(cat).toMatchObject({ key: 'books', name: 'Books', excise_class: null, updated_at: null });
    expect((await shop.admin.post('/admin/tax_categories', { key: 'books', name: 'Again' }).expect(422)).body.errors).toMatch(/key/);
    expect((await shop.admin.post('/admin/tax_categories', { key: 'x', name: 'X', excise_class: 'beer' }).expect(422)).body.errors).toMatch(/excise_class/);
    const upd = (await shop.admin.put(`/admin/tax_categories/${cat.id}`, { excise_class: 'spirits' }).expect(200)).body.tax_category;
    expect(upd.excise_class).toBe('spirits');
    const other = await t.createShop();
    await other.admin.get(`/admin/tax_categories/${cat.id}`).expect(404);
    expect((await other.admin.post('/admin/tax_rates', { category_id: cat.id, zone_id: ids.tax_zones.FR, rate: 5 }).expect(422)).body.errors).toMatch(
      /category_id/,
    );
    expect((await shop.admin.post('/admin/tax_rates', { category_id: cat.id, zone_id: ids.tax_zones.FR, rate: 101 }).expect(422)).body.errors).toMatch(/rate/);
    expect(
      (
        await shop.admin
          .post('/admin/tax_rates', { category_id: cat.id, zone_id: ids.tax_zones.FR, rate: 5, valid_from: '2026-02-01', valid_to: '2026-01-01' })
          .expect(422)
      ).body.errors,
    ).toMatch(/valid_to/);
    const rate = (await shop.admin.post('/admin/tax_rates', { category_id: cat.id, zone_id: ids.tax_zones.FR, rate: 5.5 }).expect(201)).body.tax_rate;
    expect(rate).toMatchObject({ rate: 5.5, excise_per_hl: 0, valid_from: null, valid_to: null });
    await shop.admin.delete(`/admin/tax_categories/${cat.id}`).expect(204);
    await shop.admin.get(`/admin/tax_rates/${rate.id}`).expect(404);
    expect((await shop.admin.put('/admin/tax_settings', { mode: 'everywhere' }).expect(422)).body.errors).toMatch(/mode/);
    expect((await shop.admin.get('/admin/tax_settings').expect(200)).body.tax_settings).toEqual({
      mode: 'destination',
      gross_price_policy: 'constant',
      excise_display: 'included',
    });
    const reader = t.client(
      (await shop.admin.post('/admin/access_tokens', { label: 'r', tier: 'admin', scopes: ['Shop/settings/read'] }).expect(201)).body.access_token.token,
    );
    await reader.get('/admin/tax_rates').expect(200);
    await reader.put('/admin/tax_settings', { mode: 'origin' }).expect(403);
    const events = await t.db.query(`SELECT topic FROM outbox_events WHERE tenant_id = $1 AND topic LIKE 'tax_%' ORDER BY occurred_at, id`, [shop.tenant.id]);
    expect(events.map((e: { topic: string }) => e.topic)).toEqual(
      expect.arrayContaining(['tax_category.created', 'tax_category.deleted', 'tax_rate.created', 'tax_settings.updated']),
    );
  });

  it('the import: a second identical import changes nothing; unknown keys are 422 naming the member; the eu-2026 preset loads', async () => {
    const again = await shop.admin.post('/admin/catalogue/import', { tax: euShop().tax }).expect(200);
    expect(again.body.import.created).toMatchObject({ tax_categories: 0, tax_zones: 0, tax_rates: 0 });
    const bad = await shop.admin.post('/admin/catalogue/import', { tax: { rates: [{ category: 'nope', zone: 'FR', rate: 5 }] } }).expect(422);
    expect(bad.body.errors).toMatch(/tax\.rates\[0\]\.category/);
    const badZone = await shop.admin.post('/admin/catalogue/import', { tax: { zones: [{ key: 'x', name: 'X', countries: ['XX'] }] } }).expect(422);
    expect(badZone.body.errors).toMatch(/tax\.zones\[0\]/);
    const other = await t.createShop();
    const preset = await other.admin.post('/admin/catalogue/import', { tax: { preset: 'eu-2026' } }).expect(200);
    expect(preset.body.import.created).toMatchObject({ tax_categories: 2, tax_zones: 30 });
    expect(preset.body.import.created.tax_rates).toBe(59);
    const zones = (await other.admin.get('/admin/tax_zones?limit=250').expect(200)).body.tax_zones as Array<{ key: string; countries: string[] }>;
    expect(zones.map((z) => z.key).sort()).toContain('NO');
    await other.admin.post('/admin/catalogue/import', { tax: { preset: 'eu-1999' } }).expect(422);
  });

  async function paidOrder(country: string): Promise<string> {
    const client = visitor();
    const c = await checkout(client, country);
    const done = await client
      .post(`/checkouts/${c.id}/complete`, { payment_type_id: ids.payment_types.invoice, accepted_terms: true, age_confirmed: true })
      .expect(200);
    const orderId = done.body.checkout.order_id as string;
    await t.get(OrdersService).recordPayment(RequestContext.forTenant(shop.tenant.id), orderId, 'paid');
    return orderId;
  }

  it('the tax report: by country and rate over paid orders less refunds, JSON and CSV (hand-computed)', async () => {
    const it_ = await paidOrder('IT');
    await paidOrder('CH');
    await shop.admin.post(`/admin/orders/${it_}/refunds`, { amount: 93.75 }).expect(201);
    const res = await shop.admin.get(`/admin/reports/tax?from=${day(-1)}&to=${day(0)}`).expect(200);
    // CH: 8.1 %: 166.80 + 10.00 - 13.25 = 163.55; 2.6 %: 10.70 - 0.27 = 10.43
    // IT, half refunded: 22 %: (166.80 + 10.00 - 31.88) / 2 = 72.46, tax 15.94; 10 %: (10.70 - 0.97) / 2 = 4.865 -> 4.87, tax 0.485 -> 0.49
    expect(res.body.tax_report.rows).toEqual([
      { country: 'CH', currency: 'EUR', rate: 2.6, taxable_amount: 10.43, tax_amount: 0.27, excise_amount: 0, orders: 1 },
      { country: 'CH', currency: 'EUR', rate: 8.1, taxable_amount: 163.55, tax_amount: 13.25, excise_amount: 0, orders: 1 },
      { country: 'IT', currency: 'EUR', rate: 10, taxable_amount: 4.87, tax_amount: 0.49, excise_amount: 0, orders: 1 },
      { country: 'IT', currency: 'EUR', rate: 22, taxable_amount: 72.46, tax_amount: 15.94, excise_amount: 0, orders: 1 },
    ]);
    const csv = await shop.admin.get(`/admin/reports/tax?from=${day(-1)}&to=${day(0)}&format=csv`).expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.text.split('\r\n')[0]).toBe('country,currency,rate,taxable_amount,tax_amount,excise_amount,orders');
    expect(csv.text).toContain('IT,EUR,22,72.46,15.94,0,1');
    expect((await shop.admin.get(`/admin/reports/tax?from=${day(1)}&to=${day(2)}`).expect(200)).body.tax_report.rows).toEqual([]);
    expect((await shop.admin.get('/admin/reports/tax?from=2026-13-01&to=2026-12-31').expect(422)).body.errors).toMatch(/from/);
    expect((await shop.admin.get(`/admin/reports/tax?from=${day(0)}&to=${day(-1)}`).expect(422)).body.errors).toMatch(/to/);
    await shop.admin.get(`/admin/reports/tax?from=${day(0)}&to=${day(0)}&format=xml`).expect(422);
  });

  it('npm run shop -- tax load-eu --tenant T loads the eu-2026 preset, idempotently', async () => {
    const other = await t.createShop();
    const run = async (...argv: string[]) => {
      const out: string[] = [];
      const code = await runCli(argv, { out: (x) => out.push(x), err: () => undefined }, { config: t.config, databaseUrl: t.databaseUrl });
      passport.use('bearer', t.get(BearerStrategy) as unknown as Strategy);
      return { code, out };
    };
    const first = await run('tax', 'load-eu', '--tenant', other.tenant.handle, '--mode', 'destination', '--json');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.out[0]).tax.created).toEqual({ tax_categories: 2, tax_zones: 30, tax_rates: 59 });
    const again = await run('tax', 'load-eu', '--tenant', other.tenant.id, '--json');
    expect(JSON.parse(again.out[0]).tax.created).toEqual({ tax_categories: 0, tax_zones: 0, tax_rates: 0 });
    expect((await other.admin.get('/admin/tax_settings').expect(200)).body.tax_settings.mode).toBe('destination');
    expect((await run('tax', 'load-eu', '--json')).code).toBe(1);
  });

  it("the export writes the tax member and the variants' tax_category and volume_ml; importing it elsewhere round-trips", async () => {
    const exported = await shop.admin
      .get('/admin/catalogue/export')
      .buffer(true)
      .parse((res, cb) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => cb(null, text));
      });
    expect(exported.status).toBe(200);
    const doc = JSON.parse(exported.body as string);
    expect(doc.tax.mode).toBe('destination');
    expect(doc.tax.categories.map((c: { key: string }) => c.key)).toEqual(expect.arrayContaining(['wine', 'sparkling', 'food']));
    const spk = doc.products.flatMap((p: { variants: Array<{ key: string }> }) => p.variants).find((v: { key: string }) => v.key === 'v-spk');
    expect(spk).toMatchObject({ tax_category: 'sparkling', volume_ml: 750 });
    const copy = await t.createShop();
    await copy.admin.post('/admin/catalogue/import', doc).expect(200);
    const again = await copy.admin
      .get('/admin/catalogue/export')
      .buffer(true)
      .parse((res, cb) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => cb(null, text));
      });
    const second = JSON.parse(again.body as string);
    expect(second.tax).toEqual(doc.tax);
    // products created in one import share a created_at (their order is by id): compare by key
    const byKey = (ps: Array<{ key: string }>) => [...ps].sort((a, b) => a.key.localeCompare(b.key));
    expect(byKey(second.products)).toEqual(byKey(doc.products));
  });
});
