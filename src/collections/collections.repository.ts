import { Injectable } from '@nestjs/common';
import { DataSource, type DeepPartial, type EntityManager } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import type { Translations } from '../common/db/base.entity.js';
import { upsert, type UpsertResult } from '../common/db/keyed-upsert.js';
import { getOrThrow, inTransaction, repoOf } from '../common/db/tenant-scope.js';
import type { Page } from '../common/paging/page.js';
import { Pager, type PageRequest } from '../common/paging/pager.service.js';
import { Collection, type CollectionType } from './entities/collection.entity.js';

/**
 * The collections module owns `collections`: other modules read and write them through the typed functions here
 * (the catalogue's storefront collections, admin product filters, import and export), each in the caller's
 * transaction through its `EntityManager`. Which products a manual collection picks (`collection_products`) is the
 * catalogue's.
 */

/** Collections of the shop, oldest first (ties by id): all of them, or those of `ids`, optionally published only. */
export function collectionsOf(m: EntityManager, tenantId: string, opts: { ids?: string[]; publishedOnly?: boolean } = {}): Promise<Collection[]> {
  const qb = m.getRepository(Collection).createQueryBuilder('c').where('c.tenant_id = :t', { t: tenantId });
  if (opts.ids) qb.andWhere('c.id IN (:...ids)', { ids: opts.ids.length ? opts.ids : [null] });
  if (opts.publishedOnly) qb.andWhere('c.published');
  return qb.orderBy('c.created_at', 'ASC').addOrderBy('c.id', 'ASC').getMany();
}

/** What another module needs to scope products by a collection: its id, import key, handle, type and rules. */
export interface CollectionScopeRow {
  id: string;
  key: string | null;
  handle: string;
  collection_type: CollectionType;
  rules_json: string | null;
}

/** The scope rows of the shop's collections (all, or those of `ids`), oldest first (ties by id). */
export function collectionScopesOf(m: EntityManager, tenantId: string, ids?: string[]): Promise<CollectionScopeRow[]> {
  return m.query(
    `SELECT id, key, handle, collection_type, rules_json FROM collections
      WHERE tenant_id = $1 ${ids ? 'AND id = ANY($2::uuid[])' : ''} ORDER BY created_at, id`,
    ids ? [tenantId, ids] : [tenantId],
  );
}

/** A collection as stored, in `COLLECTION_COLUMNS` terms plus its id (what the catalogue export writes back out). */
export interface CollectionRecord {
  id: string;
  key: string | null;
  handle: string;
  title: Translations;
  body_html: Translations;
  collection_type: CollectionType;
  published: boolean;
  sort_order: string | null;
  template_name: string | null;
  rules_json: string | null;
  meta_title: string | null;
  meta_description: string | null;
  image_src: string | null;
  image_alt: string | null;
  image_width: number | null;
  image_height: number | null;
}

/** Every collection of the shop as stored, by key (its id where it has none). */
export function collectionRecordsOf(m: EntityManager, tenantId: string): Promise<CollectionRecord[]> {
  return m.query(
    `SELECT id, key, handle, title, body_html, collection_type, published, sort_order, template_name, rules_json, meta_title, meta_description,
       image_src, image_alt, image_width, image_height
     FROM collections WHERE tenant_id = $1 ORDER BY coalesce(key, id::text)`,
    [tenantId],
  );
}

/** The columns of an imported collection row, in order (CONTRACT 6 `collections[]`). */
export const COLLECTION_COLUMNS = [
  'key',
  'handle',
  'title',
  'body_html',
  'collection_type',
  'published',
  'sort_order',
  'template_name',
  'rules_json',
  'meta_title',
  'meta_description',
  'image_src',
  'image_alt',
  'image_width',
  'image_height',
];

/** Inserts or updates keyed collections (rows in `COLLECTION_COLUMNS` order; unchanged rows are left alone). */
export function upsertCollections(m: EntityManager, tenantId: string, rows: unknown[][]): Promise<UpsertResult> {
  return upsert(m, tenantId, { table: 'collections', cols: COLLECTION_COLUMNS, conflict: '(tenant_id, key) WHERE key IS NOT NULL', compareAll: true }, rows);
}

/** Filters of the admin list of collections. */
export interface CollectionListFilter {
  published?: boolean;
  collectionType?: CollectionType;
}

/**
 * Every statement `CollectionsService` runs, in the context's transaction when one is open (`ctx.manager`). The
 * service holds the rules (handles, rules JSON, events) and is unit-tested with this class faked.
 */
@Injectable()
export class CollectionsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pager: Pager,
  ) {}

  /** Runs `work` in one transaction (reusing an open one) with the context bound to it. */
  transaction<R>(ctx: RequestContext, work: (tx: RequestContext) => Promise<R>): Promise<R> {
    return inTransaction(ctx, this.dataSource, work);
  }

  /** A page of the shop's collections, oldest first (ties by id). */
  page(ctx: RequestContext, page: PageRequest, filter: CollectionListFilter): Promise<Page<Collection>> {
    const qb = repoOf(ctx, this.dataSource, Collection).createQueryBuilder('c').where('c.tenant_id = :tenant', { tenant: ctx.tenantId });
    if (filter.published !== undefined) qb.andWhere('c.published = :published', { published: filter.published });
    if (filter.collectionType) qb.andWhere('c.collection_type = :type', { type: filter.collectionType });
    return this.pager.paginateByCreated(qb, page, 'ASC');
  }

  /** The shop's collection `id`, or 404 `collection`. */
  getOrThrow(ctx: RequestContext, id: string): Promise<Collection> {
    return getOrThrow(ctx, this.dataSource, Collection, id, 'collection');
  }

  /** A new (unsaved) collection entity. */
  build(ctx: RequestContext, fields: DeepPartial<Collection>): Collection {
    return repoOf(ctx, this.dataSource, Collection).create(fields);
  }

  /** Inserts or updates the collection; a taken handle fails with PostgreSQL's unique violation. */
  save(ctx: RequestContext, c: Collection): Promise<Collection> {
    return repoOf(ctx, this.dataSource, Collection).save(c);
  }

  /** Deletes the shop's collection `id`; false when there is none. */
  async delete(ctx: RequestContext, id: string): Promise<boolean> {
    const res = await repoOf(ctx, this.dataSource, Collection)
      .createQueryBuilder()
      .delete()
      .where('id = :id AND tenant_id = :tenant', { id, tenant: ctx.tenantId })
      .execute();
    return Boolean(res.affected);
  }

  /** True when a collection of the shop has this handle (compared without case). */
  handleTaken(ctx: RequestContext, handle: string): Promise<boolean> {
    return repoOf(ctx, this.dataSource, Collection)
      .createQueryBuilder('c')
      .where('c.tenant_id = :tenant AND lower(c.handle) = lower(:handle)', { tenant: ctx.tenantId, handle })
      .getExists();
  }

  /** The shop's handles (lower case) equal to `base` or starting with `<base>-`. */
  async handlesLike(ctx: RequestContext, base: string): Promise<string[]> {
    const rows: Array<{ handle: string }> = await repoOf(ctx, this.dataSource, Collection)
      .createQueryBuilder('c')
      .select('lower(c.handle)', 'handle')
      .where('c.tenant_id = :tenant', { tenant: ctx.tenantId })
      .andWhere(`(lower(c.handle) = :base OR lower(c.handle) LIKE :prefix)`, { base, prefix: `${base.replace(/[\\%_]/g, '\\$&')}-%` })
      .getRawMany();
    return rows.map((r) => r.handle);
  }
}
