import { DynamicModule, INestApplication, INestApplicationContext, RequestMethod, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import { rateLimitMiddleware, RateLimitStore } from './common/auth/rate-limit.js';
import { createRootLogger, PinoNestLogger, requestLogger } from './common/http/logging.js';
import { AppModule } from './app.module.js';
import { captureRoutes, errorFallback, notFoundFallback } from './common/http/route-table.js';
import { AppConfig } from './config/app-config.js';
import { DataSourceExtras, runMigrations } from './database/data-source.js';

export const API_VERSION = '2026-04-01';
export const API_PREFIX = `api/${API_VERSION}`;

export interface CreateAppOptions extends DataSourceExtras {
  config: AppConfig;
  databaseUrl: string;
  /** Extension modules: they may subscribe to events and add endpoints behind the same guards and envelopes. */
  imports?: Array<Type | DynamicModule>;
}

/** Builds the whole service (migrated, configured, not yet listening); main.ts, the CLI and the tests share it. */
export async function createShopApp(options: CreateAppOptions): Promise<NestExpressApplication> {
  await runMigrations(options.databaseUrl, options);
  const logger = createRootLogger(options.config.LOG_LEVEL);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(options), { bodyParser: false, logger: new PinoNestLogger(logger) });
  app.use(requestLogger(logger));
  app.use(rateLimitMiddleware(options.config, app.get(RateLimitStore)));
  app.disable('x-powered-by');
  app.set('trust proxy', options.config.TRUST_PROXY);
  app.set('query parser', 'extended');
  app.use(cookieParser(options.config.APP_SECRET));
  app.setGlobalPrefix(API_PREFIX, {
    exclude: [
      { path: 'health', method: RequestMethod.GET },
      { path: 'health/ready', method: RequestMethod.GET },
      { path: 'storefront/{*path}', method: RequestMethod.ALL },
    ],
  });
  app.enableShutdownHooks();
  setupOpenApi(app);
  await app.init();
  const express = app.getHttpAdapter().getInstance();
  captureRoutes(express);
  express.use(notFoundFallback);
  express.use(errorFallback);
  return app;
}

function setupOpenApi(app: INestApplication): void {
  const doc = new DocumentBuilder()
    .setTitle('Commerce service API')
    .setDescription('Admin, storefront and customer tiers of a multi-tenant wine shop back end. See README.md and SPEC.md.')
    .setVersion(API_VERSION)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'vnstat_ admin token' }, 'admin')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Service-Access-Token', description: 'vnstat_ admin token' }, 'admin-header')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'optional vnstss_ storefront token' }, 'storefront')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'vnscat_ shopper token' }, 'customer')
    .build();
  const document = SwaggerModule.createDocument(app, doc);
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: `${API_PREFIX}/openapi.json`, useGlobalPrefix: false });
}

/** The service's modules without HTTP, for the CLI and jobs. */
export async function createShopContext(options: CreateAppOptions): Promise<INestApplicationContext> {
  await runMigrations(options.databaseUrl, options);
  const logger = createRootLogger(options.config.LOG_LEVEL);
  return NestFactory.createApplicationContext(AppModule.forRoot(options), { logger: new PinoNestLogger(logger) });
}
