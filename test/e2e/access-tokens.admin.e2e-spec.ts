import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthService } from '../../src/auth/auth.service.js';
import { RequestContext } from '../../src/common/context/request-context.js';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';

describe('admin access tokens', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    other = await t.createShop();
  });
  afterAll(() => t.close());

  it('lists active tokens newest first without secrets, last_used_at explicit', async () => {
    const res = await shop.admin.get('/admin/access_tokens').expect(200);
    expect(Object.keys(res.body)).toEqual(['access_tokens']);
    const rows = res.body.access_tokens as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual({
      id: expect.any(String),
      prefix: 'vnstss',
      label: 'Storefront token',
      scopes: expect.stringContaining('storefront/cart'),
      created_at: expect.any(String),
      last_used_at: null,
    });
    expect(rows[1].prefix).toBe('vnstat');
    expect(JSON.stringify(res.body)).not.toContain(shop.admin_token);
    expect(JSON.stringify(res.body)).not.toMatch(/vnst(at|ss)_/);
  });

  it('mints a token shown once, with trimmed label and space-delimited scopes, and it works', async () => {
    const res = await shop.admin
      .post('/admin/access_tokens', { label: '  ERP sync  ', tier: 'admin', scopes: ['Shop/collections/read', 'Shop/customers/read'] })
      .expect(201);
    const minted = res.body.access_token;
    expect(minted).toEqual({
      id: expect.any(String),
      token: expect.stringMatching(/^vnstat_[A-Za-z0-9]{32,}$/),
      prefix: 'vnstat',
      label: 'ERP sync',
      scopes: 'Shop/collections/read Shop/customers/read',
    });
    const list = await shop.admin.get('/admin/access_tokens').expect(200);
    expect(list.body.access_tokens[0]).toMatchObject({ id: minted.id, label: 'ERP sync', scopes: 'Shop/collections/read Shop/customers/read' });
    // the new token has no access_tokens scope: 403
    await t.client(minted.token).get('/admin/access_tokens').expect(403);
  });

  it('mints storefront tokens with storefront scopes only', async () => {
    const ok = await shop.admin.post('/admin/access_tokens', { label: 'SPA', tier: 'storefront', scopes: ['storefront/catalogue'] }).expect(201);
    expect(ok.body.access_token.token).toMatch(/^vnstss_/);
    expect(ok.body.access_token.prefix).toBe('vnstss');
    const bad = await shop.admin.post('/admin/access_tokens', { label: 'SPA', tier: 'storefront', scopes: ['Shop/collections/read'] }).expect(422);
    expect(bad.body.errors).toContain('scope');
  });

  it.each([
    ['missing body', undefined],
    ['blank label', { label: '   ', tier: 'admin', scopes: ['Shop/themes/read'] }],
    ['unrecognised tier', { label: 'x', tier: 'root', scopes: ['Shop/themes/read'] }],
    ['disallowed scope', { label: 'x', tier: 'admin', scopes: ['Shop/everything/read'] }],
    ['empty scopes', { label: 'x', tier: 'admin', scopes: [] }],
    ['scopes as a string', { label: 'x', tier: 'admin', scopes: 'Shop/themes/read' }],
    ['label of wrong type', { label: 5, tier: 'admin', scopes: ['Shop/themes/read'] }],
  ])('rejects %s with 422 and changes nothing', async (_name, body) => {
    const before = (await shop.admin.get('/admin/access_tokens')).body.access_tokens.length;
    const res = await shop.admin.post('/admin/access_tokens', body).expect(422);
    expect(typeof res.body.errors).toBe('string');
    expect((await shop.admin.get('/admin/access_tokens')).body.access_tokens.length).toBe(before);
  });

  it('POST without valid authentication is 401', async () => {
    await t
      .client(null)
      .post('/admin/access_tokens', { label: 'x', tier: 'admin', scopes: ['Shop/themes/read'] })
      .expect(401);
    const res = await t
      .client('vnstat_unknownunknownunknownunknownunknown')
      .post('/admin/access_tokens', { label: 'x', tier: 'admin', scopes: ['Shop/themes/read'] })
      .expect(401);
    expect(res.body).toEqual({ errors: expect.any(String) });
  });

  it('revokes: 204, then the token is 401 and a second revoke is 404', async () => {
    const minted = (await shop.admin.post('/admin/access_tokens', { label: 'temp', tier: 'admin', scopes: ['Shop/access_tokens/read'] }).expect(201)).body
      .access_token;
    await t.client(minted.token).get('/admin/access_tokens').expect(200);
    await shop.admin
      .delete(`/admin/access_tokens/${minted.id}`)
      .expect(204)
      .expect((r) => expect(r.text).toBe(''));
    await t.client(minted.token).get('/admin/access_tokens').expect(401);
    await shop.admin.delete(`/admin/access_tokens/${minted.id}`).expect(404);
    const list = await shop.admin.get('/admin/access_tokens').expect(200);
    expect(list.body.access_tokens.map((r: { id: string }) => r.id)).not.toContain(minted.id);
  });

  it("another shop's token id is 404 and its list is separate", async () => {
    const theirs = (await other.admin.get('/admin/access_tokens').expect(200)).body.access_tokens[0].id;
    await shop.admin.delete(`/admin/access_tokens/${theirs}`).expect(404);
    const mine = (await shop.admin.get('/admin/access_tokens')).body.access_tokens.map((r: { id: string }) => r.id);
    expect(mine).not.toContain(theirs);
    await other.admin.get('/admin/access_tokens').expect(200);
  });

  it('an invalid id in the path is 422', async () => {
    const res = await shop.admin.delete('/admin/access_tokens/not-a-uuid').expect(422);
    expect(res.body.errors).toContain('id');
  });

  it('records last_used_at on use', async () => {
    const minted = (await shop.admin.post('/admin/access_tokens', { label: 'used', tier: 'admin', scopes: ['Shop/themes/read'] }).expect(201)).body
      .access_token;
    await t.client(minted.token).get('/admin/access_tokens').expect(403);
    await new Promise((r) => setTimeout(r, 150));
    const row = (await shop.admin.get('/admin/access_tokens')).body.access_tokens.find((r: { id: string }) => r.id === minted.id);
    expect(row.last_used_at).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
  });

  it('stores only a hash of the token', async () => {
    const rows: Array<{ token_hash: Buffer }> = await t.db.query('SELECT token_hash FROM access_tokens WHERE tenant_id = $1', [shop.tenant.id]);
    for (const r of rows) {
      expect(r.token_hash.toString('utf8')).not.toContain('vnst');
      expect(r.token_hash).toHaveLength(32);
    }
    const svc = t.get(AuthService);
    expect(await svc.resolve(shop.admin_token)).toMatchObject({ tenantId: shop.tenant.id, tier: 'admin' });
    expect(RequestContext.forTenant(shop.tenant.id).tenantId).toBe(shop.tenant.id);
  });
});
