import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { MemoryRateLimitStore } from '../../src/common/auth/rate-limit.js';
import { trustProxySetting } from '../../src/common/http/client-errors.js';
import { ConfigError, loadConfig } from '../../src/config/app-config.js';
import { LogMailTransport, MemoryMailTransport } from '../../src/customers/mail/mail-transport.js';
import { MailTransportOverrideModule } from '../../src/customers/mail/mail.module.js';
import { CleanupService } from '../../src/maintenance/cleanup.service.js';
import { API, createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';
import { register, signIn } from './customers.helpers.js';

/** Issue 13 on the admin tier and across the service: one test (at least) per numbered item. */

const PRODUCTION = { NODE_ENV: 'production', APP_SECRET: 'a-private-secret-of-the-deployment', SMTP_URL: 'smtp://mail.example:587' };

function listen(t: TestApp): Promise<number> {
  return new Promise((resolve) => {
    const server = t.server as Server;
    if (server.listening) return resolve((server.address() as AddressInfo).port);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

describe('security (admin and service-wide)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let mail: MemoryMailTransport;

  beforeAll(async () => {
    mail = new MemoryMailTransport();
    t = await createTestApp({
      config: { WEBHOOK_ALLOW_PRIVATE_TARGETS: false, WEBHOOK_POLL_MS: 50, WEBHOOK_TIMEOUT_MS: 500 },
      imports: [MailTransportOverrideModule.use(mail)],
    });
    shop = await t.createShop();
    other = await t.createShop();
  });
  afterAll(() => t.close());

  describe('3. webhooks cannot probe the internal network', () => {
    it.each([
      ['loopback', 'http://127.0.0.1:8080/hook'],
      ['loopback by name', 'http://localhost/hook'],
      ['loopback IPv6', 'http://[::1]/hook'],
      ['private 10/8', 'http://10.1.2.3/hook'],
      ['private 172.16/12', 'http://172.16.5.4/hook'],
      ['private 192.168/16', 'https://192.168.1.10/hook'],
      ['link-local (cloud metadata)', 'http://169.254.169.254/latest/meta-data/'],
      ['CGNAT', 'http://100.64.0.1/hook'],
      ['unique-local IPv6', 'http://[fd00::1]/hook'],
      ['unspecified', 'http://0.0.0.0/hook'],
      ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/hook'],
    ])('refuses a %s address with 422 at creation and on update', async (_name, address) => {
      const res = await shop.admin.post('/admin/webhooks', { topic: 'order.placed', address }).expect(422);
      expect(res.body).toEqual({ errors: expect.stringContaining('address'), code: 'webhook_address_not_allowed' });
      const ok = (
        await shop.admin
          .post('/admin/webhooks', { topic: 'collection.created', address: `https://93.184.216.34/${randomBytes(4).toString('hex')}` })
          .expect(201)
      ).body.webhook;
      await shop.admin.put(`/admin/webhooks/${ok.id}`, { address }).expect(422);
      expect((await shop.admin.get(`/admin/webhooks/${ok.id}`).expect(200)).body.webhook.address).toBe(ok.address);
      await shop.admin.delete(`/admin/webhooks/${ok.id}`).expect(204);
    });

    it('checks again at delivery: an internal target stored earlier is never contacted, and the log says "connection failed"', async () => {
      let hits = 0;
      const receiver = createServer((_req, res) => {
        hits += 1;
        res.end('ok');
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
      const port = (receiver.address() as AddressInfo).port;
      try {
        const hook = (await shop.admin.post('/admin/webhooks', { topic: 'collection.created', address: 'https://93.184.216.34/later-internal' }).expect(201))
          .body.webhook;
        // as if DNS now pointed the host inside (or the row predates the check)
        await t.db.query(`UPDATE webhook_subscriptions SET address = $2 WHERE id = $1`, [hook.id, `http://127.0.0.1:${port}/hook`]);
        await shop.admin.post('/admin/collections', { title: 'Trigger' }).expect(201);
        const log = await waitFor(
          async () => (await shop.admin.get(`/admin/webhooks/${hook.id}/deliveries`).expect(200)).body.deliveries as Array<{ error: string | null }>,
          (rows) => rows.length > 0,
        );
        expect(log[0].error).toMatch(/^connection failed/);
        // by name too: the name is resolved once, checked, and never connected to
        const named = (await shop.admin.post('/admin/webhooks', { topic: 'collection.created', address: 'https://93.184.216.34/later-named' }).expect(201)).body
          .webhook;
        await t.db.query(`UPDATE webhook_subscriptions SET address = $2 WHERE id = $1`, [named.id, `http://localhost:${port}/named`]);
        await shop.admin.post('/admin/collections', { title: 'Trigger 2' }).expect(201);
        const log2 = await waitFor(
          async () => (await shop.admin.get(`/admin/webhooks/${named.id}/deliveries`).expect(200)).body.deliveries as Array<{ error: string | null }>,
          (rows) => rows.length > 0,
        );
        expect(log2[0].error).toMatch(/^connection failed/);
        expect(hits).toBe(0);
      } finally {
        await new Promise((r) => receiver.close(r));
      }
    });
  });

  describe('4. no work before authentication', () => {
    it('answers an anonymous 50 MB import with 401 while the upload is still going', async () => {
      const port = await listen(t);
      const total = 50 * 1024 * 1024;
      const result = await new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
        let sent = 0;
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: `${API}/admin/catalogue/import`,
            headers: { 'Content-Type': 'application/json', 'Content-Length': String(total) },
          },
          (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => {
              req.destroy();
              resolve({ status: res.statusCode ?? 0, body, sent });
            });
          },
        );
        req.on('error', (err) => (sent < total ? undefined : reject(err)));
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        req.write('{"products":[');
        sent += 13;
        // a slow uploader: one 64 KB chunk every 20 ms would need minutes for 50 MB
        const timer = setInterval(() => {
          if (req.destroyed) return clearInterval(timer);
          req.write(chunk);
          sent += chunk.length;
        }, 20);
        req.on('close', () => clearInterval(timer));
      });
      expect(result.status).toBe(401);
      expect(JSON.parse(result.body)).toEqual({ errors: expect.any(String) });
      expect(result.sent).toBeLessThan(total / 10);
    });

    it('keeps 1 MB as the limit outside the import (with a valid token)', async () => {
      const big = { title: 'x'.repeat(1024 * 1024 + 10) };
      const res = await shop.admin.post('/admin/collections', big).expect(413);
      expect(res.body).toEqual({ errors: expect.any(String) });
    });
  });

  describe('6. secrets at rest', () => {
    it('stores no plaintext token, webhook secret or one-time code anywhere, idempotency store included; replays still answer', async () => {
      const key1 = `mint-${randomBytes(6).toString('hex')}`;
      const minted = (
        await shop.admin
          .post('/admin/access_tokens', { label: 'erp', tier: 'admin', scopes: ['Shop/collections/read'] })
          .set('Idempotency-Key', key1)
          .expect(201)
      ).body.access_token;
      const again = (
        await shop.admin
          .post('/admin/access_tokens', { label: 'erp', tier: 'admin', scopes: ['Shop/collections/read'] })
          .set('Idempotency-Key', key1)
          .expect(201)
      ).body.access_token;
      expect(again.token).toBe(minted.token);
      const key2 = `hook-${randomBytes(6).toString('hex')}`;
      const hook = (
        await shop.admin
          .post('/admin/webhooks', { topic: 'order.placed', address: 'https://93.184.216.34/secret-test' })
          .set('Idempotency-Key', key2)
          .expect(201)
      ).body.webhook;
      expect(hook.secret).toEqual(expect.any(String));
      const visitor = t.client(shop.storefront_token);
      await register(visitor, 'secrets@example.com');
      const code = (await mail.take('confirm_email', 'secrets@example.com')).data!.token;
      const shopper = await signIn(t, visitor, 'secrets@example.com');

      const secrets = {
        admin_token: minted.token,
        webhook_secret: hook.secret,
        one_time_code: code,
        shopper_token: shopper.token,
        provisioned_token: shop.admin_token,
      };
      const columns: Array<{ table_name: string; column_name: string; data_type: string }> = await t.db.query(
        `SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c JOIN information_schema.tables x ON x.table_name = c.table_name AND x.table_schema = c.table_schema
          WHERE c.table_schema = 'public' AND x.table_type = 'BASE TABLE' AND c.data_type IN ('text', 'character varying', 'jsonb', 'json', 'bytea', 'ARRAY')`,
      );
      expect(columns.length).toBeGreaterThan(20);
      const found: string[] = [];
      for (const col of columns) {
        for (const [name, secret] of Object.entries(secrets)) {
          const expr =
            col.data_type === 'bytea' ? `position(convert_to($1, 'UTF8') in "${col.column_name}") > 0` : `strpos("${col.column_name}"::text, $1) > 0`;
          const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM "${col.table_name}" WHERE ${expr}`, [secret]);
          if (n > 0) found.push(`${name} in ${col.table_name}.${col.column_name}`);
        }
      }
      expect(found).toEqual([]);
      const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM idempotency_keys WHERE key IN ($1, $2) AND state = 'done'`, [key1, key2]);
      expect(n).toBe(2);
    });
  });

  describe('7. codes never reach a production log', () => {
    it('refuses to start in production without SMTP_URL, with a clear message', () => {
      const { SMTP_URL: _smtp, ...withoutSmtp } = PRODUCTION;
      expect(() => loadConfig(withoutSmtp)).toThrow(ConfigError);
      expect(() => loadConfig(withoutSmtp)).toThrow(/SMTP_URL must be set when NODE_ENV=production/);
      expect(loadConfig(PRODUCTION).SMTP_URL).toBe(PRODUCTION.SMTP_URL);
      expect(() => loadConfig({ ...PRODUCTION, PAYMENT_TEST_PROVIDER: 'on' })).toThrow(/PAYMENT_TEST_PROVIDER/);
    });

    it('the log transport prints neither the code nor a link holding it in production', async () => {
      const lines: string[] = [];
      const message = {
        to: 'a@example.com',
        subject: 'Reset',
        kind: 'reset_password',
        text: 'Your code: vnsrst_SECRETCODE https://shop.example/reset?token=vnsrst_SECRETCODE',
        data: { token: 'vnsrst_SECRETCODE' },
      };
      await new LogMailTransport(true, (entry, msg) => lines.push(JSON.stringify(entry) + msg)).send(message);
      expect(lines).toHaveLength(1);
      expect(lines[0]).not.toContain('SECRETCODE');
      expect(lines[0]).toContain('reset_password');
      const dev: string[] = [];
      await new LogMailTransport(false, (entry) => dev.push(JSON.stringify(entry))).send(message);
      expect(dev[0]).toContain('SECRETCODE');
    });
  });

  describe('8. no token escalation', () => {
    it('mints only scopes the minting token holds, intersected with its issuer live permissions', async () => {
      const narrow = (
        await shop.admin
          .post('/admin/access_tokens', { label: 'minter', tier: 'admin', scopes: ['Shop/access_tokens/write', 'Shop/collections/read'] })
          .expect(201)
      ).body.access_token;
      const minter = t.client(narrow.token);
      const count = async () => (await t.db.query(`SELECT count(*)::int AS n FROM access_tokens WHERE tenant_id = $1`, [shop.tenant.id]))[0].n as number;
      const before = await count();
      const res = await minter
        .post('/admin/access_tokens', { label: 'up', tier: 'admin', scopes: ['Shop/collections/read', 'Shop/customers/write'] })
        .expect(403);
      expect(res.body.errors).toContain('Shop/customers/write');
      await minter.post('/admin/access_tokens', { label: 'self', tier: 'admin', scopes: ['Shop/access_tokens/write'] }).expect(201);
      await minter.post('/admin/access_tokens', { label: 'same', tier: 'admin', scopes: ['Shop/collections/read'] }).expect(201);
      expect(await count()).toBe(before + 2);
    });
  });

  describe('10. cursors stay in their shop', () => {
    it("answers 422 to another tenant's page_info on the same list", async () => {
      for (const s of [shop, other]) for (let i = 0; i < 2; i++) await s.admin.post('/admin/collections', { title: `Cursor ${i}` }).expect(201);
      const first = await shop.admin.get('/admin/collections?limit=1').expect(200);
      const pageInfo = new URL(/<([^>]+)>/.exec(first.headers.link)![1]).searchParams.get('page_info')!;
      await shop.admin.get(`/admin/collections?limit=1&page_info=${encodeURIComponent(pageInfo)}`).expect(200);
      const res = await other.admin.get(`/admin/collections?limit=1&page_info=${encodeURIComponent(pageInfo)}`).expect(422);
      expect(res.body).toEqual({ errors: expect.any(String) });
    });
  });

  describe('token lookups', () => {
    it('use the plain token_hash index with 10,000 tokens present (access, shopper and one-time tokens)', async () => {
      const [staff] = await t.db.query(`SELECT id FROM staff_users WHERE tenant_id = $1 LIMIT 1`, [shop.tenant.id]);
      const [customer] = await t.db.query(`SELECT id FROM customers WHERE tenant_id = $1 LIMIT 1`, [shop.tenant.id]);
      await t.db.query(
        `INSERT INTO access_tokens (tenant_id, issuer_id, tier, prefix, label, scopes, token_hash)
         SELECT $1, $2, 'admin', 'vnstat', 'bulk', ARRAY['Shop/themes/read'], decode(md5('a' || g), 'hex') FROM generate_series(1, 10000) g`,
        [shop.tenant.id, staff.id],
      );
      await t.db.query(
        `INSERT INTO customer_tokens (tenant_id, customer_id, token_hash, expires_at) SELECT $1, $2, decode(md5('c' || g), 'hex'), now() + interval '1 day' FROM generate_series(1, 10000) g`,
        [shop.tenant.id, customer.id],
      );
      await t.db.query(
        `INSERT INTO customer_one_time_tokens (tenant_id, customer_id, purpose, token_hash, expires_at)
         SELECT $1, $2, 'reset_password', decode(md5('o' || g), 'hex'), now() + interval '1 day' FROM generate_series(1, 10000) g`,
        [shop.tenant.id, customer.id],
      );
      for (const table of ['access_tokens', 'customer_tokens', 'customer_one_time_tokens']) {
        await t.db.query(`ANALYZE ${table}`);
        const plan: Array<{ 'QUERY PLAN': string }> = await t.db.query(`EXPLAIN SELECT id FROM ${table} WHERE token_hash = $1`, [randomBytes(32)]);
        expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toContain(`${table}_token_hash_idx`);
      }
      // and the lookup the guard runs still answers
      await shop.admin.get('/admin/access_tokens').expect(200);
    });
  });

  describe('cleanup', () => {
    it('removes expired shopper tokens and codes, old idempotency keys, old events and attempts, stale anonymous carts; keeps the rest', async () => {
      const tenant = other.tenant.id;
      const [customer] = await t.db.query(
        `INSERT INTO customers (tenant_id, email, is_active, is_email_confirmed, type) VALUES ($1, 'cleanup@example.com', true, true, 'customer') RETURNING id`,
        [tenant],
      );
      const ins = async (sql: string, params: unknown[]) => (await t.db.query(`${sql} RETURNING id`, params))[0].id as string;
      const oldToken = await ins(
        `INSERT INTO customer_tokens (tenant_id, customer_id, token_hash, expires_at) VALUES ($1, $2, $3, now() - interval '1 hour')`,
        [tenant, customer.id, randomBytes(32)],
      );
      const liveToken = await ins(
        `INSERT INTO customer_tokens (tenant_id, customer_id, token_hash, expires_at) VALUES ($1, $2, $3, now() + interval '1 day')`,
        [tenant, customer.id, randomBytes(32)],
      );
      const oldCode = await ins(
        `INSERT INTO customer_one_time_tokens (tenant_id, customer_id, purpose, token_hash, expires_at) VALUES ($1, $2, 'reset_password', $3, now() - interval '1 hour')`,
        [tenant, customer.id, randomBytes(32)],
      );
      await t.db.query(
        `INSERT INTO idempotency_keys (tenant_id, caller, key, request_hash, state, created_at) VALUES ($1, 'token:x', 'old', 'h', 'done', now() - interval '25 hours'), ($1, 'token:x', 'new', 'h', 'done', now())`,
        [tenant],
      );
      const oldEvent = await ins(
        `INSERT INTO outbox_events (tenant_id, topic, payload, occurred_at) VALUES ($1, 'collection.created', '{}', now() - interval '31 days')`,
        [tenant],
      );
      const newEvent = await ins(`INSERT INTO outbox_events (tenant_id, topic, payload) VALUES ($1, 'collection.created', '{}')`, [tenant]);
      const sub = await ins(
        `INSERT INTO webhook_subscriptions (tenant_id, topic, address, secret_box, is_active) VALUES ($1, 'order.paid', 'https://93.184.216.34/c', '\\x00', false)`,
        [tenant],
      );
      const pendingOld = await ins(
        `INSERT INTO outbox_events (tenant_id, topic, payload, occurred_at) VALUES ($1, 'order.paid', '{}', now() - interval '31 days')`,
        [tenant],
      );
      await t.db.query(`INSERT INTO webhook_deliveries (tenant_id, event_id, subscription_id, topic, status) VALUES ($1, $2, $3, 'order.paid', 'pending')`, [
        tenant,
        pendingOld,
        sub,
      ]);
      const delivery = await ins(
        `INSERT INTO webhook_deliveries (tenant_id, event_id, subscription_id, topic, status) VALUES ($1, $2, $3, 'order.paid', 'delivered')`,
        [tenant, newEvent, sub],
      );
      const oldAttempt = await ins(
        `INSERT INTO webhook_delivery_attempts (tenant_id, delivery_id, subscription_id, event_id, topic, attempt, duration_ms, created_at) VALUES ($1, $2, $3, $4, 'order.paid', 1, 5, now() - interval '31 days')`,
        [tenant, delivery, sub, newEvent],
      );
      const staleCart = await ins(
        `INSERT INTO carts (tenant_id, visitor_id, created_at, updated_at) VALUES ($1, 'stale-visitor', now() - interval '100 days', now() - interval '91 days')`,
        [tenant],
      );
      const freshCart = await ins(`INSERT INTO carts (tenant_id, visitor_id, created_at) VALUES ($1, 'fresh-visitor', now() - interval '100 days')`, [tenant]);
      await t.db.query(`UPDATE carts SET updated_at = now() WHERE id = $1`, [freshCart]);

      const deleted = await t.get(CleanupService).runOnce();
      expect(deleted).toMatchObject({
        customer_tokens: 1,
        customer_one_time_tokens: 1,
        idempotency_keys: 1,
        webhook_delivery_attempts: 1,
        outbox_events: 1,
        anonymous_carts: 1,
      });
      const exists = async (table: string, id: string) => (await t.db.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id])).length > 0;
      expect(await exists('customer_tokens', oldToken)).toBe(false);
      expect(await exists('customer_tokens', liveToken)).toBe(true);
      expect(await exists('customer_one_time_tokens', oldCode)).toBe(false);
      expect(await exists('outbox_events', oldEvent)).toBe(false);
      expect(await exists('outbox_events', pendingOld)).toBe(true);
      expect(await exists('outbox_events', newEvent)).toBe(true);
      expect(await exists('webhook_delivery_attempts', oldAttempt)).toBe(false);
      expect(await exists('carts', staleCart)).toBe(false);
      expect(await exists('carts', freshCart)).toBe(true);
      const keys = (await t.db.query(`SELECT key FROM idempotency_keys WHERE tenant_id = $1`, [tenant])).map((r: { key: string }) => r.key);
      expect(keys).toEqual(['new']);
    });
  });

  describe('hostile HTTP framing', () => {
    it('answers an over-long header or query string with 431 and the error envelope', async () => {
      const port = await listen(t);
      const raw = (head: string) =>
        new Promise<string>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1', () => socket.write(head));
          let data = '';
          socket.on('data', (c) => (data += c.toString()));
          socket.on('end', () => resolve(data));
          socket.on('error', reject);
        });
      const longHeader = await raw(`GET ${API}/products HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`);
      expect(longHeader).toMatch(/^HTTP\/1\.1 431 /);
      expect(JSON.parse(longHeader.split('\r\n\r\n')[1])).toEqual({ errors: expect.any(String), code: 'headers_too_large' });
      const longQuery = await raw(`GET ${API}/products?q=${'b'.repeat(40_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(longQuery).toMatch(/^HTTP\/1\.1 (431|414) /);
      expect(JSON.parse(longQuery.split('\r\n\r\n')[1]).errors).toEqual(expect.any(String));
    });
  });
});

describe('security: rate limits and client IPs', () => {
  it('2. a thousand made-up credentials share their IP bucket; a verified token keeps its own; X-Service-Access-Token counts on admin paths only', async () => {
    const t = await createTestApp({ config: { RATE_LIMIT: true, RATE_LIMIT_BURST: 20, RATE_LIMIT_REFILL_PER_SECOND: 1, TRUST_PROXY: '10.0.0.0/8' } });
    try {
      const shop = await t.createShop();
      const statuses: number[] = [];
      for (let batch = 0; batch < 20; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 50 }, (_, i) => {
            const fake = `vnstat_${randomBytes(30).toString('base64url')}`;
            const req = t.http().get(`${API}/admin/access_tokens`);
            return (i % 2 === 0 ? req.set('Authorization', `Bearer ${fake}`) : req.set('X-Service-Access-Token', fake)).then((r) => r.status);
          }),
        );
        statuses.push(...answers);
      }
      expect(statuses).toHaveLength(1000);
      // the burst (20) plus what refilled while the thousand ran (1 per second)
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(60);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(940);
      // the verified token has its bucket of its own
      const ok = await shop.admin.get('/admin/access_tokens').expect(200);
      expect(Number(ok.headers['x-ratelimit-remaining'])).toBeGreaterThanOrEqual(18);
      // forged X-Forwarded-For from an untrusted peer changes nothing, and on the storefront X-Service-Access-Token is
      // not a credential (a real admin token there opens no bucket): all of these share the drained IP bucket
      const more = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          i % 2 === 0
            ? t.http().get(`${API}/products`).set('Authorization', `Bearer ${shop.storefront_token}x`).set('X-Forwarded-For', `203.0.113.${i}`)
            : t.http().get(`${API}/products`).set('X-Service-Access-Token', shop.admin_token).set('X-Forwarded-For', `198.51.100.${i}`),
        ),
      );
      // only what refilled meanwhile (1 per second) gets through
      expect(more.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(30);
    } finally {
      await t.close();
    }
  });

  it('2. the in-process bucket store stays bounded', async () => {
    const store = new MemoryRateLimitStore(1000);
    for (let i = 0; i < 5000; i++) await store.take(`k${i}`, 5, 1);
    expect(store.size).toBe(1000);
    store.onModuleDestroy();
  });

  it('5. TRUST_PROXY is a hop count or CIDRs, never every hop; forwarded IPs count only through trusted hops', async () => {
    expect(trustProxySetting('')).toBe(false);
    expect(trustProxySetting('1')).toBe(1);
    expect(trustProxySetting('10.0.0.0/8, 127.0.0.1')).toEqual(['10.0.0.0/8', '127.0.0.1']);
    for (const bad of ['true', 'on', '*', 'yes']) expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);

    const t = await createTestApp({ config: { RATE_LIMIT: true, RATE_LIMIT_BURST: 3, RATE_LIMIT_REFILL_PER_SECOND: 1, TRUST_PROXY: '1' } });
    try {
      await t.createShop();
      // one trusted hop (the test client plays the proxy): each forwarded client has its own bucket
      for (let i = 0; i < 10; i++) {
        const res = await t.http().get(`${API}/products`).set('X-Forwarded-For', `203.0.113.${i}`);
        expect(res.status).toBeLessThan(429);
      }
      // a client forging a longer chain is still keyed by the address the trusted proxy saw (the last hop)
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await t.http().get(`${API}/products`).set('X-Forwarded-For', `198.51.100.${i}, 192.0.2.77`)).status);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    } finally {
      await t.close();
    }
  });

  it('3. delivery errors are "connection failed", not the OS text (private targets allowed for this app)', async () => {
    const t = await createTestApp({ config: { WEBHOOK_POLL_MS: 50, WEBHOOK_TIMEOUT_MS: 500 } });
    try {
      const shop = await t.createShop();
      const closed = createServer();
      await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((r) => closed.close(r));
      const hook = (await shop.admin.post('/admin/webhooks', { topic: 'collection.created', address: `http://127.0.0.1:${port}/gone` }).expect(201)).body
        .webhook;
      await shop.admin.post('/admin/collections', { title: 'x' }).expect(201);
      const log = await waitFor(
        async () => (await shop.admin.get(`/admin/webhooks/${hook.id}/deliveries`).expect(200)).body.deliveries as Array<{ error: string | null }>,
        (rows) => rows.length > 0,
      );
      expect(log[0].error).toBe('connection failed');
    } finally {
      await t.close();
    }
  });
});
