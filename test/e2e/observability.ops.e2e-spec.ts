import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, Module } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EventHandlerWorker } from '../../src/events/event-handler.worker.js';
import { Metrics } from '../../src/observability/metrics.service.js';
import { API, createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { freePort } from '../helpers/net.js';
import { CH_ADDRESS, checkoutWith, Ids, importShop } from './checkout.fixture.js';

/** Issue 19: GET /metrics (protected, bounded labels, counts that move), request and error logs, slow queries, readiness members. */

const TOKEN = 'metrics-test-token-0123456789';

/** The value of one sample in the Prometheus text format (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const m = /^([^{ ]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return 0;
}

/** Every label value of every sample. */
function labelValues(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .flatMap((l) => [...l.matchAll(/\w+="((?:[^"\\]|\\.)*)"/g)].map((x) => x[1]));
}

@Controller('observability-boom')
class BoomController {
  @Get()
  boom(): never {
    throw new Error('observability boom');
  }
}
@Module({ controllers: [BoomController] })
class BoomModule {}

describe('operations: metrics, logs and readiness', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;
  let metricsPort: number;
  const lines: Array<Record<string, unknown>> = [];
  const scrape = async () => (await t.http().get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200)).text;

  beforeAll(async () => {
    metricsPort = await freePort();
    const logDestination = { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) };
    t = await createTestApp({
      config: { METRICS_TOKEN: TOKEN, METRICS_PORT: metricsPort, LOG_LEVEL: 'info', SLOW_QUERY_MS: 150 },
      imports: [BoomModule],
      logDestination,
    });
    shop = await t.createShop();
    ids = await importShop(shop.admin);
  });
  afterAll(() => t?.close());

  describe('GET /metrics', () => {
    it('is refused without the metrics token, or with another one, and not rate limited or documented', async () => {
      const none = await t.http().get('/metrics').expect(401);
      expect(none.body).toEqual({ errors: 'the metrics token is required' });
      await t.http().get('/metrics').set('Authorization', 'Bearer wrong').expect(401);
      // an API token is not the metrics token
      await t.http().get('/metrics').set('Authorization', `Bearer ${shop.admin_token}`).expect(401);
      const doc = await t.http().get(`${API}/openapi.json`).expect(200);
      expect(Object.keys(doc.body.paths)).not.toContain('/metrics');
    });

    it('serves the Prometheus text format with the bearer token', async () => {
      const res = await t.http().get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      for (const name of [
        'http_requests_total',
        'http_request_duration_seconds',
        'process_cpu_user_seconds_total',
        'nodejs_eventloop_lag_seconds',
        'db_pool_connections',
        'catalogue_index_tenants',
        'catalogue_index_bytes',
        'catalogue_index_rebuilds',
        'catalogue_index_over_budget_refusals',
        'catalogue_index_delta_lag_seconds',
        'outbox_backlog',
        'outbox_oldest_age_seconds',
        'webhook_deliveries_total',
        'rate_limit_refusals_total',
        'orders_placed_total',
        'checkout_completion_failures_total',
      ]) {
        expect(res.text).toContain(`# TYPE ${name} `);
      }
      expect(res.text).toMatch(/db_pool_connections\{data_source="primary",state="in_use"\} \d+/);
      expect(res.text).toMatch(/db_pool_connections\{data_source="primary",state="idle"\} \d+/);
      expect(res.text).toMatch(/db_pool_connections\{data_source="primary",state="waiting"\} \d+/);
      expect(res.text).toMatch(/outbox_backlog\{queue="handlers"\} \d+/);
      expect(res.text).toMatch(/outbox_oldest_age_seconds\{queue="webhooks"\} [\d.e+-]+/);
    });

    it('is also served on METRICS_PORT, bound to its own interface', async () => {
      const denied = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(denied.status).toBe(401);
      const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('# TYPE http_requests_total counter');
      expect((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status).toBe(404);
    });

    it('counts requests by route template, tier and status class, and times them', async () => {
      const labels = { method: 'GET', route: `${API}/admin/access_tokens`, tier: 'admin', status_class: '2xx' };
      const before = await scrape();
      await shop.admin.get('/admin/access_tokens').expect(200);
      await shop.admin.get('/admin/access_tokens').expect(200);
      await t.client(null).get('/admin/access_tokens').expect(401);
      const after = await scrape();
      expect(sample(after, 'http_requests_total', labels) - sample(before, 'http_requests_total', labels)).toBe(2);
      expect(sample(after, 'http_request_duration_seconds_count', labels) - sample(before, 'http_request_duration_seconds_count', labels)).toBe(2);
      const refused = { ...labels, status_class: '4xx' };
      expect(sample(after, 'http_requests_total', refused) - sample(before, 'http_requests_total', refused)).toBe(1);
    });

    it('keeps label values bounded: route templates, never ids or raw paths', async () => {
      const id = randomUUID();
      const junk = `no-such-path-${randomUUID()}`;
      await shop.admin.get(`/admin/collections/${id}`).expect(404);
      await t.http().get(`/${junk}`).expect(404);
      await shop.storefront.get(`/products/${randomUUID()}`);
      const text = await scrape();
      expect(text).not.toContain(id);
      expect(text).not.toContain(junk);
      expect(sample(text, 'http_requests_total', { route: `${API}/admin/collections/:id`, status_class: '4xx', tier: 'admin' })).toBe(1);
      expect(sample(text, 'http_requests_total', { route: 'unmatched', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
      for (const v of labelValues(text)) {
        expect(v).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
        expect(v.length).toBeLessThan(120);
      }
      const tiers = new Set(text.split('\n').flatMap((l) => [...l.matchAll(/tier="([^"]*)"/g)].map((m) => m[1])));
      for (const tier of tiers) expect(['admin', 'storefront', 'customer', 'health', 'metrics', 'none']).toContain(tier);
    });

    it('counts orders placed and checkout completion failures by code', async () => {
      const before = await scrape();
      const visitor = t.client(shop.storefront_token);
      const c = await checkoutWith(visitor, [[ids.variants['v-wine'], 1]]);
      await visitor.put(`/checkouts/${c.id}`, { shipping_address: CH_ADDRESS, shipping_method_id: ids.shipping_methods.post }).expect(200);
      const refused = await visitor.post(`/checkouts/${c.id}/complete`, { payment_type_id: ids.payment_types.invoice, age_confirmed: true }).expect(422);
      expect(refused.body.code).toBe('terms_acceptance_required');
      await visitor.post(`/checkouts/${c.id}/complete`, { payment_type_id: ids.payment_types.invoice, accepted_terms: true, age_confirmed: true }).expect(200);
      const after = await scrape();
      expect(sample(after, 'orders_placed_total') - sample(before, 'orders_placed_total')).toBe(1);
      const code = { code: 'terms_acceptance_required' };
      expect(sample(after, 'checkout_completion_failures_total', code) - sample(before, 'checkout_completion_failures_total', code)).toBe(1);
      // without tracing nothing is stored for it
      const events = (await t.db.query(`SELECT trace_context FROM outbox_events WHERE tenant_id = $1`, [shop.tenant.id])) as Array<{ trace_context: unknown }>;
      expect(events.length).toBeGreaterThan(0);
      expect(events.every((e) => e.trace_context === null)).toBe(true);
    });
  });

  describe('logs', () => {
    it('one JSON line per request with the route template, the tier and the request id', async () => {
      lines.length = 0;
      const id = randomUUID();
      await shop.admin.get(`/admin/collections/${id}`).set('X-Request-Id', 'log-route-1').expect(404);
      const mine = lines.filter((l) => l.request_id === 'log-route-1');
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ route: `${API}/admin/collections/:id`, tier: 'admin', tenant_id: shop.tenant.id, res: { status: 404 } });
      expect((mine[0].req as { path: string }).path).toBe(`${API}/admin/collections/${id}`);
    });

    it('an error is logged once, with the request id and the stack', async () => {
      lines.length = 0;
      const res = await t.http().get(`${API}/observability-boom`).set('X-Request-Id', 'log-boom-1').expect(500);
      expect(res.body).toEqual({ errors: 'internal error', request_id: 'log-boom-1' });
      const errors = lines.filter((l) => JSON.stringify(l).includes('observability boom'));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ level: 50, request_id: 'log-boom-1', route: `${API}/observability-boom` });
      expect((errors[0].err as { stack: string }).stack).toMatch(/Error: observability boom\n\s+at /);
    });

    it('a query slower than SLOW_QUERY_MS writes one line with the statement, never its values', async () => {
      lines.length = 0;
      await t.db.query(`SELECT pg_sleep($1), $2::text AS secret`, [0.3, 'do-not-log-me']);
      await t.db.query(`SELECT $1::text AS quick`, ['fast-one']);
      const slow = lines.filter((l) => l.msg === 'slow query');
      expect(slow).toHaveLength(1);
      expect(slow[0]).toMatchObject({ level: 40, statement: 'SELECT pg_sleep($1), $2::text AS secret', statement_id: expect.stringMatching(/^[0-9a-f]{12}$/) });
      expect(slow[0].duration_ms as number).toBeGreaterThanOrEqual(150);
      expect(JSON.stringify(lines)).not.toContain('do-not-log-me');
      expect(sample(await scrape(), 'db_slow_queries_total')).toBeGreaterThanOrEqual(1);
    });
  });

  describe('GET /health/ready', () => {
    it('reports the database, the catalogue index and the outbox workers', async () => {
      const res = await t.http().get('/health/ready').expect(200);
      expect(res.body).toMatchObject({
        status: 'ok',
        degraded: [],
        details: {
          database: { status: 'up' },
          catalogue_index: {
            status: 'up',
            tenants: expect.any(Number),
            bytes: expect.any(Number),
            rebuilds: expect.any(Number),
            delta_lag_ms: expect.any(Number),
          },
          outbox_worker: {
            status: 'up',
            running: { handlers: true, webhooks: true },
            backlog: { handlers: { pending: expect.any(Number) }, webhooks: { pending: expect.any(Number) } },
          },
        },
      });
    });

    it('lists a degraded member without failing readiness', async () => {
      const worker = t.get(EventHandlerWorker);
      await worker.beforeApplicationShutdown();
      try {
        const res = await t.http().get('/health/ready').expect(200);
        expect(res.body.status).toBe('ok');
        expect(res.body.degraded).toEqual(['outbox_worker']);
        expect(res.body.details.outbox_worker).toMatchObject({
          status: 'degraded',
          running: { handlers: false, webhooks: true },
          reasons: ['handlers worker stopped'],
        });
      } finally {
        worker.start();
      }
    });
  });
});

describe('operations: /metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { RATE_LIMIT: true, RATE_LIMIT_BURST: 2, RATE_LIMIT_REFILL_PER_SECOND: 1 } });
  });
  afterAll(() => t?.close());

  it('is not served on the public API (404 like any unknown path), even with a bearer', async () => {
    expect((await t.http().get('/metrics').expect(404)).body).toEqual({ errors: 'not found' });
    await t.http().get('/metrics').set('Authorization', 'Bearer anything').expect(404);
  });

  it('counts rate-limit refusals', async () => {
    const metrics = t.get(Metrics);
    const before = sample((await metrics.render()).body, 'rate_limit_refusals_total');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await t.http().get(`${API}/admin/access_tokens`).set('Authorization', 'Bearer vnstat_ratelimited')).status);
    const refusals = statuses.filter((s) => s === 429).length;
    expect(refusals).toBeGreaterThanOrEqual(1);
    expect(sample((await metrics.render()).body, 'rate_limit_refusals_total') - before).toBe(refusals);
  });
});
