import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, createTestApp, ShopClient, TestApp, TestShop } from '../helpers/test-app.js';
import { visitorIdOf } from '../helpers/visitor.js';
import { cartImport, EUR_RATE, round } from './cart.fixture.js';

const PASSWORD = 'correct horse battery';
type Ids = Record<string, Record<string, string>>;
type Wishlist = { item_count: number; items: Array<{ product_id: string; added_at: string; product: Record<string, any> }> };

describe('storefront wishlist', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let ids: Ids;
  let otherIds: Ids;
  const p = (key: string) => ids.products[key];

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    other = await t.createShop();
    ids = (await shop.admin.post('/admin/catalogue/import', cartImport()).expect(200)).body.import.ids;
    otherIds = (await other.admin.post('/admin/catalogue/import', cartImport()).expect(200)).body.import.ids;
  });
  afterAll(() => t.close());

  async function visitor(s: TestShop = shop): Promise<{ c: ShopClient; visitorId: string }> {
    const c = t.client(s.storefront_token);
    const res = await c.get('/wishlist').expect(200);
    return { c, visitorId: visitorIdOf(res.headers['set-cookie']) };
  }
  async function save(c: ShopClient, productId: string): Promise<Wishlist> {
    return (await c.post('/wishlist/items', { product_id: productId }).expect(200)).body.wishlist;
  }
  const productIds = (w: Wishlist) => w.items.map((i) => i.product_id);

  it('GET /wishlist for a new visitor: 200 with an empty list, not 404', async () => {
    const res = await t.client(shop.storefront_token).get('/wishlist').expect(200);
    expect(res.body).toEqual({ wishlist: { item_count: 0, items: [] } });
    expect(res.headers['set-cookie']?.[0]).toMatch(/^visitor_id=/);
  });

  it('POST /wishlist/items saves a product; items are newest first with the list projection of GET /products', async () => {
    const { c } = await visitor();
    await save(c, p('p-merlot'));
    await save(c, p('p-case'));
    const w = await save(c, p('p-mixed'));
    expect(Object.keys(w).sort()).toEqual(['item_count', 'items']);
    expect(w.item_count).toBe(3);
    expect(productIds(w)).toEqual([p('p-mixed'), p('p-case'), p('p-merlot')]);
    for (const item of w.items) {
      expect(Object.keys(item).sort()).toEqual(['added_at', 'product', 'product_id']);
      expect(new Date(item.added_at).toISOString()).toBe(item.added_at);
      const listed = (await c.get(`/products?ids=${item.product_id}`).expect(200)).body.products[0];
      expect(item.product).toEqual(listed);
    }
    expect(w.items[2].product).toMatchObject({
      id: p('p-merlot'),
      handle: 'merlot-2019',
      title: 'Merlot 2019',
      currency: 'CHF',
      price_min: 24.9,
      price_max: 24.9,
      variants_count: 1,
    });
    // only the visible variant of the mixed product
    expect(w.items[0].product.variants.map((v: { id: string }) => v.id)).toEqual([ids.variants['v-visible']]);
    expect(new Date(w.items[0].added_at).getTime()).toBeGreaterThanOrEqual(new Date(w.items[1].added_at).getTime());
  });

  it('saving a product again is idempotent (no duplicate, same position and date)', async () => {
    const { c } = await visitor();
    const first = await save(c, p('p-merlot'));
    await save(c, p('p-case'));
    const again = await save(c, p('p-merlot'));
    expect(again.item_count).toBe(2);
    expect(productIds(again)).toEqual([p('p-case'), p('p-merlot')]);
    expect(again.items[1].added_at).toBe(first.items[0].added_at);
  });

  it.each([
    ['an unknown product', () => '00000000-0000-4000-8000-000000000000'],
    ['an unpublished product', () => p('p-hidden')],
    ['a variant id (not a product)', () => ids.variants['v-merlot']],
    ["another shop's product", () => otherIds.products['p-merlot']],
  ])('POST /wishlist/items with %s is 422 and saves nothing', async (_name, id) => {
    const { c } = await visitor();
    const res = await c.post('/wishlist/items', { product_id: id() }).expect(422);
    expect(res.body).toEqual({ errors: expect.stringContaining('product_id') });
    expect((await c.get('/wishlist').expect(200)).body.wishlist).toEqual({ item_count: 0, items: [] });
  });

  it.each([
    ['no body', undefined],
    ['no product_id', {}],
    ['product_id not a UUID', { product_id: 'p-merlot' }],
    ['product_id of the wrong type', { product_id: 5 }],
  ])('POST /wishlist/items with %s is 422', async (_name, body) => {
    const { c } = await visitor();
    expect(typeof (await c.post('/wishlist/items', body).expect(422)).body.errors).toBe('string');
  });

  it('DELETE /wishlist/items/{id} unsaves the product and is idempotent', async () => {
    const { c } = await visitor();
    await save(c, p('p-merlot'));
    await save(c, p('p-case'));
    let w = (await c.delete(`/wishlist/items/${p('p-merlot')}`).expect(200)).body.wishlist;
    expect(w).toMatchObject({ item_count: 1 });
    expect(productIds(w)).toEqual([p('p-case')]);
    w = (await c.delete(`/wishlist/items/${p('p-merlot')}`).expect(200)).body.wishlist;
    expect(productIds(w)).toEqual([p('p-case')]);
    await c.delete(`/wishlist/items/00000000-0000-4000-8000-000000000000`).expect(200);
    expect((await c.delete('/wishlist/items/not-a-uuid').expect(422)).body.errors).toContain('id');
  });

  it('DELETE /wishlist unsaves everything and is idempotent', async () => {
    const { c } = await visitor();
    await save(c, p('p-merlot'));
    await save(c, p('p-case'));
    expect((await c.delete('/wishlist').expect(200)).body).toEqual({ wishlist: { item_count: 0, items: [] } });
    expect((await c.delete('/wishlist').expect(200)).body).toEqual({ wishlist: { item_count: 0, items: [] } });
  });

  it('limit (clamped to 1..250) and offset page the list, newest first; item_count is the full total', async () => {
    const { c } = await visitor();
    const order = ['p-merlot', 'p-case', 'p-cheap', 'p-mixed'];
    for (const key of order) await save(c, p(key));
    const newestFirst = [...order].reverse().map(p);
    const page = async (q: string) => (await c.get(`/wishlist${q}`).expect(200)).body.wishlist as Wishlist;
    expect(productIds(await page(''))).toEqual(newestFirst);
    expect(productIds(await page('?limit=2'))).toEqual(newestFirst.slice(0, 2));
    expect(productIds(await page('?limit=2&offset=2'))).toEqual(newestFirst.slice(2));
    expect(productIds(await page('?offset=3'))).toEqual(newestFirst.slice(3));
    expect(await page('?offset=10')).toEqual({ item_count: 4, items: [] });
    expect(productIds(await page('?limit=0'))).toEqual(newestFirst.slice(0, 1));
    expect(productIds(await page('?limit=-5'))).toEqual(newestFirst.slice(0, 1));
    expect(productIds(await page('?limit=1000'))).toEqual(newestFirst);
    for (const q of ['?limit=2', '?offset=2', '?limit=1&offset=3']) expect((await page(q)).item_count).toBe(4);
    for (const q of ['?limit=abc', '?limit=1.5', '?offset=-1', '?offset=abc', '?offset=1.5']) await c.get(`/wishlist${q}`).expect(422);
  });

  it('item_count counts a product no longer published, which is not returned', async () => {
    const { c } = await visitor();
    await save(c, p('p-merlot'));
    await save(c, p('p-cheap'));
    const doc = cartImport();
    doc.products.find((x) => x.key === 'p-cheap')!.published = false;
    await shop.admin.post('/admin/catalogue/import', doc).expect(200);
    try {
      const w = (await c.get('/wishlist').expect(200)).body.wishlist as Wishlist;
      expect(w.item_count).toBe(2);
      expect(productIds(w)).toEqual([p('p-merlot')]);
      expect(((await c.get('/wishlist?limit=1').expect(200)).body.wishlist as Wishlist).items.map((i) => i.product_id)).toEqual([p('p-merlot')]);
      // it cannot be saved again while unpublished, and it can still be removed
      await c.post('/wishlist/items', { product_id: p('p-cheap') }).expect(422);
    } finally {
      await shop.admin.post('/admin/catalogue/import', cartImport()).expect(200);
    }
    expect(productIds((await c.get('/wishlist').expect(200)).body.wishlist)).toEqual([p('p-cheap'), p('p-merlot')]);
  });

  it('products follow the active currency (the cart currency)', async () => {
    const { c } = await visitor();
    await save(c, p('p-merlot'));
    await c.put('/cart/currency', { code: 'EUR' }).expect(200);
    const w = (await c.get('/wishlist').expect(200)).body.wishlist as Wishlist;
    expect(w.items[0].product).toMatchObject({ currency: 'EUR', price_min: round(24.9 * EUR_RATE) });
  });

  it('two visitors, and two shops, have separate wishlists', async () => {
    const a = await visitor();
    const b = await visitor();
    await save(a.c, p('p-merlot'));
    await save(b.c, p('p-case'));
    expect(productIds((await a.c.get('/wishlist')).body.wishlist)).toEqual([p('p-merlot')]);
    expect(productIds((await b.c.get('/wishlist')).body.wishlist)).toEqual([p('p-case')]);
    // a's browser on the other shop
    const auth = { Authorization: `Bearer ${other.storefront_token}` };
    expect((await a.c.agent.get(`${API}/wishlist`).set(auth).expect(200)).body.wishlist).toEqual({ item_count: 0, items: [] });
    await a.c.agent
      .post(`${API}/wishlist/items`)
      .set(auth)
      .send({ product_id: p('p-case') })
      .expect(422);
    await a.c.agent.post(`${API}/wishlist/items`).set(auth).send({ product_id: otherIds.products['p-case'] }).expect(200);
    expect(productIds((await a.c.get('/wishlist')).body.wishlist)).toEqual([p('p-merlot')]);
  });

  it('needs the storefront/wishlist scope when a token is sent', async () => {
    const minted = (await shop.admin.post('/admin/access_tokens', { label: 'cart only', tier: 'storefront', scopes: ['storefront/cart'] }).expect(201)).body
      .access_token;
    await t.client(minted.token).get('/wishlist').expect(403);
  });

  it("a shopper has their own wishlist; sign-in carries the visitor's saved products over (each kept once)", async () => {
    const email = `wish-${Date.now()}@example.com`;
    const first = await visitor();
    await first.c.post('/customers', { email, password: PASSWORD, first_name: 'Ada', last_name: 'Vine' }).expect(201);
    await save(first.c, p('p-case'));
    const shopper = t.client((await first.c.post('/customer/auth/token', { email, password: PASSWORD }).expect(200)).body.customer_access_token.access_token);
    expect(productIds((await shopper.get('/wishlist').expect(200)).body.wishlist)).toEqual([p('p-case')]);
    const second = await visitor();
    await save(second.c, p('p-merlot'));
    await save(second.c, p('p-case'));
    await second.c.post('/customer/auth/token', { email, password: PASSWORD }).expect(200);
    const w = (await shopper.get('/wishlist').expect(200)).body.wishlist as Wishlist;
    expect(w.item_count).toBe(2);
    expect(productIds(w).sort()).toEqual([p('p-merlot'), p('p-case')].sort());
    expect((await second.c.get('/wishlist').expect(200)).body.wishlist).toEqual({ item_count: 0, items: [] });
    expect((await first.c.get('/wishlist').expect(200)).body.wishlist).toEqual({ item_count: 0, items: [] });
  });
});
