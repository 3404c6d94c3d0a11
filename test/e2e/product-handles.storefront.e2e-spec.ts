import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { cartImport } from './cart.fixture.js';

type Ids = Record<string, Record<string, string>>;

/** GET /products/by_handle?handle=: the storefront's URLs carry handles (issue 37); the same detail as by id. */
describe('storefront product by handle', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let ids: Ids;
  let otherIds: Ids;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    other = await t.createShop();
    ids = (await shop.admin.post('/admin/catalogue/import', cartImport()).expect(200)).body.import.ids;
    otherIds = (await other.admin.post('/admin/catalogue/import', cartImport()).expect(200)).body.import.ids;
  });
  afterAll(() => t.close());

  it('answers the detail GET /products/{id} gives, in the shop of the token', async () => {
    const c = t.client(shop.storefront_token);
    const byId = (await c.get(`/products/${ids.products['p-merlot']}`).expect(200)).body;
    const byHandle = (await c.get('/products/by_handle?handle=merlot-2019').expect(200)).body;
    expect(byHandle).toEqual(byId);
    expect(byHandle.product.handle).toBe('merlot-2019');
    const theirs = (await t.client(other.storefront_token).get('/products/by_handle?handle=merlot-2019').expect(200)).body;
    expect(theirs.product.id).toBe(otherIds.products['p-merlot']);
    expect(theirs.product.id).not.toBe(byId.product.id);
  });

  it('is 422 naming handle without one', async () => {
    const c = t.client(shop.storefront_token);
    for (const query of ['', '?handle=', '?handle=%20']) {
      const res = await c.get(`/products/by_handle${query}`).expect(422);
      expect(res.body.errors).toMatch(/handle/);
    }
  });

  it('is 404 with the error envelope for an unknown, hidden or hostile handle (never a 500)', async () => {
    const c = t.client(shop.storefront_token);
    const unknown = await c.get('/products/by_handle?handle=no-such-wine').expect(404);
    expect(typeof unknown.body.errors).toBe('string');
    for (const handle of ['MERLOT-2019', '%27%3B%20drop%20table%20products%3B--', 'x'.repeat(3000), '%E2%80%AE%F0%9F%8D%B7', 'a&handle=b', '%00']) {
      const res = await c.get(`/products/by_handle?handle=${handle}`);
      expect([404, 414, 422, 431]).toContain(res.status); // two handles or a NUL: 422
      expect(res.body.errors).toBeDefined();
    }
    await shop.admin.put(`/admin/products/${ids.products['p-merlot']}`, { published: false }).expect(200);
    await c.get(`/products/${ids.products['p-merlot']}`).expect(404);
    await c.get('/products/by_handle?handle=merlot-2019').expect(404);
  });
});
