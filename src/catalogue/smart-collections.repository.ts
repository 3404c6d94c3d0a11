import type { EntityManager } from 'typeorm';
import { collectionScopesOf } from '../collections/index.js';
import type { CollectionScope } from './catalogue-filters.js';
import { collectionClause, Params } from './repositories/catalogue-query.js';

/**
 * Smart collections as product sets for promotions (issue 32): a smart collection holds the products with a visible
 * variant meeting its rules (`all` or `any`, the storefront collection's own `collectionClause` over `variant_search`,
 * so a promotion on a collection reduces exactly what the storefront lists in it).
 */

/** The smart ones among these collections (every one of the shop when `ids` is absent), as scopes. */
export async function smartCollectionScopes(m: EntityManager, tenantId: string, ids?: string[]): Promise<CollectionScope[]> {
  if (ids && ids.length === 0) return [];
  return (await collectionScopesOf(m, tenantId, ids))
    .filter((c) => c.collection_type === 'smart')
    .map((c) => ({ id: c.id, type: 'smart' as const, rulesJson: c.rules_json }));
}

/** Per product (of these; every one when null), the shop's smart collections whose rules it meets. One statement. */
export async function smartCollectionsByProduct(m: EntityManager, tenantId: string, productIds: string[] | null): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (productIds && productIds.length === 0) return out;
  const scopes = await smartCollectionScopes(m, tenantId);
  if (scopes.length === 0) return out;
  const params = new Params();
  params.add(tenantId);
  const only = productIds ? ` AND vs.product_id = ANY(${params.add(productIds)}::uuid[])` : '';
  const parts = scopes.map(
    (s) =>
      `SELECT DISTINCT ${params.add(s.id)}::uuid AS collection_id, vs.product_id FROM variant_search vs WHERE vs.tenant_id = $1${only} AND ${collectionClause(params, '$1', s)}`,
  );
  const rows: Array<{ collection_id: string; product_id: string }> = await m.query(parts.join(' UNION ALL '), params.values);
  for (const r of rows) out.set(r.product_id, [...(out.get(r.product_id) ?? []), r.collection_id]);
  return out;
}

/** Visible products (`product_search` rows) of each collection, by its scope: one statement for all of them. */
export async function collectionProductCounts(m: EntityManager, tenantId: string, scopes: CollectionScope[]): Promise<Array<{ id: string; n: string }>> {
  const params = new Params();
  const t = params.add(tenantId);
  const parts = scopes.map(
    (c) => `SELECT ${params.add(c.id)}::text AS id, count(*) AS n FROM product_search ps WHERE ps.tenant_id = ${t} AND ${collectionClause(params, t, c, 'ps')}`,
  );
  return m.query(parts.join(' UNION ALL '), params.values);
}
