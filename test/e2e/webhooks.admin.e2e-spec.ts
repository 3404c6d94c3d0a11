import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RequestContext } from '../../src/common/context/request-context.js';
import { inTransaction } from '../../src/common/db/tenant-scope.js';
import { DomainEvents } from '../helpers/testing.js';
import type { EventTopic } from '../../src/events/event-topics.js';
import { WebhookDeliveryWorker } from '../../src/webhooks/webhook-delivery.worker.js';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local receiver: `/ok` answers 200, `/flaky` 500 twice then 200, `/down` always 503, `/hang` never answers. */
class Receiver {
  readonly requests: Received[] = [];
  private flaky = 0;
  private server: Server;
  base = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.requests.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        if (path.startsWith('/hang')) return;
        if (path.startsWith('/down')) return void res.writeHead(503).end('down');
        if (path.startsWith('/flaky')) {
          this.flaky += 1;
          if (this.flaky <= 2) return void res.writeHead(500).end('oops');
        }
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  to(path: string): Received[] {
    return this.requests.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

/** The receiver's side of the documented recipe, with node:crypto only. */
function verify(secret: string, r: Received): boolean {
  const ts = String(r.headers['x-webhook-timestamp']);
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${ts}.${r.body}`).digest('hex')}`);
  const given = Buffer.from(String(r.headers['x-webhook-signature']));
  return expected.length === given.length && timingSafeEqual(expected, given);
}

describe('admin webhooks and their delivery', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let rx: Receiver;
  let events: DomainEvents;

  beforeAll(async () => {
    rx = new Receiver();
    await rx.start();
    t = await createTestApp({ config: { WEBHOOK_POLL_MS: 50, WEBHOOK_RETRY_BASE_MS: 40, WEBHOOK_RETRY_WINDOW_MS: 1500, WEBHOOK_TIMEOUT_MS: 300 } });
    shop = await t.createShop();
    other = await t.createShop();
    events = t.get(DomainEvents);
  });
  afterAll(async () => {
    await t.close();
    await rx.stop();
  });

  const emit = (s: TestShop, topic: EventTopic, payload: object) =>
    inTransaction(RequestContext.forTenant(s.tenant.id), t.db, (tx) => events.emit(tx, topic, payload));
  const create = async (s: TestShop, topic: string, path: string) =>
    (await s.admin.post('/admin/webhooks', { topic, address: rx.base + path }).expect(201)).body.webhook;
  const attempts = async (s: TestShop, id: string) =>
    (await s.admin.get(`/admin/webhooks/${id}/deliveries`).expect(200)).body.deliveries as Array<Record<string, unknown>>;

  describe('CRUD', () => {
    it('creates a subscription and shows its secret only once', async () => {
      const res = await shop.admin.post('/admin/webhooks', { topic: 'order.placed', address: 'https://erp.example/hooks/orders' }).expect(201);
      const w = res.body.webhook;
      expect(w).toEqual({
        id: expect.any(String),
        topic: 'order.placed',
        address: 'https://erp.example/hooks/orders',
        is_active: true,
        failing_since: null,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        updated_at: null,
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
      });
      const got = await shop.admin.get(`/admin/webhooks/${w.id}`).expect(200);
      expect(got.body).toEqual({ webhook: { ...w, secret: undefined } });
      expect(got.body.webhook).not.toHaveProperty('secret');
      const list = await shop.admin.get('/admin/webhooks').expect(200);
      expect(JSON.stringify(list.body)).not.toContain(w.secret);
      const stored: Array<{ secret_box: Buffer }> = await t.db.query('SELECT secret_box FROM webhook_subscriptions WHERE id = $1', [w.id]);
      expect(stored[0].secret_box.toString('latin1')).not.toContain(w.secret);
    });

    it.each([
      ['missing body', undefined],
      ['unknown topic', { topic: 'order.exploded', address: 'https://erp.example/x' }],
      ['topic of wrong type', { topic: 5, address: 'https://erp.example/x' }],
      ['missing address', { topic: 'order.placed' }],
      ['address not a URL', { topic: 'order.placed', address: 'not a url' }],
      ['ftp address', { topic: 'order.placed', address: 'ftp://erp.example/x' }],
      ['javascript address', { topic: 'order.placed', address: 'javascript:alert(1)' }],
      ['relative address', { topic: 'order.placed', address: '/hooks' }],
      ['is_active of wrong type', { topic: 'order.placed', address: 'https://erp.example/y', is_active: 'yes' }],
      ['duplicate topic and address', { topic: 'order.placed', address: 'https://erp.example/hooks/orders' }],
    ])('rejects %s with 422 and changes nothing', async (_name, body) => {
      const before = (await shop.admin.get('/admin/webhooks')).body.webhooks.length;
      const res = await shop.admin.post('/admin/webhooks', body).expect(422);
      expect(res.body).toEqual({ errors: expect.any(String) });
      expect((await shop.admin.get('/admin/webhooks')).body.webhooks.length).toBe(before);
    });

    it('updates only the given members, validates them, and re-activation clears failing_since', async () => {
      const w = (await shop.admin.post('/admin/webhooks', { topic: 'customer.created', address: 'https://crm.example/a' }).expect(201)).body.webhook;
      const res = await shop.admin.put(`/admin/webhooks/${w.id}`, { address: 'http://crm.example/b', is_active: false }).expect(200);
      expect(res.body.webhook).toMatchObject({
        id: w.id,
        topic: 'customer.created',
        address: 'http://crm.example/b',
        is_active: false,
        updated_at: expect.any(String),
      });
      expect(res.body.webhook).not.toHaveProperty('secret');
      await shop.admin.put(`/admin/webhooks/${w.id}`, { topic: 'nope' }).expect(422);
      await shop.admin.put(`/admin/webhooks/${w.id}`, { address: 'mailto:x@y.z' }).expect(422);
      await shop.admin.put(`/admin/webhooks/${w.id}`, { is_active: null }).expect(422);
      await shop.admin.put(`/admin/webhooks/${w.id}`, { topic: 'order.placed', address: 'https://erp.example/hooks/orders' }).expect(422); // taken
      const back = await shop.admin.put(`/admin/webhooks/${w.id}`, { topic: 'customer.updated', is_active: true }).expect(200);
      expect(back.body.webhook).toMatchObject({ topic: 'customer.updated', address: 'http://crm.example/b', is_active: true, failing_since: null });
    });

    it('deletes with 204, then 404', async () => {
      const w = (await shop.admin.post('/admin/webhooks', { topic: 'theme.published', address: 'https://cdn.example/purge' }).expect(201)).body.webhook;
      await shop.admin
        .delete(`/admin/webhooks/${w.id}`)
        .expect(204)
        .expect((r) => expect(r.text).toBe(''));
      await shop.admin.delete(`/admin/webhooks/${w.id}`).expect(404);
      await shop.admin.get(`/admin/webhooks/${w.id}`).expect(404);
      await shop.admin.put(`/admin/webhooks/${w.id}`, { is_active: true }).expect(404);
      await shop.admin.get(`/admin/webhooks/${w.id}/deliveries`).expect(404);
    });

    it('pages the list with the shared cursor and filters by topic', async () => {
      for (const n of [1, 2, 3]) await shop.admin.post('/admin/webhooks', { topic: 'catalogue.imported', address: `https://search.example/${n}` }).expect(201);
      const first = await shop.admin.get('/admin/webhooks?topic=catalogue.imported&limit=2').expect(200);
      expect(first.body.webhooks.map((w: { address: string }) => w.address)).toEqual(['https://search.example/1', 'https://search.example/2']);
      const link = first.headers.link as string;
      expect(link).toMatch(/^<http:\/\/[^>]+page_info=[^>]+>; rel="next"$/);
      const next = new URL(link.slice(1, link.indexOf('>')));
      const second = await shop.admin.get(`${next.pathname.replace('/api/2026-04-01', '')}${next.search}`).expect(200);
      expect(second.body.webhooks.map((w: { address: string }) => w.address)).toEqual(['https://search.example/3']);
      expect(second.headers.link).toBeUndefined();
      // the cursor belongs to its filters
      await shop.admin.get(`/admin/webhooks?topic=order.placed&limit=2&page_info=${encodeURIComponent(next.searchParams.get('page_info')!)}`).expect(422);
      await shop.admin.get('/admin/webhooks?topic=bogus').expect(422);
    });

    it('needs the webhooks scopes (owners hold them; others get 403; no token 401)', async () => {
      await t.client(null).get('/admin/webhooks').expect(401);
      const readOnly = (await shop.admin.post('/admin/access_tokens', { label: 'ro', tier: 'admin', scopes: ['Shop/webhooks/read'] }).expect(201)).body
        .access_token.token;
      const noScope = (await shop.admin.post('/admin/access_tokens', { label: 'none', tier: 'admin', scopes: ['Shop/collections/read'] }).expect(201)).body
        .access_token.token;
      await t.client(readOnly).get('/admin/webhooks').expect(200);
      await t.client(readOnly).post('/admin/webhooks', { topic: 'order.paid', address: 'https://x.example/' }).expect(403);
      await t.client(noScope).get('/admin/webhooks').expect(403);
      const w = (await shop.admin.get('/admin/webhooks')).body.webhooks[0];
      await t.client(noScope).get(`/admin/webhooks/${w.id}/deliveries`).expect(403);
      await t.client(readOnly).delete(`/admin/webhooks/${w.id}`).expect(403);
    });

    it('is an admin resource of its own: owner tokens carry its scopes, OpenAPI documents it', async () => {
      const tokens = (await shop.admin.get('/admin/access_tokens').expect(200)).body.access_tokens as Array<{ label: string; scopes: string }>;
      const owner = tokens.find((x) => x.label === 'Owner admin token')!;
      expect(owner.scopes.split(' ')).toEqual(expect.arrayContaining(['Shop/webhooks/read', 'Shop/webhooks/write']));
      const doc = (await t.http().get('/api/2026-04-01/openapi.json').expect(200)).body;
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining(['/api/2026-04-01/admin/webhooks', '/api/2026-04-01/admin/webhooks/{id}', '/api/2026-04-01/admin/webhooks/{id}/deliveries']),
      );
      expect(doc.components.schemas.CreatedWebhookDto.properties).toHaveProperty('secret');
    });

    it("keeps shops apart: another shop's subscription is 404 and not listed", async () => {
      const theirs = (await other.admin.post('/admin/webhooks', { topic: 'order.placed', address: 'https://other.example/' }).expect(201)).body.webhook;
      await shop.admin.get(`/admin/webhooks/${theirs.id}`).expect(404);
      await shop.admin.put(`/admin/webhooks/${theirs.id}`, { is_active: false }).expect(404);
      await shop.admin.delete(`/admin/webhooks/${theirs.id}`).expect(404);
      await shop.admin.get(`/admin/webhooks/${theirs.id}/deliveries`).expect(404);
      const mine = (await shop.admin.get('/admin/webhooks?limit=250')).body.webhooks.map((w: { id: string }) => w.id);
      expect(mine).not.toContain(theirs.id);
      await other.admin.get(`/admin/webhooks/${theirs.id}`).expect(200);
      await shop.admin.get('/admin/webhooks/not-a-uuid').expect(422);
    });
  });

  describe('delivery', () => {
    // a shop of its own, so the CRUD tests' subscriptions (to unreachable hosts) never get deliveries
    let dshop: TestShop;
    beforeAll(async () => {
      dshop = await t.createShop();
    });

    it('POSTs a correctly signed JSON delivery with topic, event id and timestamp headers, and logs the attempt', async () => {
      const w = await create(dshop, 'collection.created', '/ok');
      const e = await emit(dshop, 'collection.created', { collection: { id: 'c-1', title: 'Reds' } });
      const [r] = await waitFor(
        () => rx.to('/ok'),
        (l) => l.length > 0,
      );
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['x-webhook-topic']).toBe('collection.created');
      expect(r.headers['x-webhook-id']).toBe(e.id);
      const ts = Number(r.headers['x-webhook-timestamp']);
      expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(60);
      expect(r.headers['x-webhook-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(verify(w.secret, r)).toBe(true);
      expect(verify(w.secret + 'x', r)).toBe(false);
      expect(verify(w.secret, { ...r, body: r.body.replace('Reds', 'Whites') })).toBe(false);
      expect(JSON.parse(r.body)).toEqual({
        id: e.id,
        topic: 'collection.created',
        shop_id: dshop.tenant.id,
        occurred_at: e.occurredAt.toISOString(),
        data: { collection: { id: 'c-1', title: 'Reds' } },
      });

      const log = await waitFor(
        () => attempts(dshop, w.id),
        (l) => l.length > 0,
      );
      expect(log).toEqual([
        {
          id: expect.any(String),
          event_id: e.id,
          topic: 'collection.created',
          attempt: 1,
          status_code: 200,
          error: null,
          duration_ms: expect.any(Number),
          created_at: expect.any(String),
        },
      ]);
      const [d] = await t.db.query('SELECT status, attempts, delivered_at FROM webhook_deliveries WHERE event_id = $1', [e.id]);
      expect(d).toMatchObject({ status: 'delivered', attempts: 1, delivered_at: expect.any(Date) });
    });

    it('retries a receiver that fails twice, then succeeds: three attempts, same event id', async () => {
      const w = await create(dshop, 'order.placed', '/flaky');
      const e = await emit(dshop, 'order.placed', { order: { id: 'o-1', total: '42.00' } });
      const log = await waitFor(
        () => attempts(dshop, w.id),
        (l) => l.some((a) => a.status_code === 200),
      );
      expect(log.map((a) => [a.attempt, a.status_code])).toEqual([
        [3, 200],
        [2, 500],
        [1, 500],
      ]); // newest first
      const got = rx.to('/flaky');
      expect(got).toHaveLength(3);
      expect(new Set(got.map((r) => r.headers['x-webhook-id']))).toEqual(new Set([e.id]));
      for (const r of got) expect(verify(w.secret, r)).toBe(true);
      expect((await dshop.admin.get(`/admin/webhooks/${w.id}`)).body.webhook).toMatchObject({ is_active: true, failing_since: null });
      // the delivery log is cursored
      const page = await dshop.admin.get(`/admin/webhooks/${w.id}/deliveries?limit=2`).expect(200);
      expect(page.body.deliveries).toHaveLength(2);
      expect(page.headers.link).toContain('rel="next"');
    });

    it('records a timeout as an attempt without status', async () => {
      const w = await create(dshop, 'order.shipped', '/hang');
      await emit(dshop, 'order.shipped', { order: { id: 'o-2' } });
      const log = await waitFor(
        () => attempts(dshop, w.id),
        (l) => l.length > 0,
      );
      expect(log[log.length - 1]).toMatchObject({ attempt: 1, status_code: null, error: 'timeout after 300 ms' });
      expect(log[log.length - 1].duration_ms).toBeGreaterThanOrEqual(290);
    });

    it('marks a subscription failing when deliveries fail for the whole retry window', async () => {
      const w = await create(dshop, 'inventory_level.updated', '/down');
      await emit(dshop, 'inventory_level.updated', { inventory_level: { available: 3 } });
      const got = await waitFor(
        async () => (await dshop.admin.get(`/admin/webhooks/${w.id}`)).body.webhook,
        (x) => x.is_active === false,
        5000,
      );
      expect(got).toMatchObject({ is_active: false, failing_since: expect.any(String) });
      const log = await attempts(dshop, w.id);
      expect(log.length).toBeGreaterThan(2);
      expect(log.every((a) => a.status_code === 503)).toBe(true);
      // no longer receives events
      const before = rx.to('/down').length;
      await emit(dshop, 'inventory_level.updated', { inventory_level: { available: 4 } });
      await new Promise((r) => setTimeout(r, 200));
      expect(rx.to('/down').length).toBe(before);
    });

    it('delivers only to active subscriptions of the same shop and topic', async () => {
      const mine = await create(dshop, 'customer.created', '/ok?who=mine');
      const theirs = await create(other, 'customer.created', '/ok?who=theirs');
      const paused = await create(dshop, 'customer.created', '/ok?who=paused');
      await dshop.admin.put(`/admin/webhooks/${paused.id}`, { is_active: false }).expect(200);
      await create(dshop, 'customer.updated', '/ok?who=other-topic');
      const e = await emit(dshop, 'customer.created', { customer: { id: 'cu-1' } });
      await waitFor(
        () => rx.to('/ok?who=mine'),
        (l) => l.length > 0,
      );
      await new Promise((r) => setTimeout(r, 150));
      expect(rx.to('/ok?who=mine').map((r) => r.headers['x-webhook-id'])).toEqual([e.id]);
      expect(rx.to('/ok?who=theirs')).toHaveLength(0);
      expect(rx.to('/ok?who=paused')).toHaveLength(0);
      expect(rx.to('/ok?who=other-topic')).toHaveLength(0);
      expect(await attempts(other, theirs.id)).toEqual([]);
      expect((await attempts(dshop, mine.id))[0]).toMatchObject({ event_id: e.id, status_code: 200 });
    });

    it('never delivers one attempt twice when several workers poll at once (SKIP LOCKED)', async () => {
      const worker = t.get(WebhookDeliveryWorker);
      const w = await create(dshop, 'catalogue.imported', '/ok?who=race');
      // record 30 events without waking the worker, then let 4 extra ticks race the running worker
      const ids: string[] = [];
      await t.db.transaction(async (m) => {
        const ctx = RequestContext.forTenant(dshop.tenant.id).withManager(m);
        for (let i = 0; i < 30; i++) ids.push((await events.emit(ctx, 'catalogue.imported', { import: { n: i } })).id);
      });
      const tick = (worker as unknown as { tick: () => Promise<boolean> }).tick.bind(worker);
      await Promise.all([tick(), tick(), tick(), tick()]);
      const rowsOf = async () =>
        (await t.db.query(`SELECT event_id, attempts, status FROM webhook_deliveries WHERE event_id = ANY($1) AND subscription_id = $2`, [
          ids,
          w.id,
        ])) as Array<{
          event_id: string;
          attempts: number;
          status: string;
        }>;
      const rows = await waitFor(rowsOf, (l) => l.length === 30 && l.every((r) => r.status === 'delivered'));
      await new Promise((r) => setTimeout(r, 150));
      // every event reached the receiver, and each attempt exactly once: as many requests per event as attempts
      // claimed for it (1 on an idle machine; a POST slower than WEBHOOK_TIMEOUT_MS under load is a second attempt)
      const got = rx.to('/ok?who=race').map((r) => r.headers['x-webhook-id'] as string);
      expect([...new Set(got)].sort()).toEqual([...ids].sort());
      for (const r of rows) expect(got.filter((id) => id === r.event_id)).toHaveLength(r.attempts);
      // and exactly one successful attempt per event (a double claim would deliver one event twice with a 2xx)
      const ok = (await t.db.query(
        `SELECT event_id, count(*)::int AS n FROM webhook_delivery_attempts WHERE event_id = ANY($1) AND subscription_id = $2 AND status_code BETWEEN 200 AND 299 GROUP BY event_id`,
        [ids, w.id],
      )) as Array<{ event_id: string; n: number }>;
      expect(ok).toHaveLength(30);
      expect(ok.every((x) => x.n === 1)).toBe(true);
    });
  });
});
