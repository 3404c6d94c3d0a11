import { Logger, OnApplicationShutdown, Provider } from '@nestjs/common';
import { Redis } from 'ioredis';
import { AppConfig } from '../../config/app-config.js';
import { BucketResult, MemoryRateLimitStore, RateLimitStore } from '../auth/rate-limit.js';

/**
 * The token bucket of `MemoryRateLimitStore`, atomically in Redis: one hash per key (`tokens`, `at` in ms), refilled
 * by elapsed time, decremented when a token is there, expiring once it would be full again. Redis's own clock is
 * used (`TIME`), so instances with skewed clocks share one bucket correctly.
 * KEYS[1] bucket; ARGV burst, refill per second. Returns {allowed 0|1, tokens*1000 (floor), retry-after seconds}.
 */
const TAKE_SCRIPT = `
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = burst
  at = now
end
local elapsed = now - at
if elapsed < 0 then elapsed = 0 end
tokens = math.min(burst, tokens + elapsed / 1000 * rate)
local allowed = 0
local retry = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  retry = math.ceil((1 - tokens) / rate)
  if retry < 1 then retry = 1 end
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate * 1000) + 1000)
return {allowed, math.floor(tokens * 1000), retry}
`;

/** How long a Redis call may take before the request goes on without it (fail open). */
const COMMAND_TIMEOUT_MS = 250;
const WARN_EVERY_MS = 30_000;

/**
 * Rate-limit buckets shared by every instance through Redis (`REDIS_URL`), with the `ioredis` client. A Redis
 * outage fails open: the request is allowed (remaining = burst), a warning is logged at most every 30 s, and the
 * client reconnects in the background. Commands time out after 250 ms and are never queued while disconnected.
 */
export class RedisRateLimitStore extends RateLimitStore implements OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly redis: Redis;
  private lastWarn = 0;
  /** Requests let through because Redis did not answer (tests and diagnostics). */
  failedOpen = 0;

  constructor(
    url: string,
    private readonly prefix = 'vinoshop:rl:',
  ) {
    super();
    this.redis = new Redis(url, {
      enableOfflineQueue: false,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: 1_000,
      maxRetriesPerRequest: 0,
      retryStrategy: (times) => Math.min(times * 200, 2_000),
      lazyConnect: false,
    });
    this.redis.defineCommand('vinoshopTakeToken', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    this.redis.on('error', (err: Error) => this.warn(`Redis error: ${err.message}`));
  }

  async take(key: string, burst: number, refillPerSecond: number): Promise<BucketResult> {
    try {
      const redis = this.redis as unknown as { vinoshopTakeToken(key: string, burst: number, rate: number): Promise<[number, number, number]> };
      const [allowed, milliTokens, retry] = await redis.vinoshopTakeToken(this.prefix + key, burst, refillPerSecond);
      return { allowed: allowed === 1, remaining: Math.floor(milliTokens / 1000), retryAfter: allowed === 1 ? 0 : retry };
    } catch (err) {
      this.failedOpen += 1;
      this.warn(`rate limit not enforced: Redis unavailable (${(err as Error).message})`);
      return { allowed: true, remaining: burst, retryAfter: 0 };
    }
  }

  /** Resolves when connected (tests); rejects after `ms`. */
  async ready(ms = 2_000): Promise<void> {
    if (this.redis.status === 'ready') return;
    await new Promise<void>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error('Redis not ready')), ms);
      this.redis.once('ready', () => {
        clearTimeout(timer);
        ok();
      });
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.redis.disconnect();
  }

  private warn(message: string): void {
    const now = Date.now();
    if (now - this.lastWarn < WARN_EVERY_MS) return;
    this.lastWarn = now;
    this.logger.warn(message);
  }
}

/** The `RateLimitStore` of the app: Redis when `REDIS_URL` is set, this process's memory otherwise. */
export const rateLimitStoreProvider: Provider = {
  provide: RateLimitStore,
  useFactory: (config: AppConfig) => (config.REDIS_URL ? new RedisRateLimitStore(config.REDIS_URL) : new MemoryRateLimitStore()),
  inject: [AppConfig],
};
