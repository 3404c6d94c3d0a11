import { Injectable } from '@nestjs/common';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { AppConfig } from '../../config/app-config.js';
import { AppError } from '../http/app-error.js';
import type { ListParams } from './list-params.js';
import { Page } from './page.js';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 250;

export type SortValue = string | number | boolean | null;

/** One key of a keyset order; the last one must be unique (the id). */
export interface SortKey {
  /** SQL expression, e.g. `c.created_at` or `lower(c.title)`. */
  expr: string;
  dir: 'ASC' | 'DESC';
}

export interface PageRequest {
  limit: number;
  /** Sort values of the last row of the previous page, or null on the first page. */
  after: SortValue[] | null;
  fingerprint: string;
}

/**
 * The one cursor pager. `page_info` = base64url(JSON {f: fingerprint, a: position}) + "." + HMAC; the fingerprint
 * covers the list's identity and every query parameter but limit and page_info, so a cursor cannot be forged,
 * moved to another list, or reused with other filters.
 */
@Injectable()
export class Pager {
  private readonly key: Buffer;

  constructor(config: AppConfig) {
    this.key = createHmac('sha256', config.APP_SECRET).update('page_info').digest();
  }

  /**
   * Reads limit and page_info of a list request for the list `listId` (e.g. `admin.collections`); controllers take
   * `list` with `@ListParams()`.
   */
  request(list: ListParams, listId: string): PageRequest {
    const fingerprint = this.fingerprint(list, listId);
    const limit = clampLimit(list.query.limit);
    const raw = list.query.page_info;
    if (raw === undefined || raw === '') return { limit, after: null, fingerprint };
    if (typeof raw !== 'string') throw AppError.unprocessable('page_info is invalid');
    const after = this.decode(raw, fingerprint);
    return { limit, after, fingerprint };
  }

  encode(fingerprint: string, position: SortValue[]): string {
    const payload = Buffer.from(JSON.stringify({ f: fingerprint, a: position })).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /** Builds a page from rows fetched with `limit + 1`; `position` gives a row's sort values. */
  page<T>(rows: T[], req: PageRequest, position: (row: T) => SortValue[]): Page<T> {
    const more = rows.length > req.limit;
    const items = more ? rows.slice(0, req.limit) : rows;
    const next = more ? this.encode(req.fingerprint, position(items[items.length - 1])) : null;
    return new Page(items, req.limit, next);
  }

  /**
   * The order of every admin list of stored rows: by creation (`<alias>.created_at`, then `<alias>.id` as the tie
   * breaker, both `dir`; `alias` is the query builder's main alias), cursored like `paginate`.
   */
  paginateByCreated<T extends ObjectLiteral & { createdAt: Date; id: string }>(
    qb: SelectQueryBuilder<T>,
    req: PageRequest,
    dir: 'ASC' | 'DESC',
  ): Promise<Page<T>> {
    const a = qb.alias;
    return this.paginate(
      qb,
      req,
      [
        { expr: `${a}.created_at`, dir },
        { expr: `${a}.id`, dir },
      ],
      (r) => [r.createdAt.toISOString(), r.id],
    );
  }

  /** Adds the keyset condition, the order and the limit+1 to a query builder, then runs it. */
  async paginate<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, req: PageRequest, keys: SortKey[], position: (row: T) => SortValue[]): Promise<Page<T>> {
    if (req.after) {
      if (req.after.length !== keys.length) throw AppError.unprocessable('page_info does not match this list');
      const { sql, params } = keysetCondition(keys, req.after);
      qb.andWhere(sql, params);
    }
    keys.forEach((k, i) => (i === 0 ? qb.orderBy(k.expr, k.dir) : qb.addOrderBy(k.expr, k.dir)));
    qb.take(undefined).limit(req.limit + 1);
    const rows = await qb.getMany();
    return this.page(rows, req, position);
  }

  private decode(raw: string, fingerprint: string): SortValue[] {
    const [payload, sig] = raw.split('.');
    if (!payload || !sig) throw AppError.unprocessable('page_info is invalid');
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw AppError.unprocessable('page_info is invalid');
    let parsed: { f?: unknown; a?: unknown };
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { f?: unknown; a?: unknown };
    } catch {
      throw AppError.unprocessable('page_info is invalid');
    }
    if (parsed.f !== fingerprint) throw AppError.unprocessable('page_info does not match this query: its filters or list differ from the ones that issued it');
    if (!Array.isArray(parsed.a)) throw AppError.unprocessable('page_info is invalid');
    return parsed.a as SortValue[];
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url').slice(0, 32);
  }

  private fingerprint(list: ListParams, listId: string): string {
    const entries: string[] = [];
    for (const [k, v] of Object.entries(list.query)) {
      if (k === 'limit' || k === 'page_info') continue;
      for (const item of Array.isArray(v) ? v : [v]) entries.push(`${k}=${String(item)}`);
    }
    entries.sort();
    // the path holds the tenant-specific ids (e.g. a collection id), so a cursor stays with its list; the tenant binds it to its shop
    return createHash('sha256')
      .update(`${list.tenantId}\n${listId}\n${list.path}\n${entries.join('&')}`)
      .digest('base64url')
      .slice(0, 22);
  }
}

export function clampLimit(raw: unknown, fallback = DEFAULT_PAGE_SIZE): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (typeof raw !== 'string' || !Number.isFinite(n) || !Number.isInteger(n)) throw AppError.unprocessable('limit must be an integer');
  return Math.min(MAX_PAGE_SIZE, Math.max(1, n));
}

/** `(k1, k2, ...) after (v1, v2, ...)` for keys of mixed directions, as an OR chain that indexes can serve. */
export function keysetCondition(keys: SortKey[], values: SortValue[]): { sql: string; params: Record<string, SortValue> } {
  const params: Record<string, SortValue> = {};
  const ors: string[] = [];
  for (let i = 0; i < keys.length; i++) {
    const ands: string[] = [];
    for (let j = 0; j < i; j++) {
      params[`ks${j}`] = values[j];
      ands.push(`${keys[j].expr} = :ks${j}`);
    }
    params[`ks${i}`] = values[i];
    ands.push(`${keys[i].expr} ${keys[i].dir === 'ASC' ? '>' : '<'} :ks${i}`);
    ors.push(`(${ands.join(' AND ')})`);
  }
  return { sql: `(${ors.join(' OR ')})`, params };
}
