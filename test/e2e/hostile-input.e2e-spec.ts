import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { routeList } from '../../src/common/http/route-table.js';
import { MAX_JSON_DEPTH } from '../../src/common/http/json-shape.js';
import { createTestApp, ShopClient, TestApp, TestShop } from '../helpers/test-app.js';
import { CH_ADDRESS, checkoutWith, Ids, importShop } from './checkout.fixture.js';
import { register, signIn } from './customers.helpers.js';

/**
 * Issue 13, "No 500 and always the envelope, whatever the input": every route of the route table gets the shapes the
 * attack sweep found (deep JSON, NUL characters, arrays for objects, empty PUTs, odd types per documented member,
 * upper-case ids, hostile query strings). Each answer is below 500 and, when not 2xx, the `{errors}` envelope; a route
 * that refused every shape changed nothing in the database.
 */

interface Route {
  method: string;
  path: string;
}
type Sent = { label: string; res: Response };

const RAW_BODY = /\/assets\/data$/;
const deep = (n: number, leaf = '1') => '['.repeat(n) + leaf + ']'.repeat(n);
const DEEP = 5000;

/** Tables that background workers or token use touch on their own. */
const NOISY = new Set([
  'outbox_events',
  'event_handler_jobs',
  'webhook_deliveries',
  'webhook_delivery_attempts',
  'access_tokens',
  'migrations',
  'typeorm_metadata',
]);

// The sweeps over every route send thousands of requests one after another: on a loaded machine (CI beside other jobs)
// one took over Jest's default 60 s; on an idle one they take a fraction of it.
jest.setTimeout(180_000);

describe('hostile input on every route', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;
  let visitor: ShopClient;
  let shopper: ShopClient;
  let routes: Route[];
  let known: Array<[RegExp, string]>;
  let fingerprint: () => Promise<string>;
  let openapi: {
    paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> } }>>;
    components: { schemas: Record<string, { properties?: Record<string, { type?: string }> }> };
  };

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    ids = await importShop(shop.admin);
    visitor = t.client(shop.storefront_token);
    await register(visitor, 'hostile@example.com');
    shopper = (await signIn(t, visitor, 'hostile@example.com')).me;
    await shopper.post('/customers/me/addresses', { street: 'Somewhere 1' }).expect(201);
    const created = async (path: string, body: object, member: string) => (await shop.admin.post(path, body).expect(201)).body[member].id as string;
    const collection = await created('/admin/collections', { title: 'Hostile', published: true }, 'collection');
    const customer = await created('/admin/customers', { email: 'victim@example.com' }, 'customer');
    const page = await created('/admin/content/pages', { handle: 'hostile-page', title: 'Page' }, 'page');
    const article = await created('/admin/content/articles', { title: 'Article' }, 'article');
    const code = await created('/admin/discount_codes', { code: 'HOSTILE10', value: 10 }, 'discount_code');
    const webhook = await created('/admin/webhooks', { topic: 'order.placed', address: 'https://93.184.216.34/hostile' }, 'webhook');
    const theme = (await shop.admin.get('/admin/themes').expect(200)).body.themes[0].id as string;
    const checkout = await checkoutWith(visitor, [[ids.variants['v-juice'], 1]]);
    await visitor.put(`/checkouts/${checkout.id}`, { shipping_address: CH_ADDRESS, shipping_method_id: ids.shipping_methods.post }).expect(200);
    const buyer = t.client(shop.storefront_token);
    const other = await checkoutWith(buyer, [[ids.variants['v-juice'], 1]]);
    await buyer.put(`/checkouts/${other.id}`, { shipping_address: CH_ADDRESS, shipping_method_id: ids.shipping_methods.post }).expect(200);
    const placed = await buyer
      .post(`/checkouts/${other.id}/complete`, { payment_type_id: ids.payment_types.invoice, accepted_terms: true, age_confirmed: true })
      .expect(200);
    const order = placed.body.checkout.order_id as string;
    const address = (await shopper.get('/customers/me/addresses').expect(200)).body.addresses[0].id as string;
    known = [
      [/\/admin\/collections\/:id/, collection],
      [/\/admin\/customers\/:id/, customer],
      [/\/admin\/content\/pages\/:id/, page],
      [/\/admin\/content\/articles\/:id/, article],
      [/\/admin\/discount_codes\/:id/, code],
      [/\/admin\/webhooks\/:id/, webhook],
      [/\/admin\/themes\/:id/, theme],
      [/\/storefront\/themes\/:themeId/, theme],
      [/\/products\/:id/, ids.products['p-wine']],
      [/\/collections\/:id/, collection],
      [/\/checkouts\/:token/, checkout.id],
      [/\/admin\/checkouts\/:token/, other.id],
      [/\/orders\/:id/, order],
      [/\/payments\/test\/:orderId/, order],
      [/\/addresses\/:id/, address],
    ];
    openapi = (await t.http().get('/api/2026-04-01/openapi.json').expect(200)).body;
    routes = routeList().filter((r) => (r.path.startsWith('/api/2026-04-01/') || r.path.startsWith('/storefront/')) && !r.path.endsWith('openapi.json'));

    const tables: Array<{ table_name: string; has_updated: boolean }> = await t.db.query(
      `SELECT t.table_name, EXISTS (SELECT 1 FROM information_schema.columns c WHERE c.table_schema = 'public' AND c.table_name = t.table_name AND c.column_name = 'updated_at') AS has_updated
         FROM information_schema.tables t WHERE t.table_schema = 'public' AND t.table_type = 'BASE TABLE' ORDER BY t.table_name`,
    );
    const parts = tables
      .filter((x) => !NOISY.has(x.table_name))
      .map((x) => `SELECT '${x.table_name}' AS t, count(*)::text AS n, ${x.has_updated ? 'max(updated_at)::text' : `''`} AS u FROM "${x.table_name}"`);
    const sql = parts.join(' UNION ALL ');
    fingerprint = async () => JSON.stringify(await t.db.query(sql));
  });
  afterAll(() => t.close());

  /** The client of the route's tier; storefront and customer routes keep the visitor's cookie jar. */
  function clientFor(path: string): ShopClient {
    if (/\/admin(\/|$)/.test(path)) return shop.admin;
    if (/\/customers\/me|\/customer\//.test(path)) return shopper;
    return visitor;
  }

  function fill(path: string, opts: { upper?: boolean; random?: boolean } = {}): string {
    return path
      .replace(/\*key$/, 'assets/theme.css')
      .replace(/:file$/, `${opts.upper ? ids.variants['v-wine'].toUpperCase() : ids.variants['v-wine']}.pdf`)
      .replace(/:[A-Za-z]+/g, (param, offset: number) => {
        const prefix = path.slice(0, offset + param.length);
        const hit = opts.random ? undefined : known.find(([re]) => re.test(prefix));
        const id = hit ? hit[1] : randomUUID();
        return opts.upper ? id.toUpperCase() : id;
      });
  }

  function send(route: Route, url: string, body?: string | object, contentType = 'application/json') {
    const client = clientFor(route.path);
    let req = client.agent[route.method.toLowerCase() as 'get'](url);
    if (client.token) req = req.set('Authorization', `Bearer ${client.token}`);
    if (body !== undefined) req = req.set('Content-Type', contentType).send(typeof body === 'string' ? body : JSON.stringify(body));
    return req;
  }

  function expectSane(label: string, res: Response): void {
    const where = `${label} -> ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`;
    if (res.status >= 500) throw new Error(`server error: ${where}`);
    if (res.status >= 400) {
      if (typeof res.body !== 'object' || res.body === null || typeof res.body.errors !== 'string') throw new Error(`no error envelope: ${where}`);
    }
  }

  /** The documented members of a route's JSON body (from the OpenAPI document the code generates). */
  function membersOf(route: Route): string[] {
    const apiPath = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const op = openapi.paths[apiPath]?.[route.method.toLowerCase()];
    const ref = op?.requestBody?.content?.['application/json']?.schema?.$ref;
    const schema = ref ? openapi.components.schemas[ref.split('/').pop()!] : undefined;
    return Object.keys(schema?.properties ?? {});
  }

  const ODD_VALUES: unknown[] = [[], {}, 'x'.repeat(5000), -1, 1e308, true, null, 'not-a-uuid', [{ a: [1] }], 'ÄÖÜ\u200b🍷'];

  it('JSON bodies: deep nesting, NUL characters, arrays for objects, empty PUTs and odd member types never give a 500', async () => {
    const jsonRoutes = routes.filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && !RAW_BODY.test(r.path));
    expect(jsonRoutes.length).toBeGreaterThan(30);
    const failures: string[] = [];
    let requests = 0;
    for (const route of jsonRoutes) {
      const url = fill(route.path);
      const before = await fingerprint();
      const sent: Sent[] = [];
      const go = async (label: string, body?: string | object) => {
        const res = await send(route, url, body);
        requests += 1;
        sent.push({ label: `${route.method} ${route.path} [${label}]`, res });
        return res;
      };
      const strict = async (label: string, body: string | object | undefined, status: number, member?: string) => {
        const res = await go(label, body);
        if (res.status !== status)
          failures.push(`${route.method} ${route.path} [${label}]: expected ${status}, got ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        else if (member && !String(res.body.errors).includes(member))
          failures.push(`${route.method} ${route.path} [${label}]: the error does not name ${member}: ${res.body.errors}`);
      };
      await strict('deep body', deep(DEEP), 422);
      await strict('deep member', `{"title":${deep(DEEP)}}`, 422, 'title');
      await strict('deep unknown member', `{"zz_unknown":${deep(DEEP)}}`, 422, 'zz_unknown');
      await strict('just too deep', `{"a":${deep(MAX_JSON_DEPTH)}}`, 422);
      await strict('NUL in a member', { title: 'Red\u0000wine', name: 'ok' }, 422, 'title');
      await strict('NUL in a nested member', { shipping_address: { street: 'a\u0000b' } }, 422, 'shipping_address.street');
      await go('array body', []);
      await go('scalar body', '42');
      await go('null body', 'null');
      await go('arrays for objects', { shipping_address: [], billing_address: [], settings: [], quantity_rule: [], terms: [], rules: [] });
      if (route.method === 'PUT') await strict('empty PUT', undefined, 422);
      const members = membersOf(route);
      for (const [i, member] of members.entries()) {
        for (let k = 0; k < 3; k++) await go(`${member} = odd #${k}`, { [member]: ODD_VALUES[(i * 3 + k) % ODD_VALUES.length] });
      }
      for (const s of sent) {
        try {
          expectSane(s.label, s.res);
        } catch (err) {
          failures.push((err as Error).message);
        }
      }
      if (sent.every((s) => s.res.status >= 400)) {
        const after = await fingerprint();
        if (after !== before) failures.push(`${route.method} ${route.path}: refused every shape but the database changed`);
      }
    }
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(500);
  });

  it('the catalogue import: odd keys are accepted as keys or refused with 422 naming the path', async () => {
    const odd = ['ключ', 'wine 🍷', 'a\u200bb', '../../etc/passwd', ' ', 'x'.repeat(300), '<script>', 'NUL?'];
    for (const [i, key] of odd.entries()) {
      const res = await shop.admin.post('/admin/catalogue/import', {
        locations: [{ key, name: `Loc ${i}` }],
        products: [
          {
            key: `odd-${i}`,
            title: 'Odd',
            published: true,
            variants: [{ key: `odd-v-${i}`, price: 1, tax_rate: 0, track_inventory: true, stock: { [key]: 1 } }],
          },
        ],
      });
      expectSane(`import key ${JSON.stringify(key)}`, res);
      if (res.status === 422) expect(res.body.errors).toMatch(/locations\[0\]\.key|products\[0\]/);
      else expect(res.status).toBe(200);
    }
    const nul = await shop.admin.post('/admin/catalogue/import', { locations: [{ key: 'a\u0000b', name: 'x' }] }).expect(422);
    expect(nul.body.errors).toContain('locations[0].key');
  });

  it('paths: upper- or mixed-case ids are the same resource; malformed ids are 4xx with the envelope', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const hasParam = /:[A-Za-z]|\*key/.test(route.path);
      if (!hasParam) continue;
      if (route.method === 'GET') {
        const lower = await send(route, fill(route.path));
        const upper = await send(route, fill(route.path, { upper: true }));
        if (upper.status !== lower.status) failures.push(`GET ${route.path}: upper-case id ${upper.status}, lower-case ${lower.status}`);
        for (const [label, res] of [
          ['lower', lower],
          ['upper', upper],
        ] as const) {
          try {
            expectSane(`GET ${route.path} ${label}`, res);
          } catch (err) {
            failures.push((err as Error).message);
          }
        }
      }
      // writes only ever see unknown ids here (nothing real is deleted or changed)
      for (const raw of [
        fill(route.path, { upper: true, random: true }),
        route.path.replace(/:[A-Za-z]+/g, 'not-a-uuid%00'),
        route.path.replace(/:[A-Za-z]+/g, '%E2%82'),
      ]) {
        const res = await send(route, raw.replace(/\*key$/, 'x'), ['POST', 'PUT'].includes(route.method) && !RAW_BODY.test(route.path) ? {} : undefined);
        try {
          expectSane(`${route.method} ${raw}`, res);
        } catch (err) {
          failures.push((err as Error).message);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('query strings: odd and nested parameters on every GET are 4xx with the envelope or ignored, never 500', async () => {
    const queries = [
      'limit=abc',
      'limit=1e309',
      'limit[]=1',
      'page_info=AAAA.BBBB',
      'page_info[a]=1',
      'locale=%00',
      'locale[]=de',
      'currency[]=CHF',
      'currency=%00',
      'q[a][b]=1',
      'q=%00',
      'order=__proto__',
      'order[]=price',
      'category_id=NOT-A-UUID',
      'price_min=-1e309',
      'price_max[]=1',
      'ids=%E2%82',
      'hash[]=x',
      'key=..%2F..%2Fetc',
      'topic[]=x',
    ];
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.method === 'GET')) {
      for (const q of queries) {
        const res = await send(route, `${fill(route.path)}?${q}`);
        try {
          expectSane(`GET ${route.path}?${q}`, res);
        } catch (err) {
          failures.push((err as Error).message);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
