import type { EntityManager } from 'typeorm';
import type { Translations } from '../common/db/base.entity.js';
import { upsert, type UpsertResult } from '../common/db/keyed-upsert.js';
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
