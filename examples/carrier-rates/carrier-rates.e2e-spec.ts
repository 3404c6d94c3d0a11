import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, ShopClient, TestApp, TestShop } from 'vinoshop-commerce/testing';
import { CarrierRatesModule, type CarrierRatesOptions } from './carrier-rates.module.js';

const METRICS_TOKEN = 'carrier-rates-metrics-token-0123456789';

describe('example extension: carrier rates (ShippingRateProvider)', () => {
  let t: TestApp;
  let shop: TestShop;
  let wine: string;
  let carrier: string;
  const options: CarrierRatesOptions = { baseMinor: 500, perBottleMinor: 50, refuses: ['US'], latencyMs: 0 };

  beforeAll(async () => {
    t = await createTestApp({
      imports: [CarrierRatesModule.forRoot(options)],
      config: { SHIPPING_RATE_PROVIDER_TIMEOUT_MS: 200, METRICS_TOKEN },
    });
    shop = await t.createShop();
    const res = await shop.admin
      .post('/admin/catalogue/import', {
        settings: { default_language: 'en', default_currency: 'CHF', prices_include_tax: true, terms: { required: false } },
        currencies: [{ key: 'CHF', code: 'CHF', name: 'Swiss franc', rate: 1, published: true }],
        countries: [
          { key: 'CH', code: 'CH', name: 'Switzerland' },
          { key: 'US', code: 'US', name: 'United States' },
        ],
        shipping_methods: [
          {
            key: 'carrier',
            name: 'Carrier',
            price: 15,
            tax_rate: 8.1,
            rate_provider: 'demo-carrier',
            rate_table: { basis: 'bottles', steps: [{ from: 1, to: 6, price: 12 }], beyond: { every: 6, price: 8 } },
          },
        ],
        payment_types: [{ key: 'invoice', name: 'Invoice', kind: 'invoice' }],
        products: [{ key: 'p', title: 'Wine', variants: [{ key: 'v', price: 20, tax_rate: 8.1, published: true, active: true }] }],
      })
      .expect(200);
    wine = res.body.import.ids.variants.v;
    carrier = res.body.import.ids.shipping_methods.carrier;
  });
  afterAll(() => t.close());

  async function priced(country: string, bottles: number) {
    const client: ShopClient = t.client(shop.storefront_token);
    await client.post('/cart/items', { article_id: wine, quantity: bottles }).expect(200);
    const c = (await client.post('/checkouts').expect(200)).body.checkout;
    const address = { first_name: 'A', last_name: 'B', street: 'S', zip_code: '8001', location: 'L', email: 'a@example.com', country_code: country };
    return (await client.put(`/checkouts/${c.id}`, { shipping_address: address }).expect(200)).body.checkout;
  }
  const fallbacks = async () => {
    const text = (await t.http().get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200)).text;
    const line = text
      .split('\n')
      .find((l) => l.startsWith('shipping_rate_provider_fallbacks_total{') && l.includes('provider="demo-carrier"') && l.includes('reason="timeout"'));
    return line ? Number(line.split(' ').pop()) : 0;
  };

  it("prices the method by the carrier's answer, and leaves it out where the carrier cannot serve", async () => {
    // 5.00 + 8 × 0.50, not the table's 20.00 (12.00 + one started case of 6)
    const ch = await priced('CH', 8);
    expect(ch.shipping_options).toEqual([{ id: carrier, name: 'Carrier', price: '9.00', expected_delivery_date: expect.any(String) }]);
    expect((await priced('US', 8)).shipping_options).toEqual([]);
  });

  it('falls back to the method’s own rate table when the carrier is too slow, counting it', async () => {
    const before = await fallbacks();
    options.latencyMs = 1000;
    try {
      const slow = await priced('CH', 8);
      expect(slow.shipping_options).toEqual([{ id: carrier, name: 'Carrier', price: '20.00', expected_delivery_date: expect.any(String) }]);
    } finally {
      options.latencyMs = 0;
    }
    expect(await fallbacks()).toBeGreaterThan(before);
  });
});
