import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import type { Request } from 'express';
import { catchError, concatMap, from, Observable, of, throwError } from 'rxjs';
import { DataSource } from 'typeorm';
import { AUTH_KEY, AuthOptions } from '../../common/auth/auth.decorator.js';
import { contextOf, RequestContext } from '../../common/context/request-context.js';
import { AppError } from '../../common/http/app-error.js';
import { Page } from '../../common/paging/page.js';
import { AppConfig } from '../../config/app-config.js';
import {
  claimIdempotencyKey,
  finishIdempotencyKey,
  idempotencyKeyRow,
  releaseIdempotencyKey,
  sweepIdempotencyKeys,
  type IdempotencyKeyId,
} from './idempotency.repository.js';

export const IDEMPOTENT_KEY = 'idempotency:enabled';
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const MAX_KEY_LENGTH = 255;
/** How long a key is kept. */
export const KEY_TTL = '24 hours';
/** An `in_progress` claim older than this is taken as abandoned (a crashed process) and may be taken over. */
const STALE_CLAIM = '2 minutes';
/** How long a retry waits for the first request before answering 409 `idempotency_key_in_progress`. */
const WAIT_MS = 15_000;
const POLL_MS = 25;

/** Marks a POST route as honouring `Idempotency-Key` (every admin POST does without it). */
export const Idempotent = () => SetMetadata(IDEMPOTENT_KEY, true);

type Stored = { type: 'result'; value: unknown } | { type: 'error'; status: number; message: string; code?: string };
/** What the `response` column holds: the Stored answer, encrypted. */
type Sealed = { sealed: string };

/**
 * `Idempotency-Key` (up to 255 characters) on every admin POST and on POST routes marked `@Idempotent()`; kept 24 h
 * per tenant and caller (the admin token; the shopper, else the visitor, on the storefront).
 *
 * The first request claims the key (a committed `in_progress` row) and runs; its answer (result, or a 4xx error) is
 * stored. A retry with the same key and the same request (method, path and query, body) gets that answer again
 * without the work being redone; with a different request it is 422 `idempotency_key_reused`; while the first still
 * runs, the retry waits for it (up to 15 s, then 409 `idempotency_key_in_progress`). A 5xx or unexpected failure
 * releases the key, so the retry runs again. The stored answer may hold a secret shown once (a minted token, a
 * webhook secret): it is kept sealed (AES-256-GCM, key derived from APP_SECRET), never as plaintext.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');
  private readonly key: Buffer;

  constructor(
    private readonly reflector: Reflector,
    private readonly dataSource: DataSource,
    config: AppConfig,
  ) {
    this.key = createHmac('sha256', config.APP_SECRET).update('idempotency-response').digest();
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> | Promise<Observable<unknown>> {
    if (context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<Request>();
    if (req.method !== 'POST') return next.handle();
    const targets = [context.getHandler(), context.getClass()];
    const auth = this.reflector.getAllAndOverride<AuthOptions | undefined>(AUTH_KEY, targets);
    const marked = this.reflector.getAllAndOverride<boolean | undefined>(IDEMPOTENT_KEY, targets);
    if (!auth || (!marked && auth.tier !== 'admin')) return next.handle();
    const raw = req.headers[IDEMPOTENCY_HEADER];
    if (raw === undefined) return next.handle();
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (!key || key.length > MAX_KEY_LENGTH) throw AppError.unprocessable(`the Idempotency-Key header must be 1 to ${MAX_KEY_LENGTH} characters`);
    return this.run(contextOf(req), key, requestHash(req), next);
  }

  private async run(ctx: RequestContext, key: string, hash: string, next: CallHandler): Promise<Observable<unknown>> {
    const id = { tenant: ctx.tenantId, caller: callerOf(ctx), key };
    const stored = await this.claimOrWait(id, hash);
    if (stored) return replay(stored);
    return next.handle().pipe(
      concatMap((result) => from(this.finish(id, { type: 'result', value: snapshot(result) })).pipe(concatMap(() => of(result)))),
      catchError((err: unknown) => {
        const answer =
          err instanceof AppError && err.status < 500 ? ({ type: 'error', status: err.status, message: err.message, code: err.code } as Stored) : null;
        return from(answer ? this.finish(id, answer) : this.release(id)).pipe(concatMap(() => throwError(() => err)));
      }),
    );
  }

  /** Null when this request now owns the key; the stored answer when an earlier one finished. */
  private async claimOrWait(id: KeyId, hash: string): Promise<Stored | null> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      if (await claimIdempotencyKey(this.dataSource, id, hash, KEY_TTL, STALE_CLAIM)) {
        if (Math.random() < 0.01) void this.sweep();
        return null;
      }
      const row = await idempotencyKeyRow(this.dataSource, id);
      if (!row) continue; // released by a failed first attempt: claim again
      if (row.request_hash !== hash) throw AppError.unprocessable('this Idempotency-Key was used with a different request', 'idempotency_key_reused');
      if (row.state === 'done' && row.response) return this.open(row.response);
      if (Date.now() > deadline) throw AppError.conflict('a request with this Idempotency-Key is still in progress', 'idempotency_key_in_progress');
      await sleep(POLL_MS);
    }
  }

  private async finish(id: KeyId, answer: Stored): Promise<void> {
    await finishIdempotencyKey(this.dataSource, id, this.seal(answer));
  }

  private seal(answer: Stored): Sealed {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(JSON.stringify(answer), 'utf8'), cipher.final()]);
    return { sealed: Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64') };
  }

  private open(stored: Sealed): Stored {
    const box = Buffer.from(stored.sealed, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, box.subarray(0, 12));
    decipher.setAuthTag(box.subarray(12, 28));
    return JSON.parse(Buffer.concat([decipher.update(box.subarray(28)), decipher.final()]).toString('utf8')) as Stored;
  }

  private async release(id: KeyId): Promise<void> {
    await releaseIdempotencyKey(this.dataSource, id);
  }

  private async sweep(): Promise<void> {
    try {
      await sweepIdempotencyKeys(this.dataSource, KEY_TTL);
    } catch (err) {
      this.logger.warn(`idempotency key sweep failed: ${(err as Error).message}`);
    }
  }
}

type KeyId = IdempotencyKeyId;

/** Keys are per caller: the admin token; on the storefront the shopper, else the visitor, else the token. */
export function callerOf(ctx: RequestContext): string {
  const a = ctx.actor;
  if (a.type === 'staff') return `token:${a.tokenId}`;
  if (a.type === 'customer') return `customer:${a.customerId}`;
  if (ctx.visitorId) return `visitor:${ctx.visitorId}`;
  if (a.type === 'storefront_token') return `token:${a.tokenId}`;
  return 'anonymous';
}

function requestHash(req: Request): string {
  return createHash('sha256')
    .update(`${req.method} ${req.originalUrl}\n${stableJson(req.body)}`)
    .digest('hex');
}

/** JSON with object keys sorted, so the same body in another member order is the same request. */
export function stableJson(value: unknown): string {
  if (value === undefined) return '';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : stableJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
}

function snapshot(result: unknown): unknown {
  if (result === undefined || result instanceof Page) return null;
  return JSON.parse(JSON.stringify(result)) as unknown;
}

function replay(stored: Stored): Observable<unknown> {
  if (stored.type === 'error') return throwError(() => new AppError(stored.status, stored.message, stored.code));
  return of(stored.value === null ? undefined : stored.value);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
