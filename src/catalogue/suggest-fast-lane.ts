import type { Server } from 'node:http';
import type { Application, Request, Response } from 'express';
import { activeLanguage, applyVisitor, offeredCurrency, type AuthService } from '../auth/index.js';
import { contextOf } from '../common/context/request-context.js';
import { checkJsonShape } from '../common/http/json-shape.js';
import type { HttpLogger } from 'pino-http';
import type { TenancyService, TenantConfig } from '../tenancy/index.js';
import type { SuggestionGroupDto } from './dto/search-suggest.dto.js';
import { adoptRequest, BEARER, installLane, laneCandidate, LaneChain, type Middleware, routeOf } from './fast-lane.js';
import { spliceJson } from './preserialized-json.js';
import { suggestLimit } from './search-suggest.controller.js';
import type { SearchSuggestService } from './search-suggest.service.js';

export type { Middleware } from './fast-lane.js';

export interface SuggestFastLaneDeps {
  /** The route's full path (`/api/<version>/search/suggest`). */
  path: string;
  /** The Express app the lane stands in front of (its request and response prototypes, its route). */
  express: Application;
  /**
   * The app's own middleware before its router, in its order (metrics, request log, compression, trace, rate limit,
   * cookies); the request log is `requestLog`, given here as well.
   */
  chain: Middleware[];
  /** The app's request logger (pino-http). */
  requestLog: HttpLogger;
  auth: AuthService;
  tenancy: TenancyService;
  suggestions: SearchSuggestService;
}

/** What the lane found it may answer with: the guard's verdicts and the kept answer. */
interface Plan {
  tenantId: string;
  tokenId: string;
  scopes: readonly string[];
  config: TenantConfig;
  language: string;
  currency: TenantConfig['currencies'][number] | null;
  answer: SuggestionGroupDto[];
}

const SCOPE = 'storefront/catalogue';

/**
 * The suggest fast lane (issue 35; README "Search"): `GET /search/suggest` with a storefront token whose answer the
 * service keeps (`SearchSuggestService.kept`) is answered in front of Express's router and Nest's pipeline, which cost
 * about ten times the kept answer itself. It first decides, without touching the response: the request is a GET of
 * the route without a body or `access_token`; `q` and `limit` pass the controller's checks (`suggestLimit`) and the
 * query the shape check; the token resolves (the same per-request lookup the rate limiter and the guard share) to a
 * live storefront token with the catalogue scope; `currency`, if given, is offered; the answer for the tenant, the
 * active language (as the guard picks it) and the folded words is kept and current. Anything else falls through to
 * Express unchanged, which answers as always (401, 422, a computed answer that it then keeps). Then it runs the app's
 * own middleware (request id and log line, metrics, compression, the rate limit with its headers or 429, cookies) and
 * answers as the controller does: Content-Language, the visitor cookie when none came, `spliceJson` (ETag, 304,
 * gzip). The cart-currency lookup of a visitor with a cookie is skipped: a suggestion carries no price.
 */
export class SuggestFastLane {
  /** Off: every request goes to Express (`SUGGEST_FAST_LANE=off`; the tests switch it to compare both paths). */
  enabled = true;
  /** Requests the lane took (answered by it, a 429 of the rate limit included; tests, diagnostics). */
  served = 0;
  private readonly route: object;

  private readonly chain: LaneChain;

  constructor(private readonly deps: SuggestFastLaneDeps) {
    this.route = routeOf(deps.express, deps.path);
    this.chain = new LaneChain(deps.chain, deps.requestLog);
  }

  /** Puts the lane in front of the server's request listeners (Express's app). */
  install(server: Server): void {
    installLane(server, (req, res, through) => {
      if (!this.enabled || !laneCandidate(req, this.deps.path)) return through();
      this.decide(req as Request, res as Response).then(
        (plan) => (plan ? this.answer(req as Request, res as Response, plan) : through()),
        () => through(),
      );
    });
  }

  /** The plan to answer with, or null to leave the request to Express (nothing written, no middleware run). */
  private async decide(req: Request, res: Response): Promise<Plan | null> {
    const { express, auth, tenancy, suggestions } = this.deps;
    adoptRequest(express, req, res);
    const query = req.query as Record<string, unknown>;
    if ('access_token' in query) return null;
    const q = query.q;
    const limit = suggestLimit(q, query.limit);
    checkJsonShape(query, '');
    const token = BEARER.exec(req.headers.authorization!)![1];
    const principal = await auth.resolveFor(req, token);
    if (!principal || principal.kind !== 'access_token' || principal.tier !== 'storefront' || !principal.scopes.includes(SCOPE)) return null;
    const config = await tenancy.config(principal.tenantId);
    const currency = query.currency === undefined ? null : offeredCurrency(config, query.currency);
    const language = activeLanguage(config, req);
    const answer = await suggestions.kept(principal.tenantId, language, config.settings.default_language, q as string, limit);
    if (!answer) return null;
    return { tenantId: principal.tenantId, tokenId: principal.tokenId, scopes: principal.scopes, config, language, currency, answer };
  }

  /** Runs the app's middleware, then answers as the controller (behind the guard) does. */
  private answer(req: Request, res: Response, plan: Plan): void {
    this.served += 1;
    this.chain.run(req, res, () => this.reply(req, res, plan));
  }

  private reply(req: Request, res: Response, plan: Plan): void {
    (req as Request & { route: object }).route = this.route;
    const ctx = contextOf(req);
    ctx.tier = 'storefront';
    ctx.tenantId = plan.tenantId;
    ctx.actor = { type: 'storefront_token', tokenId: plan.tokenId };
    ctx.scopes = new Set(plan.scopes);
    ctx.defaultLanguage = plan.config.settings.default_language;
    ctx.language = plan.language;
    res.setHeader('Content-Language', plan.language);
    applyVisitor(ctx, req, res);
    ctx.currency = plan.currency ?? plan.config.defaultCurrency;
    spliceJson(res);
    res.status(200).json({ data: plan.answer });
  }
}
