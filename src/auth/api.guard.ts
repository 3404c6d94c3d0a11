import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { AuthService, Principal } from './auth.service.js';
import { BearerAuthGuard } from './bearer.strategy.js';
import { newVisitorId } from './visitor-id.js';
import { TenancyService, TenantConfig } from '../tenancy/index.js';
import { CartCurrencyResolver, Extensions } from '../extensions/index.js';
import { contextOf, RequestContext } from '../common/context/request-context.js';
import { AppError } from '../common/http/app-error.js';
import { ALLOW_DISABLED_SHOPPER, AUTH_KEY, AuthOptions, OWN_CURRENCY } from '../common/auth/auth.decorator.js';

export const VISITOR_COOKIE = 'visitor_id';
const YEAR_MS = 365 * 24 * 3600 * 1000;

/**
 * The one guard of every tier (CONTRACT 3): identifies the token and the shop, checks tier and scope
 * (the admin token's scopes narrowed to its issuer's live permissions), then fixes language, currency and visitor.
 */
@Injectable()
export class ApiGuard implements CanActivate {
  private readonly bearer = new BearerAuthGuard();

  constructor(
    private readonly reflector: Reflector,
    private readonly tenancy: TenancyService,
    private readonly extensions: Extensions,
    readonly auth: AuthService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const options = this.reflector.getAllAndOverride<AuthOptions | undefined>(AUTH_KEY, [context.getHandler(), context.getClass()]);
    if (!options) return true;
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    const ctx = contextOf(req);
    ctx.tier = options.tier;

    const principal = await this.principal(context, req, options);
    if (
      options.tier !== 'admin' &&
      principal?.kind === 'customer' &&
      !principal.active &&
      !this.reflector.get<boolean>(ALLOW_DISABLED_SHOPPER, context.getHandler())
    ) {
      throw AppError.forbidden('the account is disabled: only its profile can be read', 'account_disabled');
    }
    if (options.tier === 'admin') this.admitAdmin(ctx, principal, options);
    else if (options.tier === 'customer') this.admitCustomer(ctx, principal);
    else await this.admitStorefront(ctx, principal, options, req);

    const config = await this.tenancy.config(ctx.tenantId);
    this.applyLanguage(ctx, config, req, res);
    if (options.tier !== 'admin') applyVisitor(ctx, req, res);
    await this.applyCurrency(ctx, config, req, !!this.reflector.get<boolean | undefined>(OWN_CURRENCY, context.getHandler()));
    return true;
  }

  private async principal(context: ExecutionContext, req: Request, options: AuthOptions): Promise<Principal | null> {
    if (!req.headers.authorization && options.tier === 'admin') {
      const header = req.headers['x-service-access-token'];
      if (typeof header === 'string' && header.trim()) req.headers.authorization = `Bearer ${header.trim()}`;
    }
    if (!req.headers.authorization) {
      if (options.tier === 'storefront') return null;
      throw AppError.unauthorized();
    }
    await this.bearer.canActivate(context);
    return req.user as Principal;
  }

  private admitAdmin(ctx: RequestContext, principal: Principal | null, options: AuthOptions): void {
    if (!principal || principal.kind !== 'access_token' || principal.tier !== 'admin')
      throw AppError.unauthorized('an admin access token (vnstat_) is required');
    ctx.tenantId = principal.tenantId;
    ctx.actor = { type: 'staff', staffId: principal.issuerId, tokenId: principal.tokenId };
    const live = new Set(principal.issuerPermissions);
    ctx.scopes = new Set(principal.scopes.filter((s) => live.has(s)));
    if (options.scope && !ctx.scopes.has(options.scope) && !options.deprecatedScopes?.some((s) => ctx.scopes.has(s))) {
      const why = principal.scopes.includes(options.scope) ? "the token's issuer no longer holds" : 'the token lacks';
      throw AppError.forbidden(`${why} the scope ${options.scope}`);
    }
  }

  private admitCustomer(ctx: RequestContext, principal: Principal | null): void {
    if (!principal || principal.kind !== 'customer') throw AppError.unauthorized('a customer access token is required');
    ctx.tenantId = principal.tenantId;
    ctx.actor = { type: 'customer', customerId: principal.customerId, tokenId: principal.tokenId };
  }

  private async admitStorefront(ctx: RequestContext, principal: Principal | null, options: AuthOptions, req: Request): Promise<void> {
    if (principal?.kind === 'customer') {
      ctx.tenantId = principal.tenantId;
      ctx.actor = { type: 'customer', customerId: principal.customerId, tokenId: principal.tokenId };
      return;
    }
    if (principal) {
      if (principal.tier !== 'storefront') throw AppError.unauthorized('a storefront token (vnstss_) is required on this tier');
      ctx.tenantId = principal.tenantId;
      ctx.actor = { type: 'storefront_token', tokenId: principal.tokenId };
      ctx.scopes = new Set(principal.scopes);
      if (options.scope && !ctx.scopes.has(options.scope)) throw AppError.forbidden(`the token lacks the scope ${options.scope}`);
      return;
    }
    const tenantId = await this.tenancy.tenantForHost(req.get('host'));
    if (!tenantId) throw AppError.unauthorized('the shop could not be identified: send a storefront token or use the shop domain');
    ctx.tenantId = tenantId;
  }

  private applyLanguage(ctx: RequestContext, config: TenantConfig, req: Request, res: Response): void {
    ctx.defaultLanguage = config.settings.default_language;
    ctx.language = activeLanguage(config, req);
    res.setHeader('Content-Language', ctx.language);
  }

  private applyCurrency(ctx: RequestContext, config: TenantConfig, req: Request, ownCurrency: boolean): Promise<void> {
    return applyCurrency(ctx, config, req, ctx.tier !== 'admin' && !ownCurrency ? this.extensions.one(CartCurrencyResolver) : null);
  }
}

/**
 * The active currency (CONTRACT 4): `?currency` (422 when not offered), else the visitor's or customer's cart currency
 * when `cartCurrency` is given (not on the admin tier, nor on routes of their own currency) and it is published, else
 * the shop's default. Shared with the list fast lane (`src/catalogue/list-fast-lane.ts`).
 */
export async function applyCurrency(ctx: RequestContext, config: TenantConfig, req: Request, cartCurrency: CartCurrencyResolver | null): Promise<void> {
  const param = req.query.currency;
  if (param !== undefined) {
    ctx.currency = offeredCurrency(config, param);
    return;
  }
  if (cartCurrency) {
    const id = await cartCurrency.cartCurrencyId(ctx);
    const hit = id ? config.currencies.find((c) => c.id === id && c.published) : undefined;
    if (hit) {
      ctx.currency = hit;
      return;
    }
  }
  ctx.currency = config.defaultCurrency;
}

/**
 * The active language (CONTRACT 4): `?locale`, else the first `Accept-Language` tag the shop offers (exactly, else its
 * primary subtag), else the shop's default. Shared with the suggest fast lane (`src/catalogue/suggest-fast-lane.ts`).
 */
export function activeLanguage(config: TenantConfig, req: Request): string {
  const languages = config.settings.languages;
  const wanted = typeof req.query.locale === 'string' ? [req.query.locale] : acceptedLanguages(req.get('accept-language'));
  for (const tag of wanted) {
    const lang = tag.toLowerCase();
    const hit = languages.find((l) => l.toLowerCase() === lang) ?? languages.find((l) => l.toLowerCase() === lang.split('-')[0]);
    if (hit) return hit;
  }
  return config.settings.default_language;
}

/** The published currency `?currency` names, or 422 (shared with the suggest fast lane). */
export function offeredCurrency(config: TenantConfig, param: unknown): TenantConfig['currencies'][number] {
  const code = String(param).toUpperCase();
  const hit = config.currencies.find((c) => c.code === code && c.published);
  if (!hit) throw AppError.unprocessable(`currency ${String(param)} is not offered by this shop`);
  return hit;
}

/** The visitor of a storefront or customer request: its signed cookie's id, else a new one set as that cookie. */
export function applyVisitor(ctx: RequestContext, req: Request, res: Response): void {
  const signed = (req.signedCookies as Record<string, unknown> | undefined)?.[VISITOR_COOKIE];
  if (typeof signed === 'string' && /^[0-9a-f]{32}$/.test(signed)) {
    ctx.visitorId = signed;
    return;
  }
  const id = newVisitorId();
  ctx.visitorId = id;
  ctx.mintedVisitorId = id;
  res.cookie(VISITOR_COOKIE, id, { signed: true, httpOnly: true, sameSite: 'lax', path: '/', maxAge: YEAR_MS, secure: req.secure });
}

/** Accept-Language tags, best first. */
function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim(), q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((x) => x.tag && x.tag !== '*' && x.q > 0)
    .sort((a, b) => b.q - a.q)
    .map((x) => x.tag);
}
