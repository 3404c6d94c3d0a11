import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { walkIds } from '../helpers/paging.js';
import { addr, shopImport } from './shipping.fixture.js';

/**
 * GET /shipping_methods (storefront, issue 37): each method's free-shipping threshold `free_over`, for the cart's
 * progress before checkout. SPEC pins the checkout's shipping_options to four members, so the threshold is answered
 * here. The expected list is the admin list of the same shop, mapped by hand (the model).
 */
describe('storefront GET /shipping_methods', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: { variants: Record<string, string>; shipping_methods: Record<string, string> };

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    const doc = shopImport();
    doc.settings.languages = ['en', 'de'];
    doc.shipping_methods = [
      { key: 'post', name: { en: 'Swiss Post', de: 'Die Post' }, price: 9.5, tax_rate: 8.1, countries: ['CH'], free_over: 150, delivery_days: 2 },
      { key: 'usa', name: 'USA freight', price: 40, tax_rate: 0, countries: ['US'], free_over: null, delivery_days: null },
      { key: 'pickup', name: 'Pick-up', price: 0, tax_rate: 0, countries: [], free_over: 0.5, delivery_days: 0 },
    ] as unknown as typeof doc.shipping_methods;
    ids = (await shop.admin.post('/admin/catalogue/import', doc).expect(200)).body.import.ids;
  });
  afterAll(() => t.close());

  const visitor = () => t.client(shop.storefront_token);

  it('lists every method with its name in the asked language, countries, free_over and delivery_days, as the admin list has them', async () => {
    const admin = (await shop.admin.get('/admin/shipping_methods').expect(200)).body.shipping_methods as Array<{
      id: string;
      key: string;
      name: Record<string, string>;
      countries: string[];
      free_over: number | null;
      delivery_days: number | null;
    }>;
    expect(admin).toHaveLength(3);
    for (const locale of ['en', 'de']) {
      const res = await visitor().get(`/shipping_methods?locale=${locale}`).expect(200);
      expect(Object.keys(res.body)).toEqual(['shipping_methods']);
      expect(res.body.shipping_methods).toEqual(
        admin.map((m) => ({ id: m.id, name: m.name[locale] ?? m.name.en, countries: m.countries, free_over: m.free_over, delivery_days: m.delivery_days })),
      );
    }
    const post = (await visitor().get('/shipping_methods?locale=de').expect(200)).body.shipping_methods.find(
      (m: { id: string }) => m.id === ids.shipping_methods.post,
    );
    expect(post).toEqual({ id: ids.shipping_methods.post, name: 'Die Post', countries: ['CH'], free_over: 150, delivery_days: 2 });
  });

  it('is cursored: one per page, following the Link header, gives the same methods in the same order', async () => {
    const all = (await visitor().get('/shipping_methods').expect(200)).body.shipping_methods.map((m: { id: string }) => m.id);
    expect(await walkIds(visitor(), '/shipping_methods?limit=1', 'shipping_methods')).toEqual(all);
  });

  it('answers a bad limit or page_info with 422 and the error envelope, never a 500', async () => {
    for (const query of ['limit=nope', 'page_info=forged']) {
      const res = await visitor().get(`/shipping_methods?${query}`).expect(422);
      expect(typeof res.body.errors).toBe('string');
    }
  });

  it('is the threshold the checkout applies: Swiss Post costs 9.50 below 150.00 and nothing from 150.00 (7 and 8 bottles of 20.00)', async () => {
    const { free_over } = (await visitor().get('/shipping_methods').expect(200)).body.shipping_methods.find(
      (m: { id: string }) => m.id === ids.shipping_methods.post,
    );
    for (const [bottles, price] of [
      [7, '9.50'],
      [8, '0.00'],
    ] as const) {
      const c = visitor();
      await c.post('/cart/items', { article_id: ids.variants['v-wine'], quantity: bottles }).expect(200);
      const k = (await c.post('/checkouts').expect(200)).body.checkout;
      const put = (await c.put(`/checkouts/${k.id}`, { shipping_address: addr('CH', '8001') }).expect(200)).body.checkout;
      expect(put.totals.subtotal >= free_over).toBe(price === '0.00');
      expect(put.shipping_options.find((o: { id: string }) => o.id === ids.shipping_methods.post).price).toBe(price);
    }
  });
});
