import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CartService } from '../../src/cart/cart.service.js';
import { RequestContext } from '../../src/common/context/request-context.js';
import { TenancyService } from '../../src/tenancy/tenancy.service.js';
import { quantityRuleHoldsSql } from '../../src/cart/cart.repository.js';
import { quantityRuleViolation } from '../../src/pricing/index.js';
import { API, createTestApp, ShopClient, TestApp, TestShop } from '../helpers/test-app.js';
import { visitorIdOf } from '../helpers/visitor.js';
import { cartImport, EUR_RATE, JPY_RATE, netOf, round } from './cart.fixture.js';

const CART_KEYS = [
  'currency',
  'show_net_prices',
  'item_count',
  'items',
  'items_subtotal_price',
  'total_discount',
  'total_price',
  'total_weight',
  'discount_code',
  'discount_code_error',
].sort();
const LINE_KEYS = [
  'id',
  'product_id',
  'sku',
  'title',
  'url',
  'quantity',
  'price',
  'net_price',
  'gross_price',
  'discount_percent',
  'line_price',
  'image',
  'vendor',
  'grams',
  'year',
  'size',
  'color',
].sort();
const PASSWORD = 'correct horse battery';
let emails = 0;

type Ids = Record<string, Record<string, string>>;
type Cart = Record<string, any>;

/** Sum of lines and the totals' identities every cart must satisfy. */
function expectConsistent(cart: Cart, precision = 2): void {
  const f = 10 ** precision;
  const sum = cart.items.reduce((acc: number, l: Cart) => acc + Math.round(l.line_price * f), 0);
  expect(Math.round(cart.items_subtotal_price * f)).toBe(sum);
  expect(Math.round(cart.total_price * f)).toBe(Math.round(cart.items_subtotal_price * f) - Math.round(cart.total_discount * f));
  for (const l of cart.items) {
    expect(Math.round(l.line_price * f)).toBe(Math.round(l.price * l.quantity * f));
    expect(l.price).toBe(cart.show_net_prices ? l.net_price : l.gross_price);
  }
  expect(cart.item_count).toBe(Math.round(cart.items.reduce((acc: number, l: Cart) => acc + l.quantity, 0)));
}

describe('storefront cart', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let ids: Ids;
  let otherIds: Ids;
  const v = (key: string) => ids.variants[key];

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    other = await t.createShop();
    ids = (await shop.admin.post('/admin/catalogue/import', cartImport()).expect(200)).body.import.ids;
    otherIds = (await other.admin.post('/admin/catalogue/import', cartImport()).expect(200)).body.import.ids;
  });
  afterAll(() => t.close());

  /** A fresh visitor (its own cookie jar) of `s`, cookie set by a first GET /cart. */
  async function visitor(s: TestShop = shop): Promise<{ c: ShopClient; visitorId: string }> {
    const c = t.client(s.storefront_token);
    const res = await c.get('/cart').expect(200);
    return { c, visitorId: visitorIdOf(res.headers['set-cookie']) };
  }
  async function add(c: ShopClient, variant: string, quantity?: number, status = 200): Promise<Cart> {
    const res = await c.post('/cart/items', quantity === undefined ? { article_id: variant } : { article_id: variant, quantity }).expect(status);
    return status === 200 ? res.body.cart : res.body;
  }
  /** Registers a shopper from browser `c` (optionally of a customer type, set by the admin). */
  async function register(c: ShopClient, type?: string): Promise<{ email: string; id: string }> {
    const email = `shopper-${++emails}-${Date.now()}@example.com`;
    const customer = (await c.post('/customers', { email, password: PASSWORD, first_name: 'Ada', last_name: 'Vine' }).expect(201)).body.customer;
    if (type) await shop.admin.put(`/admin/customers/${customer.id}`, { type }).expect(200);
    return { email, id: customer.id };
  }
  /** Signs in from browser `c` (which carries that visitor's cart over) and gives a client holding the shopper token. */
  async function signIn(c: ShopClient, email: string): Promise<ShopClient> {
    const res = await c.post('/customer/auth/token', { email, password: PASSWORD }).expect(200);
    return t.client(res.body.customer_access_token.access_token);
  }
  async function discountCode(body: Record<string, unknown>): Promise<{ id: string }> {
    return (await shop.admin.post('/admin/discount_codes', body).expect(201)).body.discount_code;
  }

  // ------------------------------------------------------------------ GET / DELETE /cart

  it('GET /cart for a new visitor: 200 with an empty cart, sets the visitor cookie, creates nothing', async () => {
    const before = (await t.db.query(`SELECT count(*)::int AS n FROM carts`))[0].n;
    const c = t.client(shop.storefront_token);
    const res = await c.get('/cart').expect(200);
    expect(Object.keys(res.body)).toEqual(['cart']);
    expect(res.body.cart).toEqual({
      currency: 'CHF',
      show_net_prices: false,
      item_count: 0,
      items: [],
      items_subtotal_price: 0,
      total_discount: 0,
      total_price: 0,
      total_weight: 0,
      discount_code: null,
      discount_code_error: null,
    });
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((x) => x.startsWith('visitor_id='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect((await t.db.query(`SELECT count(*)::int AS n FROM carts`))[0].n).toBe(before);
    // the second request keeps the cookie (no new one)
    const again = await c.get('/cart').expect(200);
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('POST /cart/items adds 1 by default, then increments; the line has every SPEC member', async () => {
    const { c } = await visitor();
    let cart = await add(c, v('v-merlot'));
    expect(Object.keys(cart).sort()).toEqual(CART_KEYS);
    expect(cart.items).toHaveLength(1);
    expect(Object.keys(cart.items[0]).sort()).toEqual(LINE_KEYS);
    expect(cart.items[0]).toEqual({
      id: v('v-merlot'),
      product_id: ids.products['p-merlot'],
      sku: 'V-MERLOT',
      title: 'Merlot 2019',
      url: '/products/merlot-2019',
      quantity: 1,
      price: 24.9,
      net_price: round(netOf(24.9)),
      gross_price: 24.9,
      discount_percent: 0,
      line_price: 24.9,
      image: {
        id: expect.any(String),
        src: 'https://cdn.example/merlot.jpg',
        preview_src: 'https://cdn.example/merlot.jpg',
        alt: 'Bottle',
        position: expect.any(Number),
        width: 800,
        height: 1200,
      },
      vendor: 'Domaine Example',
      grams: 1300,
      year: '2019',
      size: '75 cl',
      color: 'Red',
    });
    cart = await add(c, v('v-merlot'), 2);
    expect(cart.items).toHaveLength(1);
    expect(cart.items[0].quantity).toBe(3);
    expect(cart.items[0].line_price).toBe(round(24.9 * 3));
    cart = await add(c, v('v-cheap'), 7);
    expect(cart.items.map((l: Cart) => l.id)).toEqual([v('v-merlot'), v('v-cheap')]);
    expect(cart).toMatchObject({
      item_count: 10,
      items_subtotal_price: round(24.9 * 3 + 0.99 * 7),
      total_discount: 0,
      total_price: round(24.9 * 3 + 0.99 * 7),
      total_weight: 3 * 1300,
    });
    expectConsistent(cart);
    // the active language translates titles and facet names
    const de = (await c.get('/cart?locale=de').expect(200)).body.cart;
    expect(de.items[0]).toMatchObject({ title: 'Merlot 2019 (de)', color: 'Rot' });
  });

  it('PUT /cart/items/{id} sets the absolute quantity, adds an absent line, and 0 removes the line', async () => {
    const { c } = await visitor();
    await add(c, v('v-merlot'), 3);
    let cart = (await c.put(`/cart/items/${v('v-merlot')}`, { quantity: 5 }).expect(200)).body.cart;
    expect(cart.items[0].quantity).toBe(5);
    expect(cart.items_subtotal_price).toBe(round(24.9 * 5));
    cart = (await c.put(`/cart/items/${v('v-cheap')}`, { quantity: 2 }).expect(200)).body.cart;
    expect(cart.items.map((l: Cart) => [l.id, l.quantity])).toEqual([
      [v('v-merlot'), 5],
      [v('v-cheap'), 2],
    ]);
    cart = (await c.put(`/cart/items/${v('v-merlot')}`, { quantity: 0 }).expect(200)).body.cart;
    expect(cart.items.map((l: Cart) => l.id)).toEqual([v('v-cheap')]);
    // 0 on an absent line is a no-op, not an error
    cart = (await c.put(`/cart/items/${v('v-merlot')}`, { quantity: 0 }).expect(200)).body.cart;
    expect(cart.items).toHaveLength(1);
    expect(Object.keys(cart).sort()).toEqual(CART_KEYS);
  });

  it('PUT /cart/items/{id} validates the body and the path', async () => {
    const { c } = await visitor();
    await c.put(`/cart/items/${v('v-merlot')}`, {}).expect(422);
    await c.put(`/cart/items/${v('v-merlot')}`, { quantity: -1 }).expect(422);
    await c.put(`/cart/items/${v('v-merlot')}`, { quantity: '2' }).expect(422);
    const bad = await c.put(`/cart/items/not-a-uuid`, { quantity: 1 }).expect(422);
    expect(bad.body.errors).toContain('id');
    await c.put(`/cart/items/${v('v-hidden-product')}`, { quantity: 1 }).expect(422);
  });

  it('DELETE /cart/items/{id} removes the line and is idempotent', async () => {
    const { c } = await visitor();
    await add(c, v('v-merlot'));
    await add(c, v('v-cheap'));
    let cart = (await c.delete(`/cart/items/${v('v-merlot')}`).expect(200)).body.cart;
    expect(cart.items.map((l: Cart) => l.id)).toEqual([v('v-cheap')]);
    cart = (await c.delete(`/cart/items/${v('v-merlot')}`).expect(200)).body.cart;
    expect(cart.items.map((l: Cart) => l.id)).toEqual([v('v-cheap')]);
    // a line that never existed, and a visitor without a cart
    await c.delete(`/cart/items/${otherIds.variants['v-merlot']}`).expect(200);
    const fresh = t.client(shop.storefront_token);
    expect((await fresh.delete(`/cart/items/${v('v-merlot')}`).expect(200)).body.cart.items).toEqual([]);
  });

  it('DELETE /cart empties the cart (lines and coupon) and is idempotent', async () => {
    const { c } = await visitor();
    await discountCode({ code: 'CLEARME', type: 'percent', value: 5, is_infinite: true });
    await add(c, v('v-merlot'), 2);
    await c.post('/cart/discount_code', { code: 'CLEARME' }).expect(200);
    let cart = (await c.delete('/cart').expect(200)).body.cart;
    expect(cart).toMatchObject({ items: [], item_count: 0, items_subtotal_price: 0, total_price: 0, discount_code: null });
    cart = (await c.delete('/cart').expect(200)).body.cart;
    expect(cart.items).toEqual([]);
    expect((await c.get('/cart').expect(200)).body.cart.items).toEqual([]);
    await t.client(shop.storefront_token).delete('/cart').expect(200);
  });

  // ------------------------------------------------------------------ refused variants and quantities

  it.each([
    ['an unknown variant', () => '00000000-0000-4000-8000-000000000000'],
    ['a variant of an unpublished product', () => v('v-hidden-product')],
    ['an unpublished variant', () => v('v-unpublished')],
    ['an inactive variant', () => v('v-inactive')],
    ["another shop's variant", () => otherIds.variants['v-merlot']],
  ])('POST /cart/items with %s is 422 and adds nothing', async (_name, id) => {
    const { c } = await visitor();
    const res = await add(c, id(), 1, 422);
    expect(res).toEqual({ errors: expect.stringContaining('article_id') });
    expect((await c.get('/cart').expect(200)).body.cart.items).toEqual([]);
  });

  it.each([
    ['no body', undefined],
    ['no article_id', { quantity: 1 }],
    ['article_id not a UUID', { article_id: 'v-merlot' }],
    ['quantity 0', { article_id: '00000000-0000-4000-8000-000000000000', quantity: 0 }],
    ['negative quantity', { article_id: '00000000-0000-4000-8000-000000000000', quantity: -2 }],
    ['quantity as a string', { article_id: '00000000-0000-4000-8000-000000000000', quantity: '1' }],
  ])('POST /cart/items with %s is 422', async (_name, body) => {
    const { c } = await visitor();
    const res = await c.post('/cart/items', body).expect(422);
    expect(typeof res.body.errors).toBe('string');
  });

  it('quantity_rule min, max and increment: a violating quantity is 422 naming the rule and changes nothing', async () => {
    const { c } = await visitor();
    const id = v('v-case'); // min 6, max 24, increment 6
    expect((await add(c, id, 1, 422)).errors).toContain('quantity_rule.min');
    expect((await c.get('/cart')).body.cart.items).toEqual([]);
    expect((await add(c, id, 6)).items[0].quantity).toBe(6);
    expect((await add(c, id, 3, 422)).errors).toContain('quantity_rule.increment');
    expect((await c.put(`/cart/items/${id}`, { quantity: 30 }).expect(422)).body.errors).toContain('quantity_rule.max');
    expect((await c.put(`/cart/items/${id}`, { quantity: 4 }).expect(422)).body.errors).toContain('quantity_rule.min');
    expect((await c.put(`/cart/items/${id}`, { quantity: 14 }).expect(422)).body.errors).toContain('quantity_rule.increment');
    expect((await c.put(`/cart/items/${id}`, { quantity: 18 }).expect(200)).body.cart.items[0].quantity).toBe(18);
    // 18 + 12 = 30 > max 24: refused as a whole, the line stays at 18
    expect((await add(c, id, 12, 422)).errors).toContain('quantity_rule.max');
    const cart = (await c.get('/cart').expect(200)).body.cart;
    expect(cart.items[0].quantity).toBe(18);
    expect(cart.items_subtotal_price).toBe(round(13.35 * 18));
    expect(cart.total_weight).toBe(18 * 1200);
  });

  it('the one-statement add checks the quantity rule in SQL exactly as the pricing rule does (a grid of rules and quantities)', async () => {
    const rules = [
      { min: '1', max: null, increment: '1' },
      { min: '6', max: '24', increment: '6' },
      { min: '0.5', max: '3', increment: '0.25' },
      { min: '0', max: null, increment: '0' },
      { min: '2', max: '2', increment: '1' },
    ];
    const quantities = ['0', '0.25', '0.5', '0.75', '1', '1.5', '2', '2.999', '3', '5', '6', '7', '12', '18', '24', '25', '30', '1000000'];
    const grid = rules.flatMap((r) => quantities.map((q) => ({ ...r, q })));
    const rows: Array<{ holds: boolean }> = await t.db.query(
      `SELECT ${quantityRuleHoldsSql('x.q', 'x')} AS holds
         FROM unnest($1::numeric[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS x(q, min, max, increment, n) ORDER BY x.n`,
      [grid.map((g) => g.q), grid.map((g) => g.min), grid.map((g) => g.max), grid.map((g) => g.increment)],
    );
    expect(rows.map((r) => r.holds)).toEqual(grid.map((g) => quantityRuleViolation(g.q, g) === null));
  });

  it('parallel adds against quantity_rule.max: the line never passes it, no increment is lost, the others are 422', async () => {
    const { c } = await visitor();
    const id = v('v-case'); // min 6, max 24, increment 6
    const results = await Promise.all(Array.from({ length: 8 }, () => c.post('/cart/items', { article_id: id, quantity: 6 })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(4);
    for (const r of results.filter((x) => x.status !== 200))
      expect([r.status, String(r.body.errors)]).toEqual([422, expect.stringContaining('quantity_rule.max')]);
    expect((await c.get('/cart').expect(200)).body.cart.items[0].quantity).toBe(24);
  });

  // ------------------------------------------------------------------ concurrency and isolation

  it('20 parallel POSTs of quantity 1 on the same cart give quantity 20 (no lost increment)', async () => {
    const { c } = await visitor();
    const results = await Promise.all(Array.from({ length: 20 }, () => c.post('/cart/items', { article_id: v('v-merlot') })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const cart = (await c.get('/cart').expect(200)).body.cart;
    expect(cart.items).toHaveLength(1);
    expect(cart.items[0].quantity).toBe(20);
    expect(cart.items_subtotal_price).toBe(round(24.9 * 20));
    expect(
      (
        await t.db.query(`SELECT count(*)::int AS n FROM carts c JOIN cart_items i ON i.cart_id = c.id WHERE i.variant_id = $1 AND i.quantity = 20`, [
          v('v-merlot'),
        ])
      )[0].n,
    ).toBeGreaterThanOrEqual(1);
  });

  it('parallel first adds of a brand-new visitor create one cart', async () => {
    const { c, visitorId } = await visitor();
    await Promise.all([v('v-merlot'), v('v-cheap'), v('v-visible'), v('v-merlot')].map((id) => c.post('/cart/items', { article_id: id }).expect(200)));
    expect((await t.db.query(`SELECT count(*)::int AS n FROM carts WHERE visitor_id = $1`, [visitorId]))[0].n).toBe(1);
    const cart = (await c.get('/cart').expect(200)).body.cart;
    expect(cart.item_count).toBe(4);
  });

  it('two visitors of one shop have separate carts', async () => {
    const a = await visitor();
    const b = await visitor();
    expect(a.visitorId).not.toBe(b.visitorId);
    await add(a.c, v('v-merlot'), 2);
    await add(b.c, v('v-cheap'), 5);
    expect((await a.c.get('/cart')).body.cart.items.map((l: Cart) => [l.id, l.quantity])).toEqual([[v('v-merlot'), 2]]);
    expect((await b.c.get('/cart')).body.cart.items.map((l: Cart) => [l.id, l.quantity])).toEqual([[v('v-cheap'), 5]]);
    await b.c.delete('/cart').expect(200);
    expect((await a.c.get('/cart')).body.cart.items).toHaveLength(1);
  });

  it('two shops never share a cart, even with the same visitor cookie', async () => {
    const c = t.client(shop.storefront_token);
    await c.get('/cart').expect(200);
    await add(c, v('v-merlot'), 2);
    // the same browser (cookie jar, so the same visitor_id) on the other shop
    const auth = { Authorization: `Bearer ${other.storefront_token}` };
    const same = {
      get: (path: string) => c.agent.get(API + path).set(auth),
      post: (path: string, body: object) =>
        c.agent
          .post(API + path)
          .set(auth)
          .send(body),
    };
    const theirs = (await same.get('/cart').expect(200)).body.cart;
    expect(theirs.items).toEqual([]);
    await same.post('/cart/items', { article_id: v('v-cheap') }).expect(422);
    await same.post('/cart/items', { article_id: otherIds.variants['v-cheap'], quantity: 4 }).expect(200);
    expect((await c.get('/cart')).body.cart.items.map((l: Cart) => [l.id, l.quantity])).toEqual([[v('v-merlot'), 2]]);
    expect((await same.get('/cart')).body.cart.items.map((l: Cart) => [l.id, l.quantity])).toEqual([[otherIds.variants['v-cheap'], 4]]);
  });

  it('needs the storefront/cart scope when a token is sent', async () => {
    const minted = (
      await shop.admin.post('/admin/access_tokens', { label: 'catalogue only', tier: 'storefront', scopes: ['storefront/catalogue'] }).expect(201)
    ).body.access_token;
    await t.client(minted.token).get('/cart').expect(403);
    await t.client(shop.admin_token).get('/cart').expect(401);
  });

  // ------------------------------------------------------------------ currency

  it('GET /currencies lists the published currencies', async () => {
    const res = await shop.storefront.get('/currencies').expect(200);
    expect(res.body.currencies.map((c: Cart) => c.code).sort()).toEqual(['CHF', 'EUR', 'JPY']);
    expect(res.body.currencies.find((c: Cart) => c.code === 'CHF')).toEqual({
      id: ids.currencies.CHF,
      code: 'CHF',
      name: 'Swiss franc',
      symbol: 'CHF',
      is_default: true,
    });
  });

  it('PUT /cart/currency by ISO code (any case) re-prices every line and total in that currency', async () => {
    const { c } = await visitor();
    await add(c, v('v-merlot'), 3);
    await add(c, v('v-cheap'), 7);
    const cart = (await c.put('/cart/currency', { code: 'eur' }).expect(200)).body.cart;
    const merlot = round(24.9 * EUR_RATE);
    const cheap = round(0.99 * EUR_RATE);
    expect(cart.currency).toBe('EUR');
    expect(cart.items.map((l: Cart) => [l.price, l.gross_price, l.net_price, l.line_price])).toEqual([
      [merlot, merlot, round(netOf(24.9) * EUR_RATE), round(merlot * 3)],
      [cheap, cheap, round(netOf(0.99) * EUR_RATE), round(cheap * 7)],
    ]);
    expect(cart.items_subtotal_price).toBe(round(round(merlot * 3) + round(cheap * 7)));
    expect(cart.total_price).toBe(cart.items_subtotal_price);
    expectConsistent(cart);
    // the cart's currency sticks to the visitor: the next reads (cart and catalogue) use it
    expect((await c.get('/cart').expect(200)).body.cart.currency).toBe('EUR');
    const product = (await c.get(`/products/${ids.products['p-merlot']}`).expect(200)).body.product;
    expect(product.currency).toBe('EUR');
    expect(product.variants[0].price).toBe(merlot);
    // `?currency` overrides for one request; JPY has no minor unit
    const yen = (await c.get('/cart?currency=JPY').expect(200)).body.cart;
    expect(yen.currency).toBe('JPY');
    expect(yen.items[0].price).toBe(Math.round(24.9 * JPY_RATE));
    expect(yen.items_subtotal_price).toBe(Math.round(24.9 * JPY_RATE) * 3 + Math.round(0.99 * JPY_RATE) * 7);
    expectConsistent(yen, 0);
    expect((await c.get('/cart').expect(200)).body.cart.currency).toBe('EUR');
  });

  it('PUT /cart/currency by id; the id wins over the code; unpublished or unknown currencies are 422', async () => {
    const { c } = await visitor();
    await add(c, v('v-merlot'));
    expect((await c.put('/cart/currency', { currency_id: ids.currencies.EUR }).expect(200)).body.cart.currency).toBe('EUR');
    expect((await c.put('/cart/currency', { currency_id: ids.currencies.CHF, code: 'EUR' }).expect(200)).body.cart.currency).toBe('CHF');
    expect((await c.put('/cart/currency', { currency_id: null, code: 'Eur' }).expect(200)).body.cart.currency).toBe('EUR');
    for (const body of [
      { code: 'USD' },
      { code: 'XYZ' },
      { currency_id: ids.currencies.USD },
      { currency_id: otherIds.currencies.EUR },
      { currency_id: '00000000-0000-4000-8000-000000000000', code: 'CHF' },
      {},
      { currency_id: null, code: null },
      { currency_id: 'eur' },
      { code: 5 },
    ]) {
      const res = await c.put('/cart/currency', body).expect(422);
      expect(typeof res.body.errors).toBe('string');
    }
    expect((await c.get('/cart').expect(200)).body.cart.currency).toBe('EUR');
    await c.get('/cart?currency=USD').expect(422);
  });

  // ------------------------------------------------------------------ net and gross

  it('gross by default; net for everyone when the shop sets show_net_prices', async () => {
    const { c } = await visitor();
    await add(c, v('v-merlot'), 3);
    let cart = (await c.get('/cart').expect(200)).body.cart;
    expect(cart.show_net_prices).toBe(false);
    expect(cart.items[0].price).toBe(24.9);
    await shop.admin.post('/admin/catalogue/import', { settings: { show_net_prices: true } }).expect(200);
    try {
      cart = (await c.get('/cart').expect(200)).body.cart;
      const net = round(netOf(24.9));
      expect(cart.show_net_prices).toBe(true);
      expect(cart.items[0]).toMatchObject({ price: net, net_price: net, gross_price: 24.9, line_price: round(net * 3) });
      expect(cart.items_subtotal_price).toBe(round(net * 3));
      expectConsistent(cart);
    } finally {
      await shop.admin.post('/admin/catalogue/import', { settings: { show_net_prices: false } }).expect(200);
    }
  });

  it('corporate and reseller shoppers see net prices; a plain customer sees gross', async () => {
    const seen: Record<string, boolean> = {};
    for (const type of ['corporate', 'reseller', 'customer']) {
      const { c } = await visitor();
      const { email } = await register(c, type);
      const shopper = await signIn(c, email);
      const cart = (await shopper.post('/cart/items', { article_id: v('v-merlot'), quantity: 2 }).expect(200)).body.cart;
      seen[type] = cart.show_net_prices;
      expect(cart.items[0]).toMatchObject({ price: cart.show_net_prices ? round(netOf(24.9)) : 24.9, net_price: round(netOf(24.9)), gross_price: 24.9 });
      expect(cart.items_subtotal_price).toBe(round(cart.items[0].price * 2));
      expectConsistent(cart);
    }
    expect(seen).toEqual({ corporate: true, reseller: true, customer: false });
  });

  it("sign-in carries the visitor's cart over: it becomes the shopper's, or is merged into it (quantities summed)", async () => {
    // first sign-in: the visitor's cart becomes the shopper's
    const first = await visitor();
    const { email } = await register(first.c);
    await add(first.c, v('v-cheap'), 1);
    const shopper = await signIn(first.c, email);
    expect((await shopper.get('/cart').expect(200)).body.cart.items.map((l: Cart) => [l.id, l.quantity])).toEqual([[v('v-cheap'), 1]]);
    expect((await first.c.get('/cart').expect(200)).body.cart.items).toEqual([]);
    await shopper.post('/cart/items', { article_id: v('v-merlot') }).expect(200);
    // a later sign-in from another browser merges that visitor's cart into the shopper's; the visitor's currency wins
    const second = await visitor();
    await add(second.c, v('v-merlot'), 2);
    await add(second.c, v('v-cheap'), 3);
    await second.c.put('/cart/currency', { code: 'EUR' }).expect(200);
    const again = await signIn(second.c, email);
    for (const client of [shopper, again]) {
      const cart = (await client.get('/cart').expect(200)).body.cart;
      expect(cart.currency).toBe('EUR');
      expect(cart.items.map((l: Cart) => [l.id, l.quantity])).toEqual([
        [v('v-cheap'), 4],
        [v('v-merlot'), 3],
      ]);
      expectConsistent(cart);
    }
    expect((await second.c.get('/cart').expect(200)).body.cart.items).toEqual([]);
  });

  // ------------------------------------------------------------------ coupons

  describe('discount codes', () => {
    let eurValue: { id: string };

    beforeAll(async () => {
      await discountCode({ code: 'SAVE10', type: 'value', value: 10 });
      await discountCode({ code: 'PCT15', type: 'percent', value: 15, is_infinite: true });
      await discountCode({ code: 'HUGE', type: 'value', value: 100000, is_infinite: true });
      await discountCode({ code: 'OFF', type: 'value', value: 5, is_active: false });
      await discountCode({ code: 'OLD', type: 'value', value: 5, expiry_date: '2020-01-01T00:00:00Z' });
      await discountCode({ code: 'FUTURE', type: 'value', value: 5, expiry_date: '2099-01-01T00:00:00Z' });
      const used = await discountCode({ code: 'USED', type: 'value', value: 5 });
      const usedInfinite = await discountCode({ code: 'USEDINF', type: 'value', value: 5, is_infinite: true });
      await t.db.query(`UPDATE discount_codes SET is_used = true, using_date = now() WHERE id = ANY($1::uuid[])`, [[used.id, usedInfinite.id]]);
      await discountCode({ code: 'MIN40', type: 'value', value: 4, min_value: 40, is_infinite: true });
      await discountCode({ code: 'PCTMIN40', type: 'percent', value: 10, min_value: 40, is_infinite: true });
      eurValue = await discountCode({ code: 'EURO5', type: 'value', value: 5, currency_id: ids.currencies.EUR, is_infinite: true });
    });

    async function cartWith(lines: Array<[string, number]>): Promise<ShopClient> {
      const { c } = await visitor();
      for (const [key, q] of lines) await add(c, v(key), q);
      return c;
    }

    it.each([
      ['an unknown code', 'NOPE', 'discount_code_not_found'],
      ['another case (exact match)', 'save10', 'discount_code_not_found'],
      ['surrounding spaces (exact match)', ' SAVE10', 'discount_code_not_found'],
      ['an inactive code', 'OFF', 'discount_code_inactive'],
      ['an expired code', 'OLD', 'discount_code_expired'],
      ['a used single-use code', 'USED', 'discount_code_already_used'],
      ['a subtotal under min_value', 'MIN40', 'discount_code_minimum_not_met'],
      ['a value code in another currency', 'EURO5', 'discount_code_currency_mismatch'],
    ])('refuses %s with 422 and its code, leaving the cart unchanged', async (_name, code, refusal) => {
      const c = await cartWith([['v-merlot', 1]]);
      const res = await c.post('/cart/discount_code', { code }).expect(422);
      expect(res.body).toEqual({ errors: expect.any(String), code: refusal });
      const cart = (await c.get('/cart').expect(200)).body.cart;
      expect(cart).toMatchObject({ discount_code: null, discount_code_error: null, total_discount: 0, total_price: 24.9 });
    });

    it('a refusal keeps the coupon already applied', async () => {
      const c = await cartWith([['v-merlot', 2]]);
      await c.post('/cart/discount_code', { code: 'SAVE10' }).expect(200);
      await c.post('/cart/discount_code', { code: 'OFF' }).expect(422);
      expect((await c.get('/cart')).body.cart).toMatchObject({ discount_code: 'SAVE10', total_discount: 10 });
    });

    it('rejects a missing or blank code with 422', async () => {
      const c = await cartWith([]);
      await c.post('/cart/discount_code', {}).expect(422);
      await c.post('/cart/discount_code', { code: '  ' }).expect(422);
      await c.post('/cart/discount_code', { code: 10 }).expect(422);
    });

    it('a value code takes its amount off the subtotal', async () => {
      const c = await cartWith([
        ['v-merlot', 2],
        ['v-cheap', 3],
      ]);
      const cart = (await c.post('/cart/discount_code', { code: 'SAVE10' }).expect(200)).body.cart;
      const subtotal = round(24.9 * 2 + 0.99 * 3);
      expect(cart).toMatchObject({
        discount_code: 'SAVE10',
        discount_code_error: null,
        items_subtotal_price: subtotal,
        total_discount: 10,
        total_price: round(subtotal - 10),
      });
      expectConsistent(cart);
      expect((await c.get('/cart')).body.cart).toMatchObject({ discount_code: 'SAVE10', total_discount: 10 });
      // an unexpired code with a future expiry date is fine too
      expect((await c.post('/cart/discount_code', { code: 'FUTURE' }).expect(200)).body.cart).toMatchObject({ discount_code: 'FUTURE', total_discount: 5 });
    });

    it('a value code is capped at the subtotal: never a negative total', async () => {
      const c = await cartWith([['v-cheap', 3]]);
      const cart = (await c.post('/cart/discount_code', { code: 'HUGE' }).expect(200)).body.cart;
      expect(cart).toMatchObject({ items_subtotal_price: round(0.99 * 3), total_discount: round(0.99 * 3), total_price: 0 });
      // an empty cart with a coupon: everything 0
      await c.delete(`/cart/items/${v('v-cheap')}`).expect(200);
      expect((await c.get('/cart')).body.cart).toMatchObject({ items_subtotal_price: 0, total_discount: 0, total_price: 0, discount_code: 'HUGE' });
    });

    it('a percent code takes that share of the subtotal, rounded once, in the cart currency', async () => {
      const c = await cartWith([
        ['v-merlot', 3],
        ['v-cheap', 7],
      ]);
      let cart = (await c.post('/cart/discount_code', { code: 'PCT15' }).expect(200)).body.cart;
      let subtotal = round(24.9 * 3 + 0.99 * 7);
      expect(cart).toMatchObject({
        discount_code: 'PCT15',
        items_subtotal_price: subtotal,
        total_discount: round(subtotal * 0.15),
        total_price: round(subtotal - round(subtotal * 0.15)),
      });
      expectConsistent(cart);
      cart = (await c.put('/cart/currency', { code: 'EUR' }).expect(200)).body.cart;
      subtotal = round(round(round(24.9 * EUR_RATE) * 3) + round(round(0.99 * EUR_RATE) * 7));
      expect(cart).toMatchObject({ currency: 'EUR', discount_code: 'PCT15', items_subtotal_price: subtotal, total_discount: round(subtotal * 0.15) });
      expectConsistent(cart);
    });

    it('a single-use code that is used but infinite still applies', async () => {
      const c = await cartWith([['v-merlot', 1]]);
      expect((await c.post('/cart/discount_code', { code: 'USEDINF' }).expect(200)).body.cart.total_discount).toBe(5);
    });

    it('a value code in the cart currency applies, and is dropped with the reason when the currency changes', async () => {
      const c = await cartWith([['v-merlot', 1]]);
      await c.put('/cart/currency', { code: 'EUR' }).expect(200);
      let cart = (await c.post('/cart/discount_code', { code: 'EURO5' }).expect(200)).body.cart;
      expect(cart).toMatchObject({ currency: 'EUR', discount_code: 'EURO5', total_discount: 5, total_price: round(round(24.9 * EUR_RATE) - 5) });
      cart = (await c.put('/cart/currency', { code: 'CHF' }).expect(200)).body.cart;
      expect(cart).toMatchObject({
        currency: 'CHF',
        discount_code: null,
        discount_code_error: 'discount_code_currency_mismatch',
        total_discount: 0,
        total_price: 24.9,
      });
      expect(eurValue.id).toEqual(expect.any(String));
    });

    it('is re-checked at every read: below min_value it is dropped and the reason stays visible', async () => {
      const c = await cartWith([['v-merlot', 2]]);
      let cart = (await c.post('/cart/discount_code', { code: 'MIN40' }).expect(200)).body.cart;
      expect(cart).toMatchObject({ discount_code: 'MIN40', total_discount: 4, total_price: round(24.9 * 2 - 4) });
      cart = (await c.put(`/cart/items/${v('v-merlot')}`, { quantity: 1 }).expect(200)).body.cart;
      expect(cart).toMatchObject({ discount_code: null, discount_code_error: 'discount_code_minimum_not_met', total_discount: 0, total_price: 24.9 });
      // dropped, not suspended: back above the minimum it does not return by itself; the reason stays until the next coupon action
      cart = (await c.put(`/cart/items/${v('v-merlot')}`, { quantity: 2 }).expect(200)).body.cart;
      expect(cart).toMatchObject({ discount_code: null, discount_code_error: 'discount_code_minimum_not_met', total_discount: 0 });
      cart = (await c.post('/cart/discount_code', { code: 'PCTMIN40' }).expect(200)).body.cart;
      expect(cart).toMatchObject({ discount_code: 'PCTMIN40', discount_code_error: null, total_discount: round(24.9 * 2 * 0.1) });
    });

    it('is dropped at the next read when the shop deactivates it', async () => {
      const code = await discountCode({ code: `LATER-${Date.now()}`, type: 'value', value: 3, is_infinite: true });
      const text = (await shop.admin.get(`/admin/discount_codes/${code.id}`).expect(200)).body.discount_code.code;
      const c = await cartWith([['v-merlot', 1]]);
      await c.post('/cart/discount_code', { code: text }).expect(200);
      await shop.admin.put(`/admin/discount_codes/${code.id}`, { is_active: false }).expect(200);
      const cart = (await c.get('/cart').expect(200)).body.cart;
      expect(cart).toMatchObject({ discount_code: null, discount_code_error: 'discount_code_inactive', total_discount: 0, total_price: 24.9 });
    });

    it('DELETE /cart/discount_code clears the coupon (and a dropped reason) and is idempotent', async () => {
      const c = await cartWith([['v-merlot', 2]]);
      await c.post('/cart/discount_code', { code: 'SAVE10' }).expect(200);
      let cart = (await c.delete('/cart/discount_code').expect(200)).body.cart;
      expect(cart).toMatchObject({ discount_code: null, discount_code_error: null, total_discount: 0, total_price: round(24.9 * 2) });
      cart = (await c.delete('/cart/discount_code').expect(200)).body.cart;
      expect(cart.discount_code).toBeNull();
      expect((await t.client(shop.storefront_token).delete('/cart/discount_code').expect(200)).body.cart.items).toEqual([]);
    });

    it("another shop's code is not found", async () => {
      const { c } = await visitor(other);
      await c.post('/cart/items', { article_id: otherIds.variants['v-merlot'] }).expect(200);
      expect((await c.post('/cart/discount_code', { code: 'SAVE10' }).expect(422)).body.code).toBe('discount_code_not_found');
    });
  });

  it('CartService.priceCart (for the checkout) prices in either basis, in minor units, with the coupon row', async () => {
    const { c, visitorId } = await visitor();
    await add(c, v('v-merlot'), 3);
    await add(c, v('v-cheap'), 7);
    await discountCode({ code: 'BASIS10', type: 'percent', value: 10, is_infinite: true });
    await c.post('/cart/discount_code', { code: 'BASIS10' }).expect(200);
    const ctx = RequestContext.forTenant(shop.tenant.id);
    ctx.visitorId = visitorId;
    ctx.currency = (await t.get(TenancyService).config(shop.tenant.id)).defaultCurrency;
    const service = t.get(CartService);
    const net = await service.priceCart(ctx, { basis: 'net' });
    const gross = await service.priceCart(ctx, { basis: 'gross' });
    const netLines = [Math.round(round(netOf(24.9)) * 100) * 3, Math.round(round(netOf(0.99)) * 100) * 7];
    const grossLines = [2490 * 3, 99 * 7];
    expect(net.lines.map((l) => [l.variantId, l.quantity, l.lineNet, l.lineGross, l.line, l.taxRate])).toEqual([
      [v('v-merlot'), 3, netLines[0], grossLines[0], netLines[0], 8.1],
      [v('v-cheap'), 7, netLines[1], grossLines[1], netLines[1], 8.1],
    ]);
    expect(net).toMatchObject({
      showNet: true,
      subtotal: netLines[0] + netLines[1],
      subtotalGross: grossLines[0] + grossLines[1],
      discountCode: 'BASIS10',
      discountCodeError: null,
    });
    expect(net.discount).toBe(Math.round((netLines[0] + netLines[1]) / 10));
    expect(net.total).toBe(net.subtotal - net.discount);
    expect(gross).toMatchObject({ showNet: false, subtotal: grossLines[0] + grossLines[1], discount: Math.round((grossLines[0] + grossLines[1]) / 10) });
    expect(gross.coupon?.code).toBe('BASIS10');
    expect(gross.lines[0].details).toMatchObject({ sku: 'V-MERLOT', title: 'Merlot 2019' });
    expect(gross.currency.code).toBe('CHF');
  });

  // ------------------------------------------------------------------ catalogue changes

  it('re-prices from the catalogue at every read: a price change shows at the next read', async () => {
    const { c } = await visitor();
    await add(c, v('v-merlot'), 2);
    expect((await c.get('/cart')).body.cart.items[0].price).toBe(24.9);
    await shop.admin.post('/admin/catalogue/import', cartImport({ merlotPrice: 26.55 })).expect(200);
    try {
      const cart = (await c.get('/cart').expect(200)).body.cart;
      expect(cart.items[0]).toMatchObject({ price: 26.55, gross_price: 26.55, net_price: round(netOf(26.55)), line_price: round(26.55 * 2) });
      expect(cart.items_subtotal_price).toBe(round(26.55 * 2));
      const eur = (await c.get('/cart?currency=EUR').expect(200)).body.cart;
      expect(eur.items[0].price).toBe(round(26.55 * EUR_RATE));
    } finally {
      await shop.admin.post('/admin/catalogue/import', cartImport()).expect(200);
    }
  });

  it('a line whose variant stops being sold leaves the cart view and totals, and comes back if it returns', async () => {
    const { c } = await visitor();
    await add(c, v('v-merlot'), 1);
    await add(c, v('v-visible'), 2);
    const hidden = cartImport();
    hidden.products.find((p) => p.key === 'p-mixed')!.variants[2].active = false;
    await shop.admin.post('/admin/catalogue/import', hidden).expect(200);
    try {
      const cart = (await c.get('/cart').expect(200)).body.cart;
      expect(cart.items.map((l: Cart) => l.id)).toEqual([v('v-merlot')]);
      expect(cart).toMatchObject({ item_count: 1, items_subtotal_price: 24.9 });
      await add(c, v('v-visible'), 1, 422);
    } finally {
      await shop.admin.post('/admin/catalogue/import', cartImport()).expect(200);
    }
    expect((await c.get('/cart').expect(200)).body.cart.items.map((l: Cart) => [l.id, l.quantity])).toEqual([
      [v('v-merlot'), 1],
      [v('v-visible'), 2],
    ]);
  });
});
