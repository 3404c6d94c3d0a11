import { CanActivate, ExecutionContext, Injectable, OnModuleDestroy, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { createHash } from 'node:crypto';
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

interface Bucket { tokens: number; at: number }

/** CONTRACT 3's token bucket in this process's memory. */
@Injectable()
export class MemoryRateLimitStore extends RateLimitStore implements OnModuleDestroy {
  private readonly buckets = new Map<string, Bucket>();
  private readonly sweeper = setInterval(() => this.sweep(), 60_000).unref();

  async take(key: string, burst: number, refillPerSecond: number): Promise<BucketResult> {
    const now = Date.now();
    const bucket = this.buckets.get(key) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * refillPerSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
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

/**
 * CONTRACT 3's default bucket: per token (hashed) or, when anonymous, per IP; one bucket across every route. It runs
 * first in the chain (before body parsing and routing), so every response — a malformed body's 422 and an unknown
 * path's 404 included — carries X-RateLimit-Limit and X-RateLimit-Remaining; a refusal is 429 with Retry-After.
 * Health probes are exempt.
 */
export function rateLimitMiddleware(config: AppConfig, store: RateLimitStore): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    if (!config.RATE_LIMIT || /^\/health(\/|$)/.test(req.path)) return next();
    store
      .take(`default:${tracker(req)}`, config.RATE_LIMIT_BURST, config.RATE_LIMIT_REFILL_PER_SECOND)
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

function tracker(req: Request): string {
  const auth = req.headers.authorization ?? req.headers['x-service-access-token'];
  if (typeof auth === 'string' && auth.trim()) return `t:${createHash('sha256').update(auth.trim().replace(/^Bearer\s+/i, '')).digest('base64url')}`;
  return `ip:${req.ip ?? 'unknown'}`;
}
