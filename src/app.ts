import { DynamicModule, INestApplication, INestApplicationContext, RequestMethod, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import type { DestinationStream } from 'pino';
import { rateLimitMiddleware, RateLimitStore } from './common/auth/rate-limit.js';
import { createRootLogger, PinoNestLogger, requestLogger } from './common/http/logging.js';
import { AppModule } from './app.module.js';
import { AuthService } from './auth/auth.service.js';
import { httpMetricsMiddleware, traceRequestMiddleware } from './observability/http-observer.js';
import { Metrics } from './observability/metrics.service.js';
import { captureRoutes, errorFallback, notFoundFallback } from './common/http/route-table.js';
import { compressionMiddleware } from './common/http/compression.js';
import { answerClientErrors, trustProxySetting } from './common/http/client-errors.js';
import { buyersFirst } from './common/http/buyers-first.js';
import { parseQueryOncePerRequest } from './common/http/query-once.js';
import { ShopExpressAdapter } from './common/http/express-adapter.js';
import { AppConfig } from './config/app-config.js';
import { finalizeOpenApi } from './common/openapi/finalize-openapi.js';
import { IMPORT_SCHEMAS } from './catalogue/import/import-schema.js';
import { DataSourceExtras, runMigrations } from './database/data-source.js';
import { DOMAIN_EVENT_PAYLOADS } from './events/event-map.js';
import { serveStorefrontDemo } from './storefront-demo/storefront-demo.js';
import { SuggestFastLane, type Middleware } from './catalogue/suggest-fast-lane.js';
import { ListFastLane } from './catalogue/list-fast-lane.js';
import { StorefrontCatalogueService } from './catalogue/storefront-catalogue.service.js';
import { Extensions } from './extensions/index.js';
import { ReadReplicas } from './database/read-replicas.js';
import { SearchSuggestService } from './catalogue/search-suggest.service.js';
import { TenancyService } from './tenancy/index.js';
import type { Server } from 'node:http';
import type { HttpLogger } from 'pino-http';

export const API_VERSION = '2026-04-01';
export const API_PREFIX = `api/${API_VERSION}`;

export interface CreateAppOptions extends DataSourceExtras {
  config: AppConfig;
  databaseUrl: string;
  /** Extension modules: they may subscribe to events and add endpoints behind the same guards and envelopes. */
  imports?: Array<Type | DynamicModule>;
  /** Where the JSON log lines go (default stdout). */
  logDestination?: DestinationStream;
  /** Run the migrations first (default); a cluster worker's primary has run them already. */
  migrate?: boolean;
  /**
   * The OpenAPI document of an app built from the same code and modules (`openApiDocumentOf`), served and used as is
   * instead of being generated again (half of an app's start time). For the e2e tests, which build one app per file.
   */
  openApiDocument?: OpenAPIObject;
}

/** Builds the whole service (migrated, configured, not yet listening); main.ts, the CLI and the tests share it. */
export async function createShopApp(options: CreateAppOptions): Promise<NestExpressApplication> {
  if (options.migrate !== false) await runMigrations(options.databaseUrl, options);
  const logger = createRootLogger(options.config.LOG_LEVEL, options.logDestination);
  // requests and responses born with Express's prototypes (src/common/http/express-adapter.ts)
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(options), new ShopExpressAdapter(), {
    bodyParser: false,
    logger: new PinoNestLogger(logger),
    // a failing call on the app rejects (main.ts prints its message and stops what it started) instead of exiting here
    abortOnError: false,
  });
  // the middleware before the router, also run by the suggest fast lane (src/catalogue/suggest-fast-lane.ts)
  const auth = app.get(AuthService);
  const metrics = httpMetricsMiddleware(app.get(Metrics));
  const log = requestLogger(logger) as Middleware;
  const compression = compressionMiddleware(options.config.COMPRESSION);
  const rateLimit = rateLimitMiddleware(options.config, app.get(RateLimitStore), async (req, token) => {
    const principal = await auth.resolveFor(req, token);
    return principal ? `${principal.kind}:${principal.tokenId}` : null;
  });
  const cookies = cookieParser(options.config.APP_SECRET) as Middleware;
  const buyers = buyersFirst(options.config.CATALOGUE_READS_WHILE_BUYING, `/${API_PREFIX}`) as Middleware;
  app.use(metrics);
  app.use(log);
  // cart and checkout requests ahead of catalogue reads (README, "Buyers first")
  app.use(buyers);
  app.use(compression);
  serveStorefrontDemo(app, options.config);
  app.use(traceRequestMiddleware);
  app.use(rateLimit);
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxySetting(options.config.TRUST_PROXY));
  answerClientErrors(app.getHttpServer());
  app.set('query parser', 'extended');
  parseQueryOncePerRequest((app.getHttpAdapter().getInstance() as { request: object }).request);
  app.use(cookies);
  app.setGlobalPrefix(API_PREFIX, {
    exclude: [
      { path: 'health', method: RequestMethod.GET },
      { path: 'health/ready', method: RequestMethod.GET },
      { path: 'metrics', method: RequestMethod.GET },
      { path: 'storefront/{*path}', method: RequestMethod.ALL },
    ],
  });
  // signals are main.ts's (src/shutdown.ts: drain requests, close the app, stop the embedded PostgreSQL last)
  setupOpenApi(app, options.openApiDocument);
  await app.init();
  const express = app.getHttpAdapter().getInstance();
  captureRoutes(express);
  express.use(notFoundFallback);
  express.use(errorFallback);
  // kept suggest answers in front of Express (README "Search"); buyers first does not gate /search
  const lane = new SuggestFastLane({
    path: `/${API_PREFIX}/search/suggest`,
    express,
    chain: [metrics, log, compression, traceRequestMiddleware, rateLimit, cookies],
    requestLog: log as unknown as HttpLogger,
    auth,
    tenancy: app.get(TenancyService),
    suggestions: app.get(SearchSuggestService),
  });
  lanes.set(app, lane);
  lane.enabled = options.config.SUGGEST_FAST_LANE;
  lane.install(app.getHttpServer() as Server);
  // the storefront's product lists in front of Express too (README "Search"); these are gated by buyers first
  const replicas = app.get(ReadReplicas);
  const listLane = new ListFastLane({
    path: `/${API_PREFIX}/products`,
    express,
    chain: [metrics, log, buyers, compression, traceRequestMiddleware, rateLimit, cookies],
    requestLog: log as unknown as HttpLogger,
    auth,
    tenancy: app.get(TenancyService),
    extensions: app.get(Extensions),
    catalogue: app.get(StorefrontCatalogueService),
    publicUrl: options.config.PUBLIC_URL,
    replicas: () => replicas.enabled,
  });
  listLanes.set(app, listLane);
  listLane.enabled = options.config.LIST_FAST_LANE;
  listLane.install(app.getHttpServer() as Server);
  return app;
}

/** Each app's OpenAPI document, built on first need (`setupOpenApi`). */
const documents = new WeakMap<INestApplication, () => OpenAPIObject>();
const lanes = new WeakMap<INestApplication, SuggestFastLane>();
const listLanes = new WeakMap<INestApplication, ListFastLane>();

/** The app's list fast lane (tests switch it off to compare with the Nest path and count what it served). */
export function listFastLaneOf(app: INestApplication): ListFastLane {
  const lane = listLanes.get(app);
  if (!lane) throw new Error('the app was not created by createShopApp');
  return lane;
}

/** The app's suggest fast lane (tests switch it off to compare with the Nest path and count what it served). */
export function suggestFastLaneOf(app: INestApplication): SuggestFastLane {
  const lane = lanes.get(app);
  if (!lane) throw new Error('the app was not created by createShopApp');
  return lane;
}

/** The published OpenAPI document of an app (what GET /api/<version>/openapi.json serves). */
export function openApiDocumentOf(app: INestApplication): OpenAPIObject {
  const document = documents.get(app);
  if (!document) throw new Error('the app was not created by createShopApp');
  return document();
}

/**
 * Serves the document at `/api/<version>/openapi.json` and the docs UI. Generating it scans every controller and DTO
 * (about 2 CPU s, as much as the rest of a start): it is built on its first request or `openApiDocumentOf` call, not at
 * start, so a server process (a cluster worker, a restarted one, a CLI-started one) is up in half the time.
 */
function setupOpenApi(app: INestApplication, prebuilt?: OpenAPIObject): void {
  let built = prebuilt;
  const document = () => (built ??= buildOpenApiDocument(app));
  documents.set(app, document);
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: `${API_PREFIX}/openapi.json`, useGlobalPrefix: false });
}

/** Generates the OpenAPI document of an app's modules (what `openApiDocumentOf` returns unless one was passed in). */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const doc = new DocumentBuilder()
    .setTitle('Commerce service API')
    .setDescription('Admin, storefront and customer tiers of a multi-tenant wine shop back end. See README.md and SPEC.md.')
    .setVersion(API_VERSION)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'vnstat_ admin token' }, 'admin')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Service-Access-Token', description: 'vnstat_ admin token' }, 'admin-header')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'optional vnstss_ storefront token' }, 'storefront')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'vnscat_ shopper token' }, 'customer')
    .build();
  const document = finalizeOpenApi(SwaggerModule.createDocument(app, doc), { serverUrl: '/', apiPrefix: API_PREFIX, schemas: IMPORT_SCHEMAS });
  // the webhook payload of every topic (`data` of a delivery), from DomainEventMap's documentation (README, "Domain events")
  return Object.assign(document, { 'x-webhook-payloads': DOMAIN_EVENT_PAYLOADS });
}

/** The service's modules without HTTP, for the CLI and jobs. */
export async function createShopContext(options: CreateAppOptions): Promise<INestApplicationContext> {
  await runMigrations(options.databaseUrl, options);
  const logger = createRootLogger(options.config.LOG_LEVEL, options.logDestination);
  return NestFactory.createApplicationContext(AppModule.forRoot(options), { logger: new PinoNestLogger(logger) });
}
