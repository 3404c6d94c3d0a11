import { describe, expect, it } from '@jest/globals';
import { Test } from '@nestjs/testing';
import { rejectedStatus } from '../../test/helpers/app-error.js';
import { RequestContext } from '../common/context/request-context.js';
import { AppConfig } from '../config/app-config.js';
import { Extensions, TokenResolver, type Principal } from '../extensions/index.js';
import { AuthRepository, type NewAccessToken, type TokenPrincipalRow } from './auth.repository.js';
import { AuthService } from './auth.service.js';
import { AccessToken } from './entities/access-token.entity.js';
import { StaffUser } from './entities/staff-user.entity.js';

const TENANT = '00000000-0000-0000-0000-000000000001';
const ctx = RequestContext.forTenant(TENANT);

/** Staff and tokens in memory, as the repository's contract describes them. */
class FakeAuthRepository {
  tokens: Array<AccessToken & { lastUsedAt: Date | null; revoked: boolean }> = [];
  staff: StaffUser[] = [];
  touched: string[] = [];
  private seq = 0;

  tokenByHash(hash: Buffer): Promise<TokenPrincipalRow | undefined> {
    const t = this.tokens.find((x) => !x.revoked && x.tokenHash.equals(hash));
    const s = t && this.staff.find((x) => x.id === t.issuerId);
    if (!t || !s) return Promise.resolve(undefined);
    const row = { id: t.id, tenant_id: t.tenantId, tier: t.tier, prefix: t.prefix, scopes: t.scopes, issuer_id: s.id, permissions: s.permissions };
    return Promise.resolve({ ...row, last_used_at: t.lastUsedAt });
  }
  touchToken(tokenId: string): Promise<void> {
    this.touched.push(tokenId);
    return Promise.resolve();
  }
  insertToken(c: RequestContext, token: NewAccessToken): Promise<AccessToken> {
    const saved = Object.assign(new AccessToken(), { id: `t${++this.seq}`, tenantId: c.tenantId, ...token, lastUsedAt: null, revoked: false });
    this.tokens.push(saved);
    return Promise.resolve(saved);
  }
  activeTokens(tenantId: string): Promise<AccessToken[]> {
    return Promise.resolve(this.tokens.filter((t) => t.tenantId === tenantId && !t.revoked));
  }
  revokeToken(tenantId: string, id: string): Promise<boolean> {
    const t = this.tokens.find((x) => x.id === id && x.tenantId === tenantId && !x.revoked);
    if (t) t.revoked = true;
    return Promise.resolve(!!t);
  }
  staffEmailTaken(c: RequestContext, email: string): Promise<boolean> {
    return Promise.resolve(this.staff.some((s) => s.tenantId === c.tenantId && s.email.toLowerCase() === email));
  }
  insertStaff(c: RequestContext, staff: { email: string; permissions: string[]; isOwner: boolean }): Promise<StaffUser> {
    const saved = Object.assign(new StaffUser(), { id: `s${++this.seq}`, tenantId: c.tenantId, ...staff });
    this.staff.push(saved);
    return Promise.resolve(saved);
  }
  saveStaff(staff: StaffUser): Promise<StaffUser> {
    return Promise.resolve(staff);
  }
  staffByEmail(tenantId: string, email: string): Promise<StaffUser | null> {
    return Promise.resolve(this.staff.find((s) => s.tenantId === tenantId && s.email.toLowerCase() === email.toLowerCase()) ?? null);
  }
  staffById(tenantId: string, id: string): Promise<StaffUser | null> {
    return Promise.resolve(this.staff.find((s) => s.tenantId === tenantId && s.id === id) ?? null);
  }
}

/** A resolver of `vnsx_` tokens (another bearer-token family). */
class XResolver extends TokenResolver {
  readonly prefix = 'vnsx';
  resolve(token: string): Promise<Principal | null> {
    return Promise.resolve(token === 'vnsx_ok' ? { kind: 'customer', tokenId: 'x', tenantId: TENANT, customerId: 'c', active: true } : null);
  }
}

async function setUp() {
  const repo = new FakeAuthRepository();
  const extensions = { all: (point: unknown) => (point === TokenResolver ? [new XResolver()] : []) };
  const moduleRef = await Test.createTestingModule({
    providers: [
      AuthService,
      { provide: AuthRepository, useValue: repo },
      { provide: AppConfig, useValue: { APP_SECRET: 'a-secret-of-the-unit-spec-only-0123456789' } },
      { provide: Extensions, useValue: extensions },
    ],
  }).compile();
  return { auth: moduleRef.get(AuthService), repo };
}

describe('AuthService (repository faked)', () => {
  it('refuses a bad label, tier or scope with 422 and a scope the minting token does not hold with 403, storing nothing', async () => {
    const { auth, repo } = await setUp();
    const owner = await auth.createStaff(ctx, { email: 'owner@shop.test', permissions: ['Shop/collections/read'] });
    const bad = [
      { label: ' ', tier: 'admin', scopes: ['Shop/collections/read'] },
      { label: 'x'.repeat(201), tier: 'admin', scopes: ['Shop/collections/read'] },
      { label: 'ok', tier: 'root', scopes: ['Shop/collections/read'] },
      { label: 'ok', tier: 'admin', scopes: [] },
      { label: 'ok', tier: 'admin', scopes: ['storefront/cart'] },
      { label: 'ok', tier: 'storefront', scopes: ['Shop/collections/read'] },
      { label: 'ok', tier: 'admin', scopes: ['Shop/nothing/read'] },
    ];
    for (const input of bad) expect(await rejectedStatus(auth.mint(ctx, owner.id, input))).toBe(422);
    expect(
      await rejectedStatus(auth.mint(ctx, owner.id, { label: 'ok', tier: 'admin', scopes: ['Shop/collections/write'] }, new Set(['Shop/collections/read']))),
    ).toBe(403);
    expect(repo.tokens).toEqual([]);
  });

  it('mints a token stored only as its hash, with its scopes once each, that resolves to the issuer with its live permissions', async () => {
    const { auth, repo } = await setUp();
    const owner = await auth.createStaff(ctx, { email: 'owner@shop.test', permissions: ['Shop/collections/read'] });
    const minted = await auth.mint(ctx, owner.id, { label: ' Till ', tier: 'admin', scopes: ['Shop/collections/read', 'Shop/collections/read'] });
    expect(minted).toMatchObject({ prefix: 'vnstat', label: 'Till', scopes: 'Shop/collections/read' });
    expect(minted.token.startsWith('vnstat_')).toBe(true);
    expect(repo.tokens[0].tokenHash.equals(auth.hash(minted.token))).toBe(true);
    expect(repo.tokens[0].tokenHash.toString()).not.toContain(minted.token);
    await auth.setPermissions(ctx, 'OWNER@shop.test', ['Shop/collections/write']);
    expect(await auth.resolve(minted.token)).toEqual({
      kind: 'access_token',
      tokenId: minted.id,
      tenantId: TENANT,
      tier: 'admin',
      scopes: ['Shop/collections/read'],
      issuerId: owner.id,
      issuerPermissions: ['Shop/collections/write'],
    });
  });

  it('resolves nothing for an unknown token, a token whose prefix is not its row, or a revoked one; other prefixes go to their TokenResolver', async () => {
    const { auth, repo } = await setUp();
    const owner = await auth.createStaff(ctx, { email: 'owner@shop.test', permissions: ['Shop/collections/read'] });
    const minted = await auth.mint(ctx, owner.id, { label: 'a', tier: 'admin', scopes: ['Shop/collections/read'] });
    expect(await auth.resolve('vnstat_unknown')).toBeNull();
    expect(await auth.resolve('vnsx_ok')).toMatchObject({ kind: 'customer', customerId: 'c' });
    expect(await auth.resolve('vnsy_whatever')).toBeNull();
    repo.tokens[0].prefix = 'vnstss'; // a row of the other tier under the same hash
    expect(await auth.resolve(minted.token)).toBeNull();
    repo.tokens[0].prefix = 'vnstat';
    expect(await auth.resolve(minted.token)).not.toBeNull();
    await auth.revoke(ctx, minted.id);
    expect(await auth.resolve(minted.token)).toBeNull();
    expect(await rejectedStatus(auth.revoke(ctx, minted.id))).toBe(404);
  });

  it('records a token use at most once a minute', async () => {
    const { auth, repo } = await setUp();
    const owner = await auth.createStaff(ctx, { email: 'owner@shop.test', permissions: ['Shop/collections/read'] });
    const minted = await auth.mint(ctx, owner.id, { label: 'a', tier: 'admin', scopes: ['Shop/collections/read'] });
    await auth.resolve(minted.token);
    expect(repo.touched).toEqual([minted.id]);
    repo.tokens[0].lastUsedAt = new Date(Date.now() - 10_000);
    await auth.resolve(minted.token);
    expect(repo.touched).toEqual([minted.id]);
    repo.tokens[0].lastUsedAt = new Date(Date.now() - 61_000);
    await auth.resolve(minted.token);
    expect(repo.touched).toEqual([minted.id, minted.id]);
  });

  it('creates staff with a trimmed lower-case email and each permission once; refuses a bad email, a taken one or a bad permission with 422', async () => {
    const { auth, repo } = await setUp();
    const s = await auth.createStaff(ctx, { email: ' Ana@Shop.Test ', permissions: ['Shop/collections/read', 'Shop/collections/read'] });
    expect(s).toMatchObject({ email: 'ana@shop.test', permissions: ['Shop/collections/read'], isOwner: false });
    expect(await rejectedStatus(auth.createStaff(ctx, { email: 'ANA@shop.test', permissions: [] }))).toBe(422);
    expect(await rejectedStatus(auth.createStaff(ctx, { email: 'not-an-address', permissions: [] }))).toBe(422);
    expect(await rejectedStatus(auth.createStaff(ctx, { email: 'bo@shop.test', permissions: ['storefront/cart'] }))).toBe(422);
    expect(await rejectedStatus(auth.findStaff(ctx, 'nobody@shop.test'))).toBe(404);
    expect(await auth.findStaffById(ctx, 'not-a-uuid')).toBeNull();
    expect(repo.staff).toHaveLength(1);
  });
});
