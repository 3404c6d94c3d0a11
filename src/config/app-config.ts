import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString, Matches, Max, Min, MinLength, validateSync, ValidateBy } from 'class-validator';
import { trustProxyProblem } from './trust-proxy.js';

export const DEV_SECRET = 'dev-only-secret-change-me-in-production';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
const toNumber = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
const toBool = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'boolean') return value;
  const s = String(value).toLowerCase();
  if (['1', 'true', 'on', 'yes'].includes(s)) return true;
  if (['0', 'false', 'off', 'no'].includes(s)) return false;
  return value;
};

/** The environment, validated once at boot; a bad value stops the process with a clear message. */
export class AppConfig {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  HOST = '127.0.0.1';

  /** postgres://user:pass@host:port/db; unset means the embedded PostgreSQL under DATA_DIR. */
  @IsOptional()
  @IsString()
  DATABASE_URL?: string;

  @IsString()
  DATA_DIR = './data';

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(65535)
  EMBEDDED_PG_PORT = 54329;

  /**
   * Server processes on PORT (`node:cluster`): an integer, or `auto` for the number of cores. With more than one, the
   * primary starts the embedded PostgreSQL and runs the migrations once, then forks that many workers ("Workers").
   */
  @Transform(({ value }: { value: unknown }) =>
    value === undefined || value === '' ? undefined : String(value).toLowerCase() === 'auto' ? 'auto' : Number(value),
  )
  @ValidateBy({
    name: 'isWorkerCount',
    validator: {
      validate: (v: unknown) => v === 'auto' || (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 64),
      defaultMessage: () => 'WORKERS must be an integer from 1 to 64, or auto (the number of cores)',
    },
  })
  WORKERS: number | 'auto' = 1;

  /** Signs cursors and hashes tokens; all instances of one deployment must share it. */
  @IsString()
  @MinLength(16)
  APP_SECRET = DEV_SECRET;

  /** `on` (default) or `off` (benchmarks). */
  @Transform(toBool)
  @IsBoolean()
  RATE_LIMIT = true;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_BURST = 40;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_REFILL_PER_SECOND = 4;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /**
   * Which proxies in front may set X-Forwarded-* (client IP, scheme, host): empty = none; a hop count (`1`) or a
   * comma-separated list of proxy addresses / CIDRs (`10.0.0.0/8,127.0.0.1`), none wider than /8 (IPv4) or /32 (IPv6), never every hop.
   */
  @Transform(({ value }: { value: unknown }) => (value === undefined ? undefined : String(value).trim()))
  @IsString()
  @ValidateBy({
    name: 'trustProxy',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && trustProxyProblem(value) === null,
      defaultMessage: (args) => trustProxyProblem(String(args?.value)) ?? 'must be a string',
    },
  })
  TRUST_PROXY = '';

  /** `on` registers the built-in test payment provider for `redirect` payment types (tests, demo); never in production. */
  @Transform(toBool)
  @IsBoolean()
  PAYMENT_TEST_PROVIDER = false;

  /** `on` lets webhooks target loopback, private, link-local and other internal addresses (tests, on-premise). */
  @Transform(toBool)
  @IsBoolean()
  WEBHOOK_ALLOW_PRIVATE_TARGETS = false;

  /** Scheme and host of the service as the public sees it (`https://shop.example`); links use it instead of the request's Host. */
  @IsOptional()
  @Matches(/^https?:\/\/[^/?#\s]+$/, { message: 'PUBLIC_URL must be scheme://host[:port] without a path' })
  PUBLIC_URL?: string;

  @IsOptional()
  @IsString()
  SMTP_URL?: string;

  /** Webhook and domain-event worker: poll interval in ms (commits also wake it at once). */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  WEBHOOK_POLL_MS = 1000;

  /** Time a `TaxProvider` may take before the shop's own tax tables answer instead (warning logged, metric counted). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  TAX_PROVIDER_TIMEOUT_MS = 2000;

  /** Timeout of one webhook delivery attempt in ms. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  WEBHOOK_TIMEOUT_MS = 10_000;

  /** How long a shipping method's carrier rate provider may take (ms) before its own rate table applies. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  SHIPPING_RATE_PROVIDER_TIMEOUT_MS = 2000;

  /** First retry delay in ms; doubles per attempt (capped at 1 h), with jitter. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  WEBHOOK_RETRY_BASE_MS = 10_000;

  /** How long after the event retries go on (24 h); then the subscription is marked failing. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  WEBHOOK_RETRY_WINDOW_MS = 86_400_000;

  /** Where theme binary asset bytes live: `postgres` (default, a bytea table) or `filesystem` (THEME_ASSET_DIR). */
  @IsIn(['postgres', 'filesystem'])
  THEME_ASSET_STORE: 'postgres' | 'filesystem' = 'postgres';

  /** Directory of the filesystem theme asset store; empty means `<DATA_DIR>/theme-assets`. */
  @IsString()
  THEME_ASSET_DIR = '';

  /** Streaming replicas for storefront catalogue reads: comma-separated postgres:// URLs; empty = primary only. */
  @IsString()
  DATABASE_REPLICA_URLS = '';

  /** A replica further behind the primary than this (ms) is skipped until it catches up. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  REPLICA_MAX_LAG_MS = 5_000;

  /** How often each replica's health and lag are measured (ms). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  REPLICA_CHECK_MS = 2_000;

  /** redis://host:port/db shared by every instance for the rate-limit buckets; empty = in-process buckets. */
  @IsString()
  REDIS_URL = '';

  /** How often the cleanup job runs (ms); 0 = never (it runs on one instance at a time). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  CLEANUP_INTERVAL_MS = 3_600_000;

  /** Rows deleted per cleanup statement. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  CLEANUP_BATCH_SIZE = 1_000;

  /** Expired shopper tokens and one-time codes are deleted this long after expiry (ms). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  CLEANUP_EXPIRED_TOKENS_AFTER_MS = 0;

  /** Idempotency keys (and their sealed answers) are deleted this long after creation (ms; 24 h). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  CLEANUP_IDEMPOTENCY_KEYS_AFTER_MS = 86_400_000;

  /** Outbox events nothing waits on any more, and webhook delivery attempts, are deleted after this age (ms; 30 days). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  CLEANUP_EVENTS_AFTER_MS = 2_592_000_000;

  /** Anonymous carts untouched this long are deleted (ms; 90 days). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  CLEANUP_ANONYMOUS_CARTS_AFTER_MS = 7_776_000_000;

  /** An unconfirmed redirect payment is voided this many minutes after placement (order cancelled, stock and code released). */
  @Transform(toNumber)
  @IsNumber()
  @Min(0.001)
  PAYMENT_PENDING_TTL_MINUTES = 60;

  /** How often the payment-expiry job looks for expired redirect payments (ms). */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  PAYMENT_EXPIRY_CHECK_MS = 60_000;

  /** Memory budget (MB) of the in-memory catalogue indexes of all tenants together (layout copies being made included); the least recently used tenant is dropped beyond it. */
  @Transform(toInt)
  @IsNumber()
  @Min(1)
  CATALOGUE_INDEX_MEMORY_MB = 512;

  /** While a cart or checkout request is in flight, at most this many catalogue reads are evaluated at once (the others wait their turn); 0 = no gate. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  CATALOGUE_READS_WHILE_BUYING = 1;

  /** Memory budget (MB) of the hydrated product JSON cache (per product, language and currency). */
  @Transform(toInt)
  @IsNumber()
  @Min(1)
  CATALOGUE_PRODUCT_CACHE_MB = 128;

  /** Products one shop may hold (archived ones included); the import and `POST /admin/products` refuse more with 422. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  TENANT_MAX_PRODUCTS = 1_000_000;

  /** Catalogue exports one shop may run at once (per instance); one more is 429 with `Retry-After`. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  EXPORT_CONCURRENCY_PER_TENANT = 2;

  /** An export whose client reads nothing (or whose snapshot read makes no progress) for this long (ms) is aborted. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  EXPORT_STALL_TIMEOUT_MS = 30_000;

  /** Connections in the service's PostgreSQL pool (per instance; replicas get as many each). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  DATABASE_POOL_SIZE = 20;

  /** A request that cannot get a database connection from the pool within this (ms) answers 503 with `Retry-After`. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  DATABASE_ACQUIRE_TIMEOUT_MS = 5_000;

  /** PostgreSQL's `idle_in_transaction_session_timeout` for the service's sessions (ms): a transaction left idle this long is ended by the server. */
  @Transform(toInt)
  @IsInt()
  @Min(1_000)
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;

  /** `on`: the order flow's statements kept prepared per connection (src/database/prepared-statements.ts); `off`: none. */
  @Transform(toBool) @IsBoolean() DATABASE_PREPARED_STATEMENTS = true;

  /** The longest line of an NDJSON import (bytes); a longer one is 413 naming its line number. */
  @Transform(toInt)
  @IsInt()
  @Min(1_024)
  IMPORT_NDJSON_MAX_LINE_BYTES = 2 * 1024 * 1024;

  /** The most lines one NDJSON import may have; more is 413. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  IMPORT_NDJSON_MAX_LINES = 1_000_000;

  /** Bearer token that opens GET /metrics on the API port; empty = /metrics is not served there (404). */
  @IsString()
  METRICS_TOKEN = '';

  /** Serve GET /metrics on a port of its own (on METRICS_HOST); 0 = no metrics port. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  METRICS_PORT = 0;

  /** Interface of the metrics port. */
  @IsString()
  METRICS_HOST = '127.0.0.1';

  /** A query slower than this (ms) writes one `slow query` log line with its statement (never its values). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  SLOW_QUERY_MS = 500;

  /**
   * scrypt cost of new password hashes, as log2 N (r = 8, p = 3): 15 is OWASP's row (32 MiB and 100–400 ms of CPU a
   * hash). Stored hashes carry their own parameters, so a change never locks anyone out. Values below 15 are for test
   * runs (the test harness uses 10, in every mode its apps run in, production included).
   */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(20)
  PASSWORD_SCRYPT_COST = 15;

  /** On SIGTERM/SIGINT, how long in-flight requests may take before the remaining connections are cut (ms). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  SHUTDOWN_GRACE_MS = 10_000;

  /** `on` (default): JSON and text answers over 1 KB are compressed (Brotli or gzip, per Accept-Encoding); `off` for deployments whose proxy compresses. */
  @Transform(toBool)
  @IsBoolean()
  COMPRESSION = true;

  /** `on` (default): kept `GET /search/suggest` answers written in front of Express and Nest (README "Search"); `off`: all take the full path. */
  @Transform(toBool)
  @IsBoolean()
  SUGGEST_FAST_LANE = true;

  /** `on` (default): the storefront's `GET /products` answered in front of Express and Nest (README "Search"); `off`: all take the full path. */
  @Transform(toBool)
  @IsBoolean()
  LIST_FAST_LANE = true;

  /** `on`: serve the reference storefront's build (examples/storefront/dist) at /storefront-demo/. */
  @Transform(toBool)
  @IsBoolean()
  STOREFRONT_DEMO = false;

  /** `on` lets `STOREFRONT_DEMO=on` run with `NODE_ENV=production` (refused otherwise: it is a demo). */
  @Transform(toBool)
  @IsBoolean()
  STOREFRONT_DEMO_IN_PRODUCTION = false;

  /** Directory of that build; empty means examples/storefront/dist of this checkout. */
  @IsString()
  STOREFRONT_DEMO_DIR = '';
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(new AppConfig())) {
    if (env[key] !== undefined) raw[key] = env[key];
  }
  for (const key of ['DATABASE_URL', 'SMTP_URL', 'PUBLIC_URL'] as const) if (env[key]) raw[key] = env[key];
  const config = plainToInstance(AppConfig, { ...raw, ...overrides });
  const errors = validateSync(config, { whitelist: true, forbidUnknownValues: false });
  if (errors.length > 0) {
    // one line per problem, each naming its variable
    const lines = errors.map((e) => `Invalid configuration: ${e.property}=${JSON.stringify(e.value)}: ${Object.values(e.constraints ?? {}).join('; ')}`);
    throw new ConfigError(lines.join('\n'));
  }
  if (config.NODE_ENV === 'production' && config.APP_SECRET === DEV_SECRET) {
    throw new ConfigError('Invalid configuration: APP_SECRET must be set to a private value when NODE_ENV=production');
  }
  if (config.NODE_ENV === 'production' && !config.SMTP_URL) {
    throw new ConfigError(
      'Invalid configuration: SMTP_URL must be set when NODE_ENV=production: shopper mail carries sign-in codes, and the log transport is for development only',
    );
  }
  if (config.NODE_ENV === 'production' && config.PAYMENT_TEST_PROVIDER) {
    throw new ConfigError('Invalid configuration: PAYMENT_TEST_PROVIDER=on is refused when NODE_ENV=production: it lets buyers mark orders paid');
  }
  if (config.NODE_ENV === 'production' && config.STOREFRONT_DEMO && !config.STOREFRONT_DEMO_IN_PRODUCTION) {
    throw new ConfigError(
      "Invalid configuration: STOREFRONT_DEMO=on is refused when NODE_ENV=production unless STOREFRONT_DEMO_IN_PRODUCTION=on: it is a demo on the API's origin",
    );
  }
  return config;
}
