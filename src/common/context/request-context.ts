import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { EntityManager } from 'typeorm';
import { AppError } from '../http/app-error.js';

export type Tier = 'admin' | 'storefront' | 'customer';

export interface CurrencyInfo {
  id: string;
  code: string;
  /** Units of this currency per unit of the default currency, as a decimal string. */
  rate: string;
  precision: number;
  isDefault: boolean;
}

export type Actor =
  | { type: 'staff'; staffId: string; tokenId: string }
  | { type: 'storefront_token'; tokenId: string }
  | { type: 'customer'; customerId: string; tokenId: string }
  | { type: 'anonymous' };

/**
 * Who is asking, for which shop, in which language and currency. Built once per request by the API guard and
 * passed first to every service method, so the tenant (and the transaction, when one is open) follow the call.
 */
export class RequestContext {
  tier: Tier | null = null;
  actor: Actor = { type: 'anonymous' };
  /** Effective scopes: the token's scopes narrowed to its issuer's live permissions. */
  scopes: ReadonlySet<string> = new Set();
  language = 'en';
  defaultLanguage = 'en';
  currency: CurrencyInfo | null = null;
  visitorId: string | null = null;
  /** The visitor id this request minted (no cookie came): nothing can belong to it yet. */
  mintedVisitorId: string | null = null;
  /** The open transaction, when the call runs inside one. */
  manager: EntityManager | null = null;
  private _tenantId: string | null = null;

  constructor(readonly requestId: string) {}

  get tenantId(): string {
    if (!this._tenantId) throw AppError.unauthorized('the shop could not be identified');
    return this._tenantId;
  }
  set tenantId(id: string) {
    this._tenantId = id;
  }
  get hasTenant(): boolean {
    return this._tenantId !== null;
  }

  /** The currency of the request; every tenant-scoped request has one. */
  get activeCurrency(): CurrencyInfo {
    if (!this.currency) throw new Error('request context has no currency');
    return this.currency;
  }

  /** A copy bound to a transaction's manager. */
  withManager(manager: EntityManager): RequestContext {
    const copy = Object.assign(Object.create(RequestContext.prototype) as RequestContext, this);
    copy.manager = manager;
    return copy;
  }

  /** A context for work outside HTTP (CLI, jobs): a tenant and nothing else. */
  static forTenant(tenantId: string, requestId = 'internal'): RequestContext {
    const ctx = new RequestContext(requestId);
    ctx.tenantId = tenantId;
    return ctx;
  }
}

declare module 'express-serve-static-core' {
  interface Request {
    ctx?: RequestContext;
  }
}

export function contextOf(req: Request): RequestContext {
  if (!req.ctx) req.ctx = new RequestContext(String(req.id ?? 'unknown'));
  return req.ctx;
}

/** The request's context, first argument of every service call: `list(@Ctx() ctx)`. */
export const Ctx = createParamDecorator((_: unknown, host: ExecutionContext) => contextOf(host.switchToHttp().getRequest<Request>()));
