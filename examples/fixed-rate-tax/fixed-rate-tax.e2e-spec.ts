import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, TestApp, TestShop } from 'vinoshop-commerce/testing';
import { FixedRateTaxModule } from './fixed-rate-tax.module.js';

describe('example extension: a TaxProvider with a fixed table', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: { variants: Record<string, string>; shipping_methods: Record<string, string> };

  beforeAll(async () => {
    t = await createTestApp({ imports: [FixedRateTaxModule.with({ FR: { wine: 10, '*': 20 } })] });
    shop = await t.createShop();
    const res = await shop.admin
      .post('/admin/catalogue/import', {
        settings: { default_language: 'en', languages: ['en'], default_currency: 'EUR', prices_include_tax: false },
        currencies: [{ key: 'EUR', code: 'EUR', name: 'Euro', symbol: '€', rate: 1, published: true }],
        countries: [
          { key: 'FR', code: 'FR', name: 'France', shipping: true },
          { key: 'DE', code: 'DE', name: 'Germany', shipping: true },
        ],
        shipping_methods: [{ key: 'post', name: 'Post', price: 10, tax_rate: 19, countries: ['FR', 'DE'] }],
        tax: {
          mode: 'destination',
          categories: [{ key: 'wine', name: 'Wine' }],
          zones: [
            { key: 'FR', name: 'France', countries: ['FR'] },
            { key: 'DE', name: 'Germany', countries: ['DE'] },
          ],
          rates: [
            { category: 'wine', zone: 'FR', rate: 20 },
            { category: 'wine', zone: 'DE', rate: 19 },
          ],
        },
        products: [
          { key: 'p', title: 'Riesling', published: true, variants: [{ key: 'v', price: 10, tax_rate: 19, tax_category: 'wine', track_inventory: false }] },
        ],
      })
      .expect(200);
    ids = res.body.import.ids;
  });
  afterAll(() => t.close());

  async function taxTo(country: string) {
    const client = t.client(shop.storefront_token);
    await client.post('/cart/items', { article_id: ids.variants.v, quantity: 1 }).expect(200);
    const c = (await client.post('/checkouts').expect(200)).body.checkout;
    const put = await client
      .put(`/checkouts/${c.id}`, { shipping_address: { country_code: country, zip_code: '1' }, shipping_method_id: ids.shipping_methods.post })
      .expect(200);
    return put.body.checkout.totals.tax_lines;
  }

  it("the provider's rates apply where it answers; elsewhere the shop's own tables", async () => {
    // FR: the provider's 10 % for wine, shipping at the highest line rate: (10 + 10) x 10 %
    expect(await taxTo('FR')).toEqual([{ name: 'Tax 10% France', rate: 10, amount: 2 }]);
    // DE: the provider throws (no table), the shop's 19 % answers
    expect(await taxTo('DE')).toEqual([{ name: 'Tax 19% Germany', rate: 19, amount: 3.8 }]);
  });
});
