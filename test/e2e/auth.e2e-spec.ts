import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AUTH_CACHE_TOPIC, AuthService } from '../../src/auth/auth.service.js';
import { CacheBus } from '../../src/common/cluster/cache-bus.js';
import { RequestContext } from '../../src/common/context/request-context.js';
import { Currency } from '../../src/tenancy/entities/currency.entity.js';
import { TenancyService } from '../../src/tenancy/tenancy.service.js';
import { API, createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

describe('authentication and authorisation (CONTRACT 3)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop({ domain: 'wine.example.test' });
    other = await t.createShop();
  });
  afterAll(() => t.close());

  describe('admin tier', () => {
    it.each([
      ['no token', {}],
      ['a malformed Authorization header', { Authorization: 'Basic dXNlcjpwYXNz' }],
      ['an empty bearer', { Authorization: 'Bearer ' }],
      ['an unknown token', { Authorization: 'Bearer vnstat_000000000000000000000000000000000000' }],
      ['garbage', { Authorization: 'Bearer not-a-token' }],
    ])('answers %s with 401 and the envelope', async (_name, headers) => {
      const res = await t.http().get(`${API}/admin/access_tokens`).set(headers).expect(401);
      expect(res.body).toEqual({ errors: expect.any(String) });
    });

    it('refuses a storefront token on the admin tier with 401', async () => {
      await t.http().get(`${API}/admin/access_tokens`).set('Authorization', `Bearer ${shop.storefront_token}`).expect(401);
    });

    it('accepts the admin token in X-Service-Access-Token', async () => {
      const res = await t.http().get(`${API}/admin/access_tokens`).set('X-Service-Access-Token', shop.admin_token).expect(200);
      expect(res.body.access_tokens.length).toBeGreaterThan(0);
    });

    it('answers a valid token without the scope with 403 (write does not imply read)', async () => {
      const minted = (await shop.admin.post('/admin/access_tokens', { label: 'w', tier: 'admin', scopes: ['Shop/access_tokens/write'] }).expect(201)).body
        .access_token;
      const res = await t.client(minted.token).get('/admin/access_tokens').expect(403);
      expect(res.body).toEqual({ errors: expect.stringContaining('Shop/access_tokens/read') });
      // it may mint, but only within its own scopes (issue 13: no escalation)
      await t
        .client(minted.token)
        .post('/admin/access_tokens', { label: 'ok', tier: 'admin', scopes: ['Shop/access_tokens/write'] })
        .expect(201);
      await t
        .client(minted.token)
        .post('/admin/access_tokens', { label: 'up', tier: 'admin', scopes: ['Shop/themes/read'] })
        .expect(403);
    });

    it("narrows a token to its issuer's live permissions at every request", async () => {
      const auth = t.get(AuthService);
      const ctx = RequestContext.forTenant(shop.tenant.id);
      const staff = await auth.createStaff(ctx, { email: 'clerk@example.test', permissions: ['Shop/access_tokens/read', 'Shop/access_tokens/write'] });
      const minted = await auth.mint(ctx, staff.id, { label: 'clerk', tier: 'admin', scopes: ['Shop/access_tokens/read', 'Shop/access_tokens/write'] });
      const clerk = t.client(minted.token);
      await clerk.get('/admin/access_tokens').expect(200);
      await auth.setPermissions(ctx, 'clerk@example.test', ['Shop/access_tokens/write']);
      await clerk.get('/admin/access_tokens').expect(403);
      // a token cannot mint what its issuer no longer holds; a token it minted has the same issuer, so it is narrowed too
      await clerk.post('/admin/access_tokens', { label: 'child', tier: 'admin', scopes: ['Shop/access_tokens/read'] }).expect(403);
      await auth.setPermissions(ctx, 'clerk@example.test', ['Shop/access_tokens/read', 'Shop/access_tokens/write']);
      const child = (await clerk.post('/admin/access_tokens', { label: 'child', tier: 'admin', scopes: ['Shop/access_tokens/read'] }).expect(201)).body
        .access_token;
      await auth.setPermissions(ctx, 'clerk@example.test', ['Shop/access_tokens/write']);
      await t.client(child.token).get('/admin/access_tokens').expect(403);
      await auth.setPermissions(ctx, 'clerk@example.test', ['Shop/access_tokens/read', 'Shop/access_tokens/write']);
      await clerk.get('/admin/access_tokens').expect(200);
      await t.client(child.token).get('/admin/access_tokens').expect(200);
    });

    it('reuses a resolved staff token while the cache bus listens, and a lookup racing a revocation stores nothing', async () => {
      const auth = t.get(AuthService);
      const bus = t.get(CacheBus);
      // notifications of topic auth coming back through the listener (each drops the tenant's resolved tokens again)
      const echoes: Array<string | null> = [];
      bus.subscribe(AUTH_CACHE_TOPIC, (id, message) => {
        if (message) echoes.push(id);
      });
      // the bus sends on one connection, so once a marker comes back every earlier notification has (setPermissions above)
      const settle = async () => {
        const marker = `settled-${echoes.length}-${Date.now()}`;
        await bus.publish(AUTH_CACHE_TOPIC, marker);
        await until('earlier auth notifications came back', async () => echoes.includes(marker), 5_000);
      };
      const minted = (await shop.admin.post('/admin/access_tokens', { label: 'cached', tier: 'admin', scopes: ['Shop/access_tokens/read'] }).expect(201)).body
        .access_token;
      await settle();
      const first = await auth.resolve(minted.token);
      expect(first).toMatchObject({ kind: 'access_token', tokenId: minted.id, tenantId: shop.tenant.id });
      // the same principal, not a second database lookup (frozen: no request can change what another one sees)
      expect(await auth.resolve(minted.token)).toBe(first);
      expect(Object.isFrozen(first)).toBe(true);
      // a lookup that began before a drop does not store what it read
      await bus.publish(AUTH_CACHE_TOPIC, shop.tenant.id);
      const racing = auth.resolve(minted.token);
      await bus.publish(AUTH_CACHE_TOPIC, shop.tenant.id);
      const raced = await racing;
      expect(raced).not.toBe(first);
      expect(raced).toEqual(first);
      expect(await auth.resolve(minted.token)).not.toBe(raced);
      await settle();
      const after = await auth.resolve(minted.token);
      expect(after).not.toBe(raced);
      expect(await auth.resolve(minted.token)).toBe(after);
      // a revocation drops it at once
      await shop.admin.delete(`/admin/access_tokens/${minted.id}`).expect(204);
      expect(await auth.resolve(minted.token)).toBeNull();
    });

    it('a revocation, permission change or staff deletion made outside the API (plain SQL) reaches the resolved tokens within a second', async () => {
      const auth = t.get(AuthService);
      const ctx = RequestContext.forTenant(shop.tenant.id);
      const staff = await auth.createStaff(ctx, { email: 'sql@example.test', permissions: ['Shop/access_tokens/read'] });
      const minted = await auth.mint(ctx, staff.id, { label: 'sql', tier: 'admin', scopes: ['Shop/access_tokens/read'] });
      const client = t.client(minted.token);
      await client.get('/admin/access_tokens').expect(200);
      // the database notifies every instance at commit, whatever made the change
      await t.db.query(`UPDATE staff_users SET permissions = '{}' WHERE id = $1`, [staff.id]);
      await until('the permission change is heard', async () => (await client.get('/admin/access_tokens')).status === 403, 1_000);
      await t.db.query(`UPDATE staff_users SET permissions = '{Shop/access_tokens/read}' WHERE id = $1`, [staff.id]);
      await until('the permission change back is heard', async () => (await client.get('/admin/access_tokens')).status === 200, 1_000);
      await t.db.query(`UPDATE access_tokens SET revoked_at = now() WHERE id = $1`, [minted.id]);
      await until('the revocation is heard', async () => (await client.get('/admin/access_tokens')).status === 401, 1_000);
      // a token of a deleted staff user
      const again = await auth.mint(ctx, staff.id, { label: 'sql 2', tier: 'admin', scopes: ['Shop/access_tokens/read'] });
      await t.client(again.token).get('/admin/access_tokens').expect(200);
      await t.db.query(`DELETE FROM staff_users WHERE id = $1`, [staff.id]);
      await until('the deletion is heard', async () => (await t.client(again.token).get('/admin/access_tokens')).status === 401, 1_000);
    });

    it("never lets one shop's token see another's tokens", async () => {
      const mine = (await shop.admin.get('/admin/access_tokens')).body.access_tokens.map((r: { id: string }) => r.id);
      const theirs = (await other.admin.get('/admin/access_tokens')).body.access_tokens.map((r: { id: string }) => r.id);
      expect(mine.filter((id: string) => theirs.includes(id))).toEqual([]);
    });
  });

  describe('storefront tier', () => {
    it('identifies the shop by its storefront token', async () => {
      const res = await shop.storefront.get('/currencies').expect(200);
      expect(res.body.currencies).toEqual([{ id: expect.any(String), code: 'CHF', name: 'CHF', symbol: 'CHF', is_default: true }]);
    });

    it('identifies the shop by Host when no token is sent', async () => {
      await t.http().get(`${API}/currencies`).set('Host', 'wine.example.test').expect(200);
      await t.http().get(`${API}/currencies`).set('Host', 'WINE.example.test:8080').expect(200);
    });

    it('answers 401 when no token and several shops exist and the Host names none', async () => {
      const res = await t.http().get(`${API}/currencies`).set('Host', 'unknown.example.test').expect(401);
      expect(res.body).toEqual({ errors: expect.any(String) });
    });

    it('answers an unknown or revoked storefront token with 401, never as anonymous', async () => {
      await t.client('vnstss_000000000000000000000000000000000000').get('/currencies').expect(401);
    });

    it('refuses an admin token on the storefront tier with 401', async () => {
      await t.client(shop.admin_token).get('/currencies').expect(401);
    });

    it('answers a storefront token without the capability with 403', async () => {
      const minted = (await shop.admin.post('/admin/access_tokens', { label: 'cart only', tier: 'storefront', scopes: ['storefront/cart'] }).expect(201)).body
        .access_token;
      await t.client(minted.token).get('/currencies').expect(403);
    });

    it('sets the visitor_id cookie once: HttpOnly, SameSite=Lax, Path=/, one year', async () => {
      const first = await t.http().get(`${API}/currencies`).set('Authorization', `Bearer ${shop.storefront_token}`).expect(200);
      const cookie = (first.headers['set-cookie'] as unknown as string[] | undefined)?.find((c) => c.startsWith('visitor_id='));
      expect(cookie).toBeDefined();
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      expect(cookie).toMatch(/Path=\//);
      expect(cookie).toMatch(/Max-Age=31536000/);
      const value = decodeURIComponent(cookie!.split(';')[0].split('=')[1]);
      expect(value.length).toBeGreaterThanOrEqual(32);
      const again = await t
        .http()
        .get(`${API}/currencies`)
        .set('Authorization', `Bearer ${shop.storefront_token}`)
        .set('Cookie', cookie!.split(';')[0])
        .expect(200);
      expect(again.headers['set-cookie']).toBeUndefined();
    });

    it('picks the language from locale, then Accept-Language, else the default', async () => {
      await t.get(TenancyService).updateSettings(t.db.manager, shop.tenant.id, { languages: ['en', 'de', 'fr'], default_language: 'en' });
      const h = (r: { headers: Record<string, string> }) => r.headers['content-language'];
      expect(h(await shop.storefront.get('/currencies?locale=de'))).toBe('de');
      expect(h(await shop.storefront.get('/currencies').set('Accept-Language', 'it;q=0.9, fr-CH, de;q=0.5'))).toBe('fr');
      expect(h(await shop.storefront.get('/currencies?locale=ja'))).toBe('en');
      expect(h(await shop.storefront.get('/currencies'))).toBe('en');
    });

    it('accepts a published currency parameter and refuses an unpublished one with 422', async () => {
      const repo = t.db.getRepository(Currency);
      await repo.save(
        repo.create({
          tenantId: shop.tenant.id,
          key: 'EUR',
          code: 'EUR',
          name: 'Euro',
          symbol: '€',
          rate: '1.06',
          precision: 2,
          published: true,
          isDefault: false,
        }),
      );
      await repo.save(
        repo.create({
          tenantId: shop.tenant.id,
          key: 'USD',
          code: 'USD',
          name: 'Dollar',
          symbol: '$',
          rate: '1.1',
          precision: 2,
          published: false,
          isDefault: false,
        }),
      );
      t.get(TenancyService).invalidate(shop.tenant.id);
      const list = await shop.storefront.get('/currencies?currency=eur').expect(200);
      expect(list.body.currencies.map((c: { code: string }) => c.code)).toEqual(['CHF', 'EUR']);
      const res = await shop.storefront.get('/currencies?currency=USD').expect(422);
      expect(res.body.errors).toContain('USD');
    });
  });
});

describe('storefront identification with a single shop', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.createShop();
  });
  afterAll(() => t.close());

  it('serves an anonymous visitor without token or domain when exactly one shop exists', async () => {
    const res = await t.http().get(`${API}/currencies`).expect(200);
    expect(res.body.currencies).toHaveLength(1);
  });
});

describe('rate limits', () => {
  let t: TestApp;
  let shop: TestShop;
  beforeAll(async () => {
    t = await createTestApp({ config: { RATE_LIMIT: true, RATE_LIMIT_BURST: 5, RATE_LIMIT_REFILL_PER_SECOND: 1 } });
    shop = await t.createShop();
  });
  afterAll(() => t.close());

  it('lets a burst through, then answers 429 with Retry-After; other tokens keep their own bucket', async () => {
    // on a loaded machine a second may pass during the burst: what refilled meanwhile (1/s) is allowed for
    const started = Date.now();
    for (let i = 0; i < 5; i++) {
      const ok = await shop.admin.get('/admin/access_tokens').expect(200);
      expect(ok.headers['x-ratelimit-limit']).toBe('5');
      const remaining = Number(ok.headers['x-ratelimit-remaining']);
      expect(remaining).toBeGreaterThanOrEqual(4 - i);
      expect(remaining).toBeLessThanOrEqual(Math.min(4, 4 - i + Math.floor((Date.now() - started) / 1000)));
    }
    let refused = await shop.admin.get('/admin/access_tokens');
    for (let extra = 0; refused.status === 200 && extra < 10; extra++) refused = await shop.admin.get('/admin/access_tokens');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ errors: 'rate limit exceeded' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    await shop.storefront.get('/currencies').expect(200);
    await t.http().get('/health').expect(200);
  });

  it('puts the rate-limit headers on every response, early refusals included (no token, malformed JSON, unknown path or version)', async () => {
    const client = t.client('vnstat_headerscheckheaderscheckheaderscheck00');
    const answers = [
      // anonymous: 401 before the body is read (issue 13)
      await t.http().post(`${API}/admin/access_tokens`).set('Content-Type', 'application/json').send('{"label":'),
      await t.http().get(`${API}/no/such/path`),
      await t.http().get('/api/2019-01-01/admin/access_tokens'),
      await t.http().post(`${API}/admin/access_tokens`).set('Content-Type', 'text/plain').send('x'),
      await client.get('/admin/access_tokens'),
    ];
    expect(answers.map((r) => r.status)).toEqual([401, 404, 404, 401, 401]);
    for (const r of answers) {
      expect(r.headers['x-ratelimit-limit']).toBe('5');
      expect(r.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    }
    expect((await t.http().get('/health').expect(200)).headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('refills at the configured rate', async () => {
    await new Promise((r) => setTimeout(r, 1100));
    await shop.admin.get('/admin/access_tokens').expect(200);
  });
});
