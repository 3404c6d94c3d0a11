import { Injectable, Logger, Optional } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { CacheBus } from '../common/cluster/cache-bus.js';
import { PrincipalCache } from '../common/auth/principal-cache.js';
import { generateToken, hashToken } from '../common/auth/token-hash.js';
import { adminScopes, BUILT_IN_ADMIN_RESOURCES, isAdminScope, isStorefrontScope, STOREFRONT_SCOPES } from '../common/auth/scopes.js';
import { AdminResource, TokenResolver } from '../extensions/index.js';
import { Extensions, type Principal } from '../extensions/index.js';
import { RequestContext } from '../common/context/request-context.js';
import { AppError } from '../common/http/app-error.js';
import { isUuid } from '../tenancy/index.js';
import { AuthRepository } from './auth.repository.js';
import { AccessToken, TokenTier } from './entities/access-token.entity.js';
import { StaffUser } from './entities/staff-user.entity.js';

export type { Principal } from '../extensions/index.js';

export interface MintedToken {
  id: string;
  token: string;
  prefix: string;
  label: string;
  scopes: string;
}

const PREFIX: Record<TokenTier, string> = { admin: 'vnstat', storefront: 'vnstss' };
const TOUCH_EVERY_MS = 60_000;
/**
 * How long a resolved staff access token is reused without asking the database. A revocation or a change of the
 * issuer's permissions drops it at once on this instance and, through the cache bus, on every other within
 * milliseconds; without a listening bus nothing is kept.
 */
const PRINCIPAL_CACHE_MS = 5_000;
const PRINCIPAL_CACHE_MAX = 10_000;
/** Cache-bus topic: a tenant's access tokens were revoked or a staff user's permissions changed. */
export const AUTH_CACHE_TOPIC = 'auth';

/** Staff, their permissions, and the access tokens they issue. */
@Injectable()
export class AuthService {
  private readonly logger = new Logger(AuthService.name);
  private resolvers: Map<string, TokenResolver> | null = null;
  private resources: ReadonlySet<string> | null = null;
  /** One lookup per request and token, shared by the rate limiter and the API guard. */
  private readonly perRequest = new WeakMap<object, { token: string; principal: Promise<Principal | null> }>();
  /** Resolved staff tokens by token hash (see `PRINCIPAL_CACHE_MS`). */
  private readonly principals: PrincipalCache<Principal>;

  constructor(
    private readonly repo: AuthRepository,
    private readonly config: AppConfig,
    private readonly extensions: Extensions,
    @Optional() private readonly bus?: CacheBus,
  ) {
    this.principals = new PrincipalCache(PRINCIPAL_CACHE_MS, PRINCIPAL_CACHE_MAX, () => this.bus?.listening === true);
    bus?.subscribe(AUTH_CACHE_TOPIC, (tenantId) => this.principals.drop(tenantId));
  }

  /** The `TokenResolver` extension providers by prefix (the last registered wins for a prefix). */
  private resolverFor(prefix: string): TokenResolver | undefined {
    this.resolvers ??= new Map(this.extensions.all(TokenResolver).map((r) => [r.prefix, r]));
    return this.resolvers.get(prefix);
  }

  /** The admin resources: the built-in ones and every `AdminResource` extension provider. */
  adminResources(): ReadonlySet<string> {
    this.resources ??= new Set([...BUILT_IN_ADMIN_RESOURCES, ...this.extensions.all(AdminResource).map((r) => r.name)]);
    return this.resources;
  }

  hash(token: string): Buffer {
    return hashToken(this.config.APP_SECRET, token);
  }

  /** `resolve`, at most once per request for the same token (the rate limiter verifies it first, the guard reuses it). */
  resolveFor(req: object, token: string): Promise<Principal | null> {
    const hit = this.perRequest.get(req);
    if (hit && hit.token === token) return hit.principal;
    const principal = this.resolve(token);
    this.perRequest.set(req, { token, principal });
    return principal;
  }

  /** One indexed lookup by hash, with the issuer's live permissions; null for anything unknown or revoked. */
  async resolve(token: string): Promise<Principal | null> {
    const prefix = token.split('_', 1)[0];
    if (prefix !== 'vnstat' && prefix !== 'vnstss') {
      const resolver = this.resolverFor(prefix);
      return resolver ? resolver.resolve(token) : null;
    }
    const hash = this.hash(token);
    const key = hash.toString('base64');
    const hit = this.principals.get(key);
    if (hit) return hit;
    const epoch = this.principals.begin();
    const row = await this.repo.tokenByHash(hash);
    if (!row || row.prefix !== prefix) return null;
    if (!row.last_used_at || Date.now() - new Date(row.last_used_at).getTime() > TOUCH_EVERY_MS) this.touch(row.id);
    const principal: Principal = Object.freeze({
      kind: 'access_token',
      tokenId: row.id,
      tenantId: row.tenant_id,
      tier: row.tier,
      scopes: Object.freeze(row.scopes) as string[],
      issuerId: row.issuer_id,
      issuerPermissions: Object.freeze(row.permissions) as string[],
    });
    this.principals.set(key, epoch, row.tenant_id, principal);
    return principal;
  }

  /** Records use at most once a minute per token, off the request's path. */
  private touch(tokenId: string): void {
    this.repo.touchToken(tokenId).catch((err: unknown) => this.logger.warn({ err }, 'could not record token use'));
  }

  /**
   * `within`: the minting token's effective scopes (its own, narrowed to its issuer's live permissions) when minted
   * over HTTP; an admin token may carry only those, so a token can never mint a stronger one.
   */
  async mint(
    ctx: RequestContext,
    issuerId: string,
    input: { label: string; tier: string; scopes: string[] },
    within?: ReadonlySet<string>,
  ): Promise<MintedToken> {
    const label = input.label.trim();
    if (!label) throw AppError.unprocessable('label must not be blank');
    if (label.length > 200) throw AppError.unprocessable('label must be at most 200 characters');
    if (input.tier !== 'admin' && input.tier !== 'storefront') throw AppError.unprocessable('tier must be one of: admin, storefront');
    const tier: TokenTier = input.tier;
    if (input.scopes.length === 0) throw AppError.unprocessable('scopes must not be empty');
    const valid = tier === 'admin' ? (s: string) => isAdminScope(s, this.adminResources()) : isStorefrontScope;
    const bad = input.scopes.find((s) => !valid(s));
    if (bad !== undefined) throw AppError.unprocessable(`scopes: "${bad}" is not a ${tier} scope`);
    const scopes = [...new Set(input.scopes)];
    const beyond = within && tier === 'admin' ? scopes.find((s) => !within.has(s)) : undefined;
    if (beyond !== undefined) throw AppError.forbidden(`scopes: the minting token does not hold ${beyond}, so it cannot grant it`);
    const token = generateToken(PREFIX[tier]);
    const saved = await this.repo.insertToken(ctx, { issuerId, tier, prefix: PREFIX[tier], label, scopes, tokenHash: this.hash(token) });
    return { id: saved.id, token, prefix: saved.prefix, label: saved.label, scopes: saved.scopes.join(' ') };
  }

  async listActive(ctx: RequestContext): Promise<AccessToken[]> {
    return this.repo.activeTokens(ctx.tenantId);
  }

  async revoke(ctx: RequestContext, id: string): Promise<void> {
    if (!(await this.repo.revokeToken(ctx.tenantId, id))) throw AppError.notFound('access token');
    this.principalsChanged(ctx.tenantId);
  }

  /**
   * After a revocation or permission change. Every instance hears of it at commit from the database itself (the
   * triggers of migration `AuthNotify`, topic `auth`: the notice commits with the change, whatever path made it);
   * this instance also forgets the tenant's resolved tokens at once, so that its next request sees the change.
   */
  private principalsChanged(tenantId: string): void {
    this.principals.drop(tenantId);
  }

  async createStaff(ctx: RequestContext, input: { email: string; permissions: string[]; isOwner?: boolean }): Promise<StaffUser> {
    const email = input.email.trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw AppError.unprocessable('email is not a valid address');
    this.checkPermissions(input.permissions);
    if (await this.repo.staffEmailTaken(ctx, email)) throw AppError.unprocessable(`a staff user with email ${email} already exists`);
    return this.repo.insertStaff(ctx, { email, permissions: [...new Set(input.permissions)], isOwner: input.isOwner ?? false });
  }

  async setPermissions(ctx: RequestContext, email: string, permissions: string[]): Promise<StaffUser> {
    this.checkPermissions(permissions);
    const staff = await this.findStaff(ctx, email);
    staff.permissions = [...new Set(permissions)];
    const saved = await this.repo.saveStaff(staff);
    this.principalsChanged(ctx.tenantId);
    return saved;
  }

  async findStaff(ctx: RequestContext, email: string): Promise<StaffUser> {
    const staff = await this.repo.staffByEmail(ctx.tenantId, email.trim());
    if (!staff) throw AppError.notFound('staff user');
    return staff;
  }

  async findStaffById(ctx: RequestContext, id: string): Promise<StaffUser | null> {
    if (!isUuid(id)) return null;
    return this.repo.staffById(ctx.tenantId, id);
  }

  allAdminScopes(): string[] {
    return adminScopes(this.adminResources());
  }

  allStorefrontScopes(): string[] {
    return [...STOREFRONT_SCOPES];
  }

  private checkPermissions(permissions: string[]): void {
    const bad = permissions.find((p) => !isAdminScope(p, this.adminResources()));
    if (bad !== undefined) throw AppError.unprocessable(`"${bad}" is not an admin permission`);
  }
}
