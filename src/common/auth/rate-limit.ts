import { CanActivate, ExecutionContext, Injectable, OnModuleDestroy, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import { AppConfig } from '../../config/app-config.js';
import { AppError } from '../http/app-error.js';

export const SKIP_RATE_LIMIT = 'rate-limit:skip';
/** Exempts a route (health probes) from the rate limit. */
export const SkipRateLimit = () => SetMetadata(SKIP_RATE_LIMIT, true);

export interface BucketResult {
  allowed: boolean;
  remaining: number;
  /** Seconds until one token is back (when refused). */
  retryAfter: number;
}

/** Where buckets live; in-process by default, shareable across instances by another implementation. */
export abstract class RateLimitStore {
  abstract take(key: string, burst: number, refillPerSecond: number): Promise<BucketResult>;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Default bound of the in-process store: beyond it the least recently used bucket is dropped. */
export const MAX_MEMORY_BUCKETS = 100_000;

/** CONTRACT 3's token bucket in this process's memory, bounded to `maxBuckets` entries (least recently used dropped). */
@Injectable()
export class MemoryRateLimitStore extends RateLimitStore implements OnModuleDestroy {
  private readonly buckets = new Map<string, Bucket>();
  private readonly sweeper = setInterval(() => this.sweep(), 60_000).unref();

  constructor(readonly maxBuckets = MAX_MEMORY_BUCKETS) {
    super();
  }

  get size(): number {
    return this.buckets.size;
  }

  async take(key: string, burst: number, refillPerSecond: number): Promise<BucketResult> {
    const now = Date.now();
    const bucket = this.buckets.get(key) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * refillPerSecond);
    bucket.at = now;
    // re-inserted so the Map's order is least recently used first
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    while (this.buckets.size > this.maxBuckets) this.buckets.delete(this.buckets.keys().next().value!);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, remaining: Math.floor(bucket.tokens), retryAfter: 0 };
    }
    return { allowed: false, remaining: 0, retryAfter: Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerSecond)) };
  }

  private sweep(): void {
    const cutoff = Date.now() - 10 * 60_000;
    for (const [key, bucket] of this.buckets) if (bucket.at < cutoff) this.buckets.delete(key);
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }
}

export interface RateLimitPolicy {
  name: string;
  burst: number;
  refillPerSecond: number;
}

export const RATE_LIMIT_POLICY = 'rate-limit:policy';
/** A stricter bucket of its own for a route (sign-in, registration), keyed by IP. */
export const RateLimitPolicyFor = (policy: RateLimitPolicy) => SetMetadata(RATE_LIMIT_POLICY, policy);

/** Verifies a presented credential; the id of the live token it names, or null for anything unknown or malformed. */
export type CredentialVerifier = (req: Request, token: string) => Promise<string | null>;

/**
 * CONTRACT 3's default bucket: per verified token or, when anonymous, per IP; one bucket across every route. A
 * credential is verified before it picks a bucket (the lookup is shared with the API guard), so an unknown or
 * malformed one counts against its IP: made-up tokens never get fresh buckets. `X-Service-Access-Token` counts only
 * on admin paths, where it is accepted. It runs first in the chain (before body parsing and routing), so every
 * response — a malformed body's 422 and an unknown path's 404 included — carries X-RateLimit-Limit and
 * X-RateLimit-Remaining; a refusal is 429 with Retry-After. Health probes are exempt.
 */
export function rateLimitMiddleware(
  config: AppConfig,
  store: RateLimitStore,
  verify: CredentialVerifier,
): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    if (!config.RATE_LIMIT || /^\/health(\/|$)/.test(req.path)) return next();
    tracker(req, verify)
      .then((key) => store.take(`default:${key}`, config.RATE_LIMIT_BURST, config.RATE_LIMIT_REFILL_PER_SECOND))
      .then((result) => {
        res.setHeader('X-RateLimit-Limit', String(config.RATE_LIMIT_BURST));
        res.setHeader('X-RateLimit-Remaining', String(result.remaining));
        if (result.allowed) return next();
        res.setHeader('Retry-After', String(result.retryAfter));
        res.status(429).json({ errors: 'rate limit exceeded' });
      })
      .catch(next);
  };
}

/** The stricter per-IP bucket of a route marked with `RateLimitPolicyFor` (sign-in, registration), on top of the default one. */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly config: AppConfig,
    private readonly store: RateLimitStore,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!this.config.RATE_LIMIT) return true;
    const targets = [context.getHandler(), context.getClass()];
    const policy = this.reflector.getAllAndOverride<RateLimitPolicy | undefined>(RATE_LIMIT_POLICY, targets);
    if (!policy || this.reflector.getAllAndOverride<boolean>(SKIP_RATE_LIMIT, targets)) return true;
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    const result = await this.store.take(`${policy.name}:ip:${req.ip ?? 'unknown'}`, policy.burst, policy.refillPerSecond);
    res.setHeader('X-RateLimit-Limit', String(policy.burst));
    res.setHeader('X-RateLimit-Remaining', String(result.remaining));
    if (!result.allowed) throw new AppError(429, 'rate limit exceeded', undefined, { 'Retry-After': String(result.retryAfter) });
    return true;
  }
}

const ADMIN_PATH = /^\/api\/[^/]+\/admin(\/|$)/;

/** The bucket of a request: its verified token's id, else its client IP (as `trust proxy` allows it to be known). */
async function tracker(req: Request, verify: CredentialVerifier): Promise<string> {
  const token = presentedToken(req);
  const tokenId = token ? await verify(req, token) : null;
  return tokenId ? `t:${tokenId}` : `ip:${req.ip ?? 'unknown'}`;
}

function presentedToken(req: Request): string | null {
  const auth = req.headers.authorization;
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    return m ? m[1] : null;
  }
  const header = req.headers['x-service-access-token'];
  if (typeof header === 'string' && header.trim() && ADMIN_PATH.test(req.path)) return header.trim();
  return null;
}
