import type { ArgumentsHost } from '@nestjs/common';
import type { Server } from 'node:http';
import type { Application, Request, Response } from 'express';
import type { HttpLogger } from 'pino-http';
import { activeLanguage, applyCurrency, applyVisitor, offeredCurrency, type AuthService } from '../auth/index.js';
import { contextOf } from '../common/context/request-context.js';
import { pageEnvelope } from '../common/http/envelope.interceptor.js';
import { ErrorEnvelopeFilter } from '../common/http/error-envelope.filter.js';
import { checkJsonShape } from '../common/http/json-shape.js';
import { listParamsOf } from '../common/paging/list-params.js';
import { CartCurrencyResolver, type Extensions } from '../extensions/index.js';
import type { TenancyService, TenantConfig } from '../tenancy/index.js';
import { parseFilters, type CatalogueFilters, type RawQuery } from './catalogue-filters.js';
import { ProductListQuery } from './dto/catalogue-list-query.dto.js';
import { adoptRequest, BEARER, installLane, laneCandidate, LaneChain, type Middleware, routeOf } from './fast-lane.js';
import { spliceJson } from './preserialized-json.js';
import type { StorefrontCatalogueService } from './storefront-catalogue.service.js';

export interface ListFastLaneDeps {
  /** The route's full path (`/api/<version>/products`). */
  path: string;
  /** The Express app the lane stands in front of (its request and response prototypes, its route). */
  express: Application;
  /** The app's own middleware before its router, in its order (`LaneChain`); the request log is `requestLog`. */
  chain: Middleware[];
  requestLog: HttpLogger;
  auth: AuthService;
  tenancy: TenancyService;
  extensions: Extensions;
  catalogue: StorefrontCatalogueService;
  /** `PUBLIC_URL` (the Link header's base, as the envelope interceptor's). */
  publicUrl: string | undefined;
  /** Whether reads go to replicas (`ReplicaReadsInterceptor` binds the request to one): then the lane stands aside. */
  replicas: () => boolean;
}

/** What the lane decided it may answer: the guard's and the pipe's verdicts. */
interface Plan {
  tenantId: string;
  tokenId: string;
  scopes: readonly string[];
  config: TenantConfig;
  language: string;
  filters: CatalogueFilters;
}

const SCOPE = 'storefront/catalogue';
/** The guard's own parameters, beside the list's (`ProductListQuery`, the DTO that documents them). */
const GUARD_PARAMS = ['currency', 'locale'];
/** Where `@ApiPropertyOptional` lists a DTO's properties (`DECORATORS.API_MODEL_PROPERTIES_ARRAY` of @nestjs/swagger, not exported). */
const API_PROPERTIES = 'swagger/apiModelPropertiesArray';

/** The query parameters `GET /products` documents (its DTO's properties), and the guard's. */
function knownParams(): ReadonlySet<string> {
  const props = (Reflect.getMetadata(API_PROPERTIES, ProductListQuery.prototype) ?? []) as string[];
  const names = props.map((p) => p.replace(/^:/, ''));
  if (!names.includes('q') || !names.includes('page_info')) throw new Error('list fast lane: ProductListQuery has no documented properties');
  return new Set([...names, ...GUARD_PARAMS]);
}

/**
 * The list fast lane (issue 35; README "Search"): the storefront's `GET /products` answered in front of Express's
 * router and Nest's pipeline (guards, passport, interceptors, pipes), which cost more than a millisecond of a search.
 * It first decides, writing nothing: a GET of the route without a body, with a bearer token and no `access_token`;
 * only parameters the route documents (`ProductListQuery`) or the guard reads (`currency`, `locale`), passing the
 * guard's shape check and the route's own parsing (`parseFilters`, the pipe's); the token resolves to a live storefront
 * token with the catalogue scope; `currency`, if given, is offered; reads are not sent to replicas. Anything else falls
 * through to Express unchanged. Then it runs the app's own middleware (request id and log line, metrics, buyers first,
 * compression, tracing, the rate limit, cookies) and does what the guard, the controller and the envelope do, with
 * their code: Content-Language, the visitor cookie when none came, the currency (the cart's for a visitor with a
 * cookie), `listProducts`, the Link header, `spliceJson` (ETag, 304, compression). An error of the service is written
 * by the app's error filter (`ErrorEnvelopeFilter`), as on the Nest path.
 */
export class ListFastLane {
  /** Off: every request goes to Express (`LIST_FAST_LANE=off`; the tests switch it to compare both paths). */
  enabled = true;
  /** Requests the lane took (tests, diagnostics). */
  served = 0;
  private readonly route: object;
  private readonly chain: LaneChain;
  private readonly known = knownParams();
  private readonly errors = new ErrorEnvelopeFilter();

  constructor(private readonly deps: ListFastLaneDeps) {
    this.route = routeOf(deps.express, deps.path);
    this.chain = new LaneChain(deps.chain, deps.requestLog);
  }

  /** Puts the lane in front of the server's request listeners (Express's app, or another lane). */
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
    const { express, auth, tenancy } = this.deps;
    if (this.deps.replicas()) return null;
    adoptRequest(express, req, res);
    const query = req.query as Record<string, unknown>;
    for (const key of Object.keys(query)) if (!this.known.has(key)) return null;
    checkJsonShape(query, '');
    const filters = parseFilters(query as RawQuery, 'products');
    const token = BEARER.exec(req.headers.authorization!)![1];
    const principal = await auth.resolveFor(req, token);
    if (!principal || principal.kind !== 'access_token' || principal.tier !== 'storefront' || !principal.scopes.includes(SCOPE)) return null;
    const config = await tenancy.config(principal.tenantId);
    if (query.currency !== undefined) offeredCurrency(config, query.currency);
    const language = activeLanguage(config, req);
    return { tenantId: principal.tenantId, tokenId: principal.tokenId, scopes: principal.scopes, config, language, filters };
  }

  /** Runs the app's middleware, then answers as the guard, the controller and the envelope do. */
  private answer(req: Request, res: Response, plan: Plan): void {
    this.served += 1;
    this.chain.run(req, res, () => {
      this.reply(req, res, plan).catch((err: unknown) => {
        this.chain.attachLog(req, res);
        const http = { getRequest: () => req, getResponse: () => res };
        this.errors.catch(err, { switchToHttp: () => http } as unknown as ArgumentsHost);
      });
    });
  }

  private async reply(req: Request, res: Response, plan: Plan): Promise<void> {
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
    await applyCurrency(ctx, plan.config, req, this.deps.extensions.one(CartCurrencyResolver));
    spliceJson(res);
    const page = await this.deps.catalogue.listProducts(ctx, plan.filters, listParamsOf(req), 'storefront.products', null);
    res.status(200).json(pageEnvelope(req, res, 'products', page, this.deps.publicUrl));
  }
}
