import type { DynamicModule, Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { DestinationStream } from 'pino';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';
import { DataSource } from 'typeorm';
import { createShopApp, openApiDocumentOf } from '../../src/app.js';
import { ProvisionedShop, ProvisioningService } from '../../src/auth/provisioning.service.js';
import { AppConfig, loadConfig } from '../../src/config/app-config.js';
import { createTestDatabase } from './database.js';
import { ResponseValidator } from './openapi-validator.js';

export const API = '/api/2026-04-01';

export interface TestShop extends ProvisionedShop {
  /** supertest agent with the shop's admin token. */
  admin: ShopClient;
  /** supertest agent with the shop's storefront token (keeps cookies, like a browser). */
  storefront: ShopClient;
}

/** Request helpers bound to one token; paths are relative to /api/2026-04-01. */
export class ShopClient {
  readonly agent: TestAgent;
  constructor(
    readonly app: TestApp,
    readonly token: string | null,
  ) {
    this.agent = request.agent(app.server);
  }
  private auth<T extends { set: (k: string, v: string) => T }>(req: T): T {
    return this.token ? req.set('Authorization', `Bearer ${this.token}`) : req;
  }
  get(path: string) {
    return this.auth(this.agent.get(API + path));
  }
  post(path: string, body?: object | string) {
    const r = this.auth(this.agent.post(API + path));
    return body === undefined ? r : r.send(body);
  }
  put(path: string, body?: object | string) {
    const r = this.auth(this.agent.put(API + path));
    return body === undefined ? r : r.send(body);
  }
  delete(path: string) {
    return this.auth(this.agent.delete(API + path));
  }
}

export interface TestApp {
  app: NestExpressApplication;
  server: ReturnType<NestExpressApplication['getHttpServer']>;
  config: AppConfig;
  db: DataSource;
  /** A raw supertest handle on the server (absolute paths). */
  http: () => ReturnType<typeof request>;
  createShop(input?: { name?: string; handle?: string; domain?: string }): Promise<TestShop>;
  /** A client with any token (or none). */
  client(token: string | null): ShopClient;
  get<T>(type: Type<T>): T;
  /** The URL of this test file's own database. */
  databaseUrl: string;
  close(): Promise<void>;
}

let counter = 0;

/** The whole service on a database of its own, cloned from the migrated template. One per test file. */
export async function createTestApp(
  options: {
    config?: Partial<AppConfig>;
    imports?: Array<Type | DynamicModule>;
    entities?: unknown[];
    migrations?: unknown[];
    logDestination?: DestinationStream;
  } = {},
): Promise<TestApp> {
  const server = process.env.TEST_DATABASE_SERVER;
  if (!server) throw new Error('TEST_DATABASE_SERVER is not set: run the tests through `npm test`');
  const database = await createTestDatabase(server);
  const config = loadConfig(
    {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      RATE_LIMIT: 'off',
      PAYMENT_TEST_PROVIDER: 'on',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'on',
      // a loaded test machine: bursts of concurrent requests (100 stock adjusts on one row) may wait longer for a pool
      // connection than the production default of 5 s; slow-readers.ops.e2e-spec.ts tests the 503 with its own value
      DATABASE_ACQUIRE_TIMEOUT_MS: '30000',
    },
    options.config ?? {},
  );
  const app = await createShopApp({
    config,
    databaseUrl: database.url,
    imports: options.imports,
    entities: options.entities as never,
    migrations: options.migrations as never,
    logDestination: options.logDestination,
  });
  const httpServer = app.getHttpServer();
  new ResponseValidator(openApiDocumentOf(app)).install(httpServer);
  const t: TestApp = {
    app,
    server: httpServer,
    config,
    db: app.get(DataSource),
    http: () => request(httpServer),
    client: (token) => new ShopClient(t, token),
    get: (type) => app.get(type),
    databaseUrl: database.url,
    async createShop(input = {}) {
      counter += 1;
      const name = input.name ?? `Shop ${counter}`;
      const shop = await app
        .get(ProvisioningService)
        .createShop({ name, handle: input.handle ?? `shop-${counter}-${Date.now().toString(36)}`, domain: input.domain });
      return { ...shop, admin: new ShopClient(t, shop.admin_token), storefront: new ShopClient(t, shop.storefront_token) };
    },
    async close() {
      await app.close();
      await database.drop();
    },
  };
  return t;
}
