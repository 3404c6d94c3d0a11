import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import { suggestFastLaneOf } from '../../src/app.js';
import type { SuggestFastLane } from '../../src/catalogue/suggest-fast-lane.js';
import { comparable, raw, sample, type Answer } from '../helpers/lane-answers.js';
import { API, createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { fixtureImport } from './catalogue.fixture.js';

type Ids = Record<string, any>;
const METRICS_TOKEN = 'lane-metrics-token-0123456789';

describe('the suggest fast lane: kept GET /search/suggest answers in front of Express (issue 35)', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;
  let lane: SuggestFastLane;
  let port: number;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    const logDestination = { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) };
    t = await createTestApp({ config: { LOG_LEVEL: 'info', METRICS_TOKEN }, logDestination });
    lane = suggestFastLaneOf(t.app);
    await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
    port = (t.server.address() as AddressInfo).port;
    shop = await t.createShop();
    const doc = fixtureImport() as { settings: { languages: string[] } };
    doc.settings.languages = ['en', 'de', 'fr'];
    ids = (await shop.admin.post('/admin/catalogue/import', doc).expect(200)).body.import.ids;
  });
  afterAll(() => t.close());

  const get = (path: string, headers: Record<string, string> = {}, token: string | null = shop.storefront_token) =>
    raw(port, `${API}${path}`, { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers });

  /** The same request by the Nest path (lane off), then by the lane; `served`: whether the lane must answer it. */
  async function both(path: string, headers: Record<string, string> = {}, served = true, token?: string | null): Promise<[Answer, Answer]> {
    const as = token === undefined ? shop.storefront_token : token;
    // asked again when a late cache-bus notice of an earlier write dropped what the Nest path had just kept
    for (let attempt = 0; ; attempt++) {
      lane.enabled = false;
      const nest = await get(path, headers, as);
      lane.enabled = true;
      const before = lane.served;
      const fast = await get(path, headers, as);
      if (served && lane.served === before && attempt < 20) continue;
      expect(lane.served - before).toBe(served ? 1 : 0);
      return [nest, fast];
    }
  }

  /** Asks until the lane answers `path` (the cache-bus notices of earlier writes, which drop kept reads, have arrived). */
  async function kept(path: string): Promise<Answer> {
    for (const until = Date.now() + 5000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
      const before = lane.served;
      const answer = await get(path);
      if (lane.served > before) return answer;
    }
    throw new Error(`the lane never answered ${path}`);
  }

  it('answers byte for byte as the Nest path: encodings, 304, languages, currencies, limits, cookies', async () => {
    const gzip = await both('/search/suggest?limit=20&q=r', { 'accept-encoding': 'gzip' });
    expect(gzip[1].headers['content-encoding']).toBe('gzip'); // the answer is over 1 KB: compressed
    const cases: Array<[string, Record<string, string>]> = [
      ['/search/suggest?q=rie', {}],
      ['/search/suggest?limit=20&q=r', { 'accept-encoding': 'br' }],
      ['/search/suggest?limit=20&q=r', { 'accept-encoding': 'gzip, deflate, br' }],
      ['/search/suggest?limit=3&q=ri', { 'accept-encoding': 'gzip' }],
      ['/search/suggest?limit=20&q=r', { 'if-none-match': gzip[0].headers.etag as string }],
      ['/search/suggest?limit=20&q=r', { 'if-none-match': gzip[0].headers.etag as string, 'accept-encoding': 'gzip' }],
      ['/search/suggest?q=rie&locale=de', {}],
      ['/search/suggest?q=rie', { 'accept-language': 'fr-CH, de;q=0.5' }],
      ['/search/suggest?q=rie&currency=eur', {}],
      ['/search/suggest?q=Rie+ch&limit=1', {}],
    ];
    const answers = [gzip];
    for (const [path, headers] of cases) answers.push(await both(path, headers));
    for (const [nest, fast] of answers) expect(comparable(fast)).toEqual(comparable(nest));
    expect(answers.map(([n]) => n.status)).toEqual([200, 200, 200, 200, 200, 304, 304, 200, 200, 200, 200]);
    expect(answers[7][1].headers['content-language']).toBe('de');
    expect(answers[8][1].headers['content-language']).toBe('fr');

    // a visitor with its cookie gets none; a tampered cookie is a new visitor (both as the Nest path)
    const cookie = (gzip[0].headers['set-cookie'] as string[])[0].split(';')[0];
    const known = await both('/search/suggest?q=rie', { cookie });
    expect(known[1].headers['set-cookie']).toBeUndefined();
    expect(comparable(known[1])).toEqual(comparable(known[0]));
    const tampered = await both('/search/suggest?q=rie', { cookie: cookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) });
    expect(tampered[1].headers['set-cookie']).toHaveLength(1);
    expect(comparable(tampered[1])).toEqual(comparable(tampered[0]));
  });

  it('leaves bad parameters to the Nest path (the same 422)', async () => {
    await get('/search/suggest?q=rie'); // kept
    for (const path of [
      '/search/suggest',
      '/search/suggest?q=',
      '/search/suggest?q=%20%20',
      `/search/suggest?q=${'a'.repeat(201)}`,
      '/search/suggest?q=rie&limit=0',
      '/search/suggest?q=rie&limit=21',
      '/search/suggest?q=rie&limit=2.5',
      '/search/suggest?q=rie&q=ries',
      '/search/suggest?q=rie&currency=XXX',
      '/search/suggest?q=rie%00',
      '/search/suggest?q=rie&access_token=x',
    ]) {
      const [nest, fast] = await both(path, {}, false);
      expect(nest.status).toBeGreaterThanOrEqual(400);
      expect(comparable(fast)).toEqual(comparable(nest));
    }
  });

  it('validates the token as the guard does: unknown, revoked, admin or scope-less tokens and no token fall through', async () => {
    await get('/search/suggest?q=rie');
    const mint = async (scopes: string[]) =>
      (await shop.admin.post('/admin/access_tokens', { label: 'lane', tier: 'storefront', scopes }).expect(201)).body.access_token as {
        id: string;
        token: string;
      };
    const revoked = await mint(['storefront/catalogue']);
    expect((await both('/search/suggest?q=rie', {}, true, revoked.token))[1].status).toBe(200);
    await shop.admin.delete(`/admin/access_tokens/${revoked.id}`).expect(204);
    const scopeless = await mint(['storefront/cart']);
    for (const token of ['vnstss_unknown', revoked.token, shop.admin_token, scopeless.token, null]) {
      const [nest, fast] = await both('/search/suggest?q=rie', {}, false, token);
      if (token) expect([401, 403]).toContain(nest.status);
      expect(comparable(fast)).toEqual(comparable(nest));
    }
  });

  it('never answers a shop with another shop’s kept answer', async () => {
    const other = await t.createShop();
    const doc = fixtureImport() as { products: Array<{ key: string; title: unknown }> };
    for (const p of doc.products) p.title = `Other ${p.key}`;
    await other.admin.post('/admin/catalogue/import', doc).expect(200);
    const mine = await get('/search/suggest?q=rie');
    const [nest, fast] = await both('/search/suggest?q=rie', {}, true, other.storefront_token);
    expect(comparable(fast)).toEqual(comparable(nest));
    expect(fast.body.equals(mine.body)).toBe(false);
    const products = (b: Buffer) => (JSON.parse(b.toString()) as { data: Array<{ kind: string; items: Array<{ id: string }> }> }).data;
    expect(products(fast.body).flatMap((g) => g.items.map((i) => i.id))).not.toContain(ids.products.p1);
  });

  it('counts the lane’s requests in the rate limit: its headers, and 429 once the bucket is empty', async () => {
    const config = t.config;
    const token = (
      (await shop.admin.post('/admin/access_tokens', { label: 'rl', tier: 'storefront', scopes: ['storefront/catalogue'] }).expect(201)).body.access_token as {
        token: string;
      }
    ).token;
    await kept('/search/suggest?q=rie');
    Object.assign(config, { RATE_LIMIT: true, RATE_LIMIT_BURST: 3, RATE_LIMIT_REFILL_PER_SECOND: 0.001 });
    try {
      const before = lane.served;
      const answers: Answer[] = [];
      for (let i = 0; i < 4; i++) answers.push(await get('/search/suggest?q=rie', {}, token));
      expect(lane.served - before).toBe(4);
      expect(answers.map((a) => [a.status, a.headers['x-ratelimit-remaining']])).toEqual([
        [200, '2'],
        [200, '1'],
        [200, '0'],
        [429, '0'],
      ]);
      lane.enabled = false;
      const nest = await get('/search/suggest?q=rie', {}, token);
      lane.enabled = true;
      expect(comparable(answers[3])).toEqual(comparable(nest));
    } finally {
      Object.assign(config, { RATE_LIMIT: false });
    }
  });

  it('logs and counts its requests as the Nest path does, with their request id', async () => {
    await get('/search/suggest?q=rie');
    const labels = { method: 'GET', route: `${API}/search/suggest`, tier: 'storefront', status_class: '2xx' };
    const scrape = async () => (await raw(port, '/metrics', { authorization: `Bearer ${METRICS_TOKEN}` })).body.toString();
    const before = sample(await scrape(), 'http_requests_total', labels);
    lines.length = 0;
    const [nest, fast] = await both('/search/suggest?q=rie', { 'x-request-id': 'lane-log-1' });
    expect(fast.headers['x-request-id']).toBe('lane-log-1');
    expect(sample(await scrape(), 'http_requests_total', labels) - before).toBe(2);
    const logged = lines.filter((l) => l.request_id === 'lane-log-1').map((l) => ({ ...l, time: 0, duration_ms: 0 }));
    expect(logged).toHaveLength(2);
    expect(logged[1]).toEqual(logged[0]);
    expect(logged[0]).toMatchObject({ route: `${API}/search/suggest`, tier: 'storefront', tenant_id: shop.tenant.id, res: { status: 200 } });
    expect(nest.status).toBe(200);

    // below info (production's warn) neither path logs a line; the lane still answers with its request id
    const pinoLogger = (lane as unknown as { deps: { requestLog: { logger: { level: string } } } }).deps.requestLog.logger;
    pinoLogger.level = 'warn';
    try {
      lines.length = 0;
      const [quietNest, quietFast] = await both('/search/suggest?q=rie', { 'x-request-id': 'lane-log-2' });
      expect(quietFast.headers['x-request-id']).toBe('lane-log-2');
      expect(comparable(quietFast)).toEqual(comparable(quietNest));
      expect(lines.filter((l) => l.request_id === 'lane-log-2')).toEqual([]);
    } finally {
      pinoLogger.level = 'info';
    }
  });

  it('never serves an answer the Nest path would no longer give: a product change, a published collection', async () => {
    const first = await get('/search/suggest?q=zeb');
    expect((await get('/search/suggest?q=zeb')).body.equals(first.body)).toBe(true);
    await shop.admin.put(`/admin/products/${ids.products.p2}`, { title: 'Zebra Riesling' }).expect(200);
    expect((await get('/search/suggest?q=zeb')).body.toString()).toContain('Zebra Riesling');
    const [nest, fast] = await both('/search/suggest?q=zeb', {}, true);
    expect(comparable(fast)).toEqual(comparable(nest));
    expect(fast.body.toString()).toContain('Zebra Riesling');
    // a collection write drops the kept collections: the next ask is computed by the Nest path, then kept again
    const rules = JSON.stringify({ all: [{ field: 'title', contains: 'a' }] });
    await shop.admin.post('/admin/collections', { title: 'Zebu Picks', collection_type: 'smart', rules_json: rules }).expect(201);
    const before = lane.served;
    const computed = await get('/search/suggest?q=zeb');
    expect(lane.served - before).toBe(0);
    expect(computed.body.toString()).toContain('Zebu Picks');
    expect((await kept('/search/suggest?q=zeb')).body.equals(computed.body)).toBe(true);
  });
});
