import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, Min, MinLength, validateSync } from 'class-validator';

export const DEV_SECRET = 'dev-only-secret-change-me-in-production';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
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

  @Transform(toInt) @IsInt() @Min(0) @Max(65535)
  PORT = 3000;

  @IsString()
  HOST = '127.0.0.1';

  /** postgres://user:pass@host:port/db; unset means the embedded PostgreSQL under DATA_DIR. */
  @IsOptional() @IsString()
  DATABASE_URL?: string;

  @IsString()
  DATA_DIR = './data';

  @Transform(toInt) @IsInt() @Min(1) @Max(65535)
  EMBEDDED_PG_PORT = 54329;

  /** Signs cursors and hashes tokens; all instances of one deployment must share it. */
  @IsString() @MinLength(16)
  APP_SECRET = DEV_SECRET;

  /** `on` (default) or `off` (benchmarks). */
  @Transform(toBool) @IsBoolean()
  RATE_LIMIT = true;

  @Transform(toInt) @IsInt() @Min(1)
  RATE_LIMIT_BURST = 40;

  @Transform(toInt) @IsInt() @Min(1)
  RATE_LIMIT_REFILL_PER_SECOND = 4;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /** Trust X-Forwarded-* from a proxy in front (for the Link header's absolute URL and client IPs). */
  @Transform(toBool) @IsBoolean()
  TRUST_PROXY = false;

  @IsOptional() @IsString()
  SMTP_URL?: string;

  /** Webhook and domain-event worker: poll interval in ms (commits also wake it at once). */
  @Transform(toInt) @IsInt() @Min(10)
  WEBHOOK_POLL_MS = 1000;

  /** Timeout of one webhook delivery attempt in ms. */
  @Transform(toInt) @IsInt() @Min(100)
  WEBHOOK_TIMEOUT_MS = 10_000;

  /** First retry delay in ms; doubles per attempt (capped at 1 h), with jitter. */
  @Transform(toInt) @IsInt() @Min(1)
  WEBHOOK_RETRY_BASE_MS = 10_000;

  /** How long after the event retries go on (24 h); then the subscription is marked failing. */
  @Transform(toInt) @IsInt() @Min(1)
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
  @Transform(toInt) @IsInt() @Min(0)
  REPLICA_MAX_LAG_MS = 5_000;

  /** How often each replica's health and lag are measured (ms). */
  @Transform(toInt) @IsInt() @Min(100)
  REPLICA_CHECK_MS = 2_000;

  /** redis://host:port/db shared by every instance for the rate-limit buckets; empty = in-process buckets. */
  @IsString()
  REDIS_URL = '';

  /** How long a cached storefront catalogue result (facet counts, price range, match sets) is served (ms); 0 = no cache. */
  @Transform(toInt) @IsInt() @Min(0)
  CATALOGUE_CACHE_TTL_MS = 10_000;
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(new AppConfig())) {
    if (env[key] !== undefined) raw[key] = env[key];
  }
  for (const key of ['DATABASE_URL', 'SMTP_URL'] as const) if (env[key]) raw[key] = env[key];
  const config = plainToInstance(AppConfig, { ...raw, ...overrides });
  const errors = validateSync(config, { whitelist: true, forbidUnknownValues: false });
  if (errors.length > 0) {
    const lines = errors.map((e) => `  ${e.property}=${JSON.stringify(e.value)}: ${Object.values(e.constraints ?? {}).join('; ')}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  if (config.NODE_ENV === 'production' && config.APP_SECRET === DEV_SECRET) {
    throw new ConfigError('Invalid configuration:\n  APP_SECRET must be set to a private value when NODE_ENV=production');
  }
  return config;
}
