import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import { listFastLaneOf } from '../../src/app.js';
import type { ListFastLane } from '../../src/catalogue/list-fast-lane.js';
import { comparable, raw, sample, type Answer } from '../helpers/lane-answers.js';
import { API, createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { fixtureImport } from './catalogue.fixture.js';

type Ids = Record<string, any>;
const METRICS_TOKEN = 'list-lane-metrics-token-0123456789';

describe('the list fast lane: GET /products in front of Express (issue 35)', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;
  let lane: ListFastLane;
  let port: number;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    const logDestination = { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) };
    t = await createTestApp({ config: { LOG_LEVEL: 'info', METRICS_TOKEN, PUBLIC_URL: 'https://shop.example' }, logDestination });
    lane = listFastLaneOf(t.app);
    await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
    port = (t.server.address() as AddressInfo).port;
    shop = await t.createShop();
    const doc = fixtureImport() as { settings: { languages: string[] } };
    doc.settings.languages = ['en', 'de', 'fr'];
    ids = (await shop.admin.post('/admin/catalogue/import', doc).expect(200)).body.import.ids;
  });
  afterAll(() => t.close());

  const get = (path: string, headers: Record<string, string> = {}, token: string | null = shop.storefront_token) =>
    raw(port, `${API}${path.replace(/ /g, '%20')}`, { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers });

  /** The same request by the Nest path (lane off), then by the lane; `served`: whether the lane must answer it. */
  async function both(path: string, headers: Record<string, string> = {}, served = true, token?: string | null): Promise<[Answer, Answer]> {
    const as = token === undefined ? shop.storefront_token : token;
    lane.enabled = false;
    const nest = await get(path, headers, as);
    lane.enabled = true;
    const before = lane.served;
    const fast = await get(path, headers, as);
    expect([path, lane.served - before]).toEqual([path, served ? 1 : 0]);
    return [nest, fast];
  }

  const expectSame = ([nest, fast]: [Answer, Answer]) => expect(comparable(fast)).toEqual(comparable(nest));

  it('answers byte for byte as the Nest path: filters, q, facets, orders, pages, currencies, languages, encodings, 304', async () => {
    const f = ids.facets;
    const paths = [
      '/products',
      '/products?limit=2',
      '/products?limit=0',
      '/products?limit=500',
      '/products?include=facets',
      '/products?limit=24&include=facets&q=riesling mosel',
      '/products?q=reisling',
      '/products?q=bordeaux&include=facets,suggestions',
      '/products?q=zzzzqx&include=suggestions',
      `/products?color_id=${f.colors.red}&include=facets`,
      `/products?region_id=${f.regions.bordeaux},${f.regions.mosel}&order=price asc&limit=3`,
      `/products?vendor=${ids.manufacturers.chateau}&available=true`,
      `/products?category_id=${ids.categories.wine}&price_min=10&price_max=50&order=title desc`,
      `/products?ids=${ids.products.p1},${ids.products.p3}`,
      `/products?collection_id=${ids.collections.picks}&include=facets`,
      '/products?on_sale=true&limit=1',
      '/products?order=created asc&limit=4&currency=eur',
      '/products?include=facets&locale=de',
      '/products?q=rot&locale=de&include=facets',
      `/products?year_id=${f.years['2020']}&size_id=${f.sizes['75cl']}&country_id=${f.countries.FR}`,
    ];
    const headerSets: Array<Record<string, string>> = [
      {},
      { 'accept-encoding': 'gzip' },
      { 'accept-encoding': 'br' },
      { 'accept-language': 'fr-CH, de;q=0.5' },
    ];
    let compressed = 0;
    for (const path of paths)
      for (const headers of headerSets) {
        const pair = await both(path, headers);
        expectSame(pair);
        if (pair[1].headers['content-encoding']) compressed += 1;
      }
    expect(compressed).toBeGreaterThan(0);
    // 304 on If-None-Match (with and without an encoding, on a list without a next page and on one with it: the 304
    // keeps the Link header, which the OpenAPI document lists for it), and the next pages by their Link
    const whole = await get('/products?include=facets', { 'accept-encoding': 'gzip' });
    expect(whole.headers.link).toBeUndefined();
    expectSame(await both('/products?include=facets', { 'if-none-match': whole.headers.etag as string }));
    expectSame(await both('/products?include=facets', { 'if-none-match': whole.headers.etag as string, 'accept-encoding': 'gzip' }));
    expect((await get('/products?include=facets', { 'if-none-match': whole.headers.etag as string })).status).toBe(304);
    const first = await get('/products?limit=2&include=facets');
    expect(first.status).toBe(200);
    const unchanged = await both('/products?limit=2&include=facets', { 'if-none-match': first.headers.etag as string });
    expectSame(unchanged);
    expect([unchanged[1].status, unchanged[1].headers.link]).toEqual([304, first.headers.link]);
    let link = first.headers.link as string;
    let pages = 0;
    while (link) {
      const next = new URL(/^<([^>]+)>/.exec(link)![1]);
      expect(next.origin).toBe('https://shop.example');
      const pair = await both(`${next.pathname.slice(API.length)}${next.search}`);
      expectSame(pair);
      link = pair[1].headers.link as string;
      pages += 1;
    }
    expect(pages).toBeGreaterThan(1);
  });

  it('visitor cookies: none set again, a tampered one is a new visitor, a cart’s currency is the list’s', async () => {
    const minted = await get('/products?limit=1');
    const cookie = (minted.headers['set-cookie'] as string[])[0].split(';')[0];
    const known = await both('/products?limit=1', { cookie });
    expect(known[1].headers['set-cookie']).toBeUndefined();
    expectSame(known);
    const tampered = await both('/products?limit=1', { cookie: cookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) });
    expect(tampered[1].headers['set-cookie']).toHaveLength(1);
    expectSame(tampered);
    // the visitor's cart in EUR: the list is in EUR without ?currency, on both paths
    const buyer = t.client(shop.storefront_token);
    await buyer.post('/cart/items', { article_id: ids.variants.v1a, quantity: 1 }).set('Cookie', cookie).expect(200);
    await buyer.put('/cart/currency', { code: 'EUR' }).set('Cookie', cookie).expect(200);
    const eur = await both('/products?limit=3&include=facets', { cookie });
    expectSame(eur);
    expect((JSON.parse(eur[1].body.toString()) as { price_range: { currency: string } }).price_range.currency).toBe('EUR');
    expectSame(await both('/products?limit=3&currency=CHF', { cookie }));
  });

  it('answers the errors of the service as the error filter does (a bad or foreign page_info)', async () => {
    const first = await get('/products?limit=2&order=price asc');
    const pageInfo = new URL(/^<([^>]+)>/.exec(first.headers.link as string)![1]).searchParams.get('page_info')!;
    for (const path of ['/products?page_info=nonsense', `/products?limit=2&order=price desc&page_info=${encodeURIComponent(pageInfo)}`]) {
      const pair = await both(path);
      expect(pair[0].status).toBe(422);
      expectSame(pair);
    }
  });

  it('leaves bad or unknown parameters, tokens other than a catalogue storefront token and no token to the Nest path', async () => {
    for (const path of [
      '/products?order=nonsense',
      `/products?q=${'a'.repeat(201)}`,
      '/products?color_id=not-a-uuid',
      '/products?price_min=abc',
      '/products?currency=XXX',
      '/products?q=rie%00',
      '/products?q[a]=1',
      '/products?access_token=x',
      '/products?unknown=1',
      '/products?IncludeFacets=true',
    ]) {
      const pair = await both(path, {}, false);
      if (!path.includes('unknown') && !path.includes('IncludeFacets')) expect([path, pair[0].status >= 400]).toEqual([path, true]);
      expectSame(pair);
    }
    const mint = async (scopes: string[]) =>
      (await shop.admin.post('/admin/access_tokens', { label: 'lane', tier: 'storefront', scopes }).expect(201)).body.access_token as {
        id: string;
        token: string;
      };
    const revoked = await mint(['storefront/catalogue']);
    expect((await both('/products?limit=1', {}, true, revoked.token))[1].status).toBe(200);
    await shop.admin.delete(`/admin/access_tokens/${revoked.id}`).expect(204);
    const scopeless = await mint(['storefront/cart']);
    for (const token of ['vnstss_unknown', revoked.token, shop.admin_token, scopeless.token, null]) {
      const pair = await both('/products?limit=1', {}, false, token);
      if (token) expect([401, 403]).toContain(pair[0].status);
      expectSame(pair);
    }
    // other routes under /products are not the lane's
    await both(`/products/${ids.products.p1}`, {}, false);
    await both('/products/facets', {}, false);
  });

  it('runs the rate limit, the log line and the metrics as the Nest path does', async () => {
    const labels = { method: 'GET', route: `${API}/products`, tier: 'storefront', status_class: '2xx' };
    const scrape = async () => (await raw(port, '/metrics', { authorization: `Bearer ${METRICS_TOKEN}` })).body.toString();
    const before = sample(await scrape(), 'http_requests_total', labels);
    lines.length = 0;
    const pair = await both('/products?limit=1', { 'x-request-id': 'list-lane-log-1' });
    expectSame(pair);
    expect(sample(await scrape(), 'http_requests_total', labels) - before).toBe(2);
    const logged = lines.filter((l) => l.request_id === 'list-lane-log-1').map((l) => ({ ...l, time: 0, duration_ms: 0 }));
    expect(logged).toHaveLength(2);
    expect(logged[1]).toEqual(logged[0]);
    expect(logged[0]).toMatchObject({ route: `${API}/products`, tier: 'storefront', tenant_id: shop.tenant.id, res: { status: 200 } });

    const token = (await shop.admin.post('/admin/access_tokens', { label: 'rl', tier: 'storefront', scopes: ['storefront/catalogue'] }).expect(201)).body
      .access_token.token as string;
    Object.assign(t.config, { RATE_LIMIT: true, RATE_LIMIT_BURST: 3, RATE_LIMIT_REFILL_PER_SECOND: 0.001 });
    try {
      const answers: Answer[] = [];
      const served = lane.served;
      for (let i = 0; i < 4; i++) answers.push(await get('/products?limit=1', {}, token));
      expect(lane.served - served).toBe(4);
      expect(answers.map((a) => [a.status, a.headers['x-ratelimit-remaining']])).toEqual([
        [200, '2'],
        [200, '1'],
        [200, '0'],
        [429, '0'],
      ]);
      lane.enabled = false;
      const nest = await get('/products?limit=1', {}, token);
      lane.enabled = true;
      expect(comparable(answers[3])).toEqual(comparable(nest));
    } finally {
      Object.assign(t.config, { RATE_LIMIT: false });
    }
  });

  it('runs every middleware Express runs before the route, in its order (buyers first among them), the body parsers aside', () => {
    type Layer = { name: string; handle: unknown; route?: unknown; match(path: string): boolean };
    const express = t.app.getHttpAdapter().getInstance() as unknown as { router: { stack: Layer[] } };
    const stack = express.router.stack;
    const firstRoute = stack.findIndex((l) => l.route !== undefined);
    // what Express runs for GET /products before the route; a bodiless GET needs no body parser, so the lane has none,
    // and Nest's adapter puts its request and response hooks first, a layer that does nothing while none is set
    const adapter = t.app.getHttpAdapter() as unknown as { onRequestHook?: unknown; onResponseHook?: unknown };
    expect([adapter.onRequestHook, adapter.onResponseHook]).toEqual([undefined, undefined]);
    const before = stack
      .slice(0, firstRoute)
      .filter((l) => l.match(`${API}/products`) && !['jsonParser', 'urlencodedParser'].includes(l.name))
      .filter((l) => !String(l.handle).includes('this.onResponseHook'))
      .map((l) => l.handle);
    const chain = (lane as unknown as { deps: { chain: unknown[] } }).deps.chain;
    expect(chain).toEqual(before);
    expect(before.some((h) => (h as { name?: string }).name === 'buyersFirstGate')).toBe(true);
  });

  it('answers after a product change as the Nest path does', async () => {
    await shop.admin.put(`/admin/products/${ids.products.p2}`, { title: 'Zebra Riesling' }).expect(200);
    const pair = await both('/products?q=zebra&include=facets');
    expectSame(pair);
    expect(pair[1].body.toString()).toContain('Zebra Riesling');
  });
});
