/**
 * Issue 10, the parts that run in one process on the test PostgreSQL (the two-instance proof with a streaming
 * replica and Redis is `npm run test:scale`, scripts/test-scale.mjs):
 * - production refuses the development APP_SECRET;
 * - the cache bus: a change through instance A is seen by instance B at its next request (tenant currencies),
 *   NOTIFY only on commit, every instance (publisher too) drops, the listener reconnects and then drops everything;
 * - runExclusive: a job never runs twice at once;
 * - a Redis outage fails open (REDIS_URL on a closed port): 200s with the limit not enforced, never a 500;
 * - replicas that are dead or are not standbys degrade to the primary, never to an error.
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createShopApp } from '../../src/app.js';
import { CacheBus } from '../../src/common/cluster/cache-bus.js';
import { runExclusive } from '../../src/common/cluster/exclusive-job.js';
import { ReadReplicas } from '../../src/database/read-replicas.js';
import { RedisRateLimitStore } from '../../src/common/cluster/redis-rate-limit.store.js';
import { RateLimitStore } from '../../src/common/auth/rate-limit.js';
import { RequestContext } from '../../src/common/context/request-context.js';
import { ConfigError, DEV_SECRET, loadConfig } from '../../src/config/app-config.js';
import { API, createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { freePort } from '../helpers/net.js';
import { sleep, until } from '../helpers/wait.js';
import { fixtureImport } from './catalogue.fixture.js';

// topics of this test only, added to the cache bus's topics the way a module adds its own (declaration merging)
declare module '../../src/common/cluster/cluster-event-map.js' {
  interface ClusterEventMap {
    'scale-test': object;
    'scale-tx': object;
    'scale-reconnect': object;
  }
}

/** A second instance of the service on the same database as `t` (another "process" behind the balancer). */
async function secondInstance(t: TestApp, config: Record<string, string> = {}): Promise<NestExpressApplication> {
  const cfg = loadConfig({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', RATE_LIMIT: 'off', ...config });
  return createShopApp({ config: cfg, databaseUrl: t.databaseUrl });
}

describe('configuration shared by every instance', () => {
  it('refuses the development APP_SECRET under NODE_ENV=production, accepts a private one', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', APP_SECRET: DEV_SECRET })).toThrow(/APP_SECRET must be set/);
    expect(loadConfig({ NODE_ENV: 'production', APP_SECRET: 'a-private-secret-of-the-deployment', SMTP_URL: 'smtp://mail.example:587' }).APP_SECRET).toBe(
      'a-private-secret-of-the-deployment',
    );
    expect(loadConfig({ NODE_ENV: 'development' }).APP_SECRET).toBe(DEV_SECRET);
  });

  it('validates the scale-out variables', () => {
    const c = loadConfig({ DATABASE_REPLICA_URLS: 'postgres://a/b, postgres://c/d', REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(c.DATABASE_REPLICA_URLS).toContain('postgres://c/d');
    expect(c.REPLICA_MAX_LAG_MS).toBe(5000);
    expect(() => loadConfig({ REPLICA_MAX_LAG_MS: 'soon' })).toThrow(/REPLICA_MAX_LAG_MS/);
  });
});

describe('two instances on one database', () => {
  let t: TestApp;
  let b: NestExpressApplication;
  let shop: TestShop;

  beforeAll(async () => {
    t = await createTestApp();
    b = await secondInstance(t);
    shop = await t.createShop();
  });
  afterAll(async () => {
    await b?.close();
    await t?.close();
  });

  const viaB = (path: string) =>
    request(b.getHttpServer())
      .get(API + path)
      .set('Authorization', `Bearer ${shop.storefront_token}`);

  it('a currency published through A is accepted by B at its next request (cache bus, not the 5 s cache age)', async () => {
    // B caches the shop's configuration: EUR is unknown there
    expect((await viaB('/currencies?currency=EUR')).status).toBe(422);
    expect((await viaB('/currencies?currency=EUR')).status).toBe(422);
    const imported = await shop.admin.post('/admin/catalogue/import', fixtureImport());
    expect(imported.status).toBe(200);
    const { ms } = await until('B accepts EUR', async () => (await viaB('/currencies?currency=EUR')).status === 200, 1_000);
    expect(ms).toBeLessThan(1_000);
    // and the storefront catalogue of B answers in EUR
    const products = await viaB('/products?currency=EUR');
    expect(products.status).toBe(200);
    expect(products.body.products.length).toBeGreaterThan(0);
    expect(products.body.products[0].currency).toBe('EUR');
  });

  it("a facet renamed through A shows in B's next facets and products (facet-name snapshot and catalogue cache)", async () => {
    const colorName = async () => {
      const res = await viaB('/products/facets');
      expect(res.status).toBe(200);
      const colors = res.body.facets.find((f: { key: string }) => f.key === 'colors' || f.key === 'color');
      return colors?.values.map((v: { name: string }) => v.name) as string[];
    };
    expect(await colorName()).toContain('Red');
    expect(await colorName()).toContain('Red'); // cached on B now
    const body = fixtureImport() as { facets: { colors: Array<{ key: string; name: unknown }> } };
    body.facets.colors[0].name = { en: 'Crimson', de: 'Rot' };
    expect((await shop.admin.post('/admin/catalogue/import', body)).status).toBe(200);
    const { ms } = await until('B shows Crimson', async () => (await colorName()).includes('Crimson'));
    expect(ms).toBeLessThan(1_000);
  });

  it('a token revoked through A is refused by B within a second, though B had just resolved it (principal cache, cache bus)', async () => {
    const minted = (await shop.admin.post('/admin/access_tokens', { label: 'b-cached', tier: 'admin', scopes: ['Shop/access_tokens/read'] }).expect(201)).body
      .access_token;
    const onB = () =>
      request(b.getHttpServer())
        .get(API + '/admin/access_tokens')
        .set('Authorization', `Bearer ${minted.token}`);
    expect((await onB()).status).toBe(200);
    expect((await onB()).status).toBe(200);
    await shop.admin.delete(`/admin/access_tokens/${minted.id}`).expect(204);
    const { ms } = await until('B refuses the revoked token', async () => (await onB()).status === 401);
    expect(ms).toBeLessThan(1_000);
  });

  it('delivers a topic to every instance, the publisher included, within a second', async () => {
    const seenA: Array<string | null> = [];
    const seenB: Array<string | null> = [];
    t.get(CacheBus).subscribe('scale-test', (id) => seenA.push(id));
    b.get(CacheBus).subscribe('scale-test', (id) => seenB.push(id));
    await t.get(CacheBus).publish('scale-test', shop.tenant.id);
    const { ms } = await until('B hears it', async () => seenB.includes(shop.tenant.id));
    expect(ms).toBeLessThan(1_000);
    // A: at once (local) and again from its own listener
    await until('A hears its own notification', async () => seenA.length >= 2);
    expect(seenA.every((id) => id === shop.tenant.id)).toBe(true);
  });

  it('inside a transaction, the notification leaves at commit and never on rollback', async () => {
    const seenB: Array<string | null> = [];
    b.get(CacheBus).subscribe('scale-tx', (id) => seenB.push(id));
    const ds = t.get(DataSource);
    await expect(
      ds.transaction(async (m) => {
        await t.get(CacheBus).publish('scale-tx', 'rolled-back', m);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    await ds.transaction(async (m) => {
      await t.get(CacheBus).publish('scale-tx', 'committed', m);
      await sleep(300);
      expect(seenB).toEqual([]); // not yet: the transaction is open
    });
    await until('B hears the commit', async () => seenB.includes('committed'));
    await sleep(100);
    expect(seenB).toEqual(['committed']);
  });

  it('the listener reconnects after its connection is killed, and then drops every cache once', async () => {
    const bus = b.get(CacheBus);
    const seen: Array<string | null> = [];
    bus.subscribe('scale-reconnect', (id) => seen.push(id));
    const before = bus.reconnects;
    const killed = await t.db.query(
      `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = 'vinoshop-cache-bus' AND datname = current_database()`,
    );
    expect(killed.length).toBe(2); // one listener per instance
    await until('reconnected', async () => bus.reconnects > before && bus.listening, 5_000);
    expect(seen).toContain(null); // everything dropped after the gap
    await t.get(CacheBus).publish('scale-reconnect', 'after');
    await until('delivered after the reconnect', async () => seen.includes('after'));
  });

  it('runExclusive: a job never runs on two instances at once; the lock goes with the transaction', async () => {
    let inside = 0;
    let maxInside = 0;
    const job = (ds: DataSource) =>
      runExclusive(ds, 'scale-test-job', async () => {
        inside += 1;
        maxInside = Math.max(maxInside, inside);
        await sleep(200);
        inside -= 1;
        return 'done';
      });
    const results = await Promise.all([job(t.get(DataSource)), job(b.get(DataSource)), job(t.get(DataSource))]);
    expect(maxInside).toBe(1);
    expect(results.filter((r) => r.ran)).toHaveLength(1);
    expect((await job(b.get(DataSource))).ran).toBe(true); // free again once the transaction ended
  });
});

describe('Redis outage', () => {
  let t: TestApp;
  let shop: TestShop;

  beforeAll(async () => {
    t = await createTestApp({
      config: { RATE_LIMIT: true, RATE_LIMIT_BURST: 3, RATE_LIMIT_REFILL_PER_SECOND: 1, REDIS_URL: `redis://127.0.0.1:${await freePort()}` },
    });
    shop = await t.createShop();
  });
  afterAll(async () => t?.close());

  it('fails open: requests are answered (never 500 or 429) and counted as not limited', async () => {
    const store = t.app.get<RateLimitStore>(RateLimitStore as never);
    expect(store).toBeInstanceOf(RedisRateLimitStore);
    const started = Date.now();
    for (let i = 0; i < 6; i++) {
      const res = await shop.storefront.get('/currencies');
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('3');
    }
    expect(Date.now() - started).toBeLessThan(3_000); // no waiting on a dead Redis
    expect((store as RedisRateLimitStore).failedOpen).toBeGreaterThanOrEqual(6);
  });
});

describe('replicas that cannot serve', () => {
  it('a dead replica (closed port) and a server that is not a standby degrade to the primary', async () => {
    const t = await createTestApp();
    const dead = `postgres://postgres:postgres@127.0.0.1:${await freePort()}/postgres`;
    const b = await secondInstance(t, { DATABASE_REPLICA_URLS: `${dead},${t.databaseUrl}`, REPLICA_CHECK_MS: '200' });
    try {
      const shop = await t.createShop();
      expect((await shop.admin.post('/admin/catalogue/import', fixtureImport())).status).toBe(200);
      const replicas = b.get(ReadReplicas);
      expect(replicas.enabled).toBe(true);
      const health = replicas.health();
      expect(health.map((h) => h.healthy)).toEqual([false, false]);
      expect(health[1].error).toMatch(/not a standby/);
      for (const path of ['/products', '/products/facets', '/collections']) {
        const res = await request(b.getHttpServer())
          .get(API + path)
          .set('Authorization', `Bearer ${shop.storefront_token}`);
        expect(res.status).toBe(200);
      }
      expect(replicas.stats.replica).toBe(0);
      expect(replicas.stats.primary).toBeGreaterThanOrEqual(3); // the storefront catalogue routes asked, got the primary
      // the service API: no healthy replica, so the work runs on the primary (no replica manager bound)
      const manager = await replicas.read(RequestContext.forTenant(shop.tenant.id), async (c) => c.manager);
      expect(manager).toBeNull();
      expect(replicas.stats.replica).toBe(0);
      expect(replicas.stats.primary).toBeGreaterThanOrEqual(1);
    } finally {
      await b.close();
      await t.close();
    }
  });
});
