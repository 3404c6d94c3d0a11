import type { EntityManager } from 'typeorm';
import { upsert, type UpsertResult } from '../common/db/keyed-upsert.js';

/**
 * The collections module owns `collections`: other modules write them through the typed functions here (the
 * catalogue import's collections). Which products a manual collection picks (`collection_products`) is the
 * catalogue's.
 */

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
