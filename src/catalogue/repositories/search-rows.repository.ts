import type { EntityManager } from 'typeorm';
import { availableSql, ROLLUP_INSERT_SQL, visibleVariantSql } from '../catalogue.repository.js';
import { chargedGrossSql, saleJoinSql } from '../sale-prices.repository.js';
import { prepared } from '../../database/prepared-statements.js';

/**
 * The statements of `SearchIndexService` (issue 36: moved here as they were): the `variant_search` rows and their
 * `product_search` rollup rebuilt, availability refreshed from the stock ledger, and `catalogue_changes` rows (the
 * deltas every instance's in-memory index applies).
 */

/**
 * Replaces the `variant_search` rows of the given products (every product of the tenant when `productIds` is null),
 * titles sorted in `defaultLanguage`.
 */
export async function rebuildVariantSearchRows(m: EntityManager, tenantId: string, defaultLanguage: string, productIds: string[] | null): Promise<void> {
  // a semi-join on the unnested ids (not `= ANY`, a linear scan of the array per row): an import's batches of
  // thousands of products stay linear even while the planner's statistics still think the tables are empty
  const scope = productIds ? `AND p.id IN (SELECT unnest($3::uuid[]))` : '';
  const params: unknown[] = [tenantId, defaultLanguage];
  if (productIds) params.push(productIds);
  await m.query(
    `DELETE FROM variant_search vs USING products p WHERE p.id = vs.product_id AND vs.tenant_id = $1 AND p.tenant_id = $1 AND $2::text IS NOT NULL ${scope}`,
    params,
  );
  await m.query(
    `INSERT INTO variant_search (variant_id, tenant_id, product_id, position, product_created_at, title_sort, rating, gross, on_sale, available,
         manufacturer_id, color_id, region_id, year_id, size_id, country_id, option_ids, category_ids, tags, search_text, search_tsv)
       SELECT v.id, v.tenant_id, v.product_id, v.position, p.created_at,
         lower(unaccent(coalesce(p.title->>$2, (SELECT min(t.value) FROM jsonb_each_text(p.title) t), ''))),
         p.rating, ${chargedGrossSql('v', 'sp')},
         coalesce(sp.gross < v.gross, false) OR coalesce(v.compare_at_gross > v.gross, false),
         ${availableSql('v')},
         p.manufacturer_id, v.color_id, v.region_id, v.year_id, v.size_id, v.country_id, v.option_ids,
         coalesce((SELECT array_agg(DISTINCT a) FROM categories c, unnest(c.path) a WHERE c.tenant_id = p.tenant_id AND c.id = ANY(p.category_ids)), '{}'),
         p.tags, x.txt, to_tsvector('simple', x.txt)
       FROM variants v
       JOIN products p ON p.id = v.product_id AND p.tenant_id = v.tenant_id
       LEFT JOIN manufacturers mf ON mf.id = p.manufacturer_id
       ${saleJoinSql('v')}
       CROSS JOIN LATERAL (SELECT lower(unaccent(concat_ws(' ',
           (SELECT string_agg(t.value, ' ') FROM jsonb_each_text(p.title) t),
           (SELECT string_agg(t.value, ' ') FROM jsonb_each_text(v.title) t),
           v.sku, mf.name))) AS txt) x
       WHERE v.tenant_id = $1 AND ${visibleVariantSql('v', 'p')} ${scope}`,
    params,
  );
}

/** Rebuilds the `product_search` rows of the given products (every product of the tenant when null) from `variant_search`. */
export async function rebuildProductSearchRows(m: EntityManager, tenantId: string, productIds: string[] | null): Promise<void> {
  const params: unknown[] = [tenantId];
  if (productIds) params.push(productIds);
  const scope = productIds ? 'AND vs.tenant_id = $1 AND vs.product_id IN (SELECT unnest($2::uuid[]))' : 'AND vs.tenant_id = $1';
  await m.query(`DELETE FROM product_search WHERE tenant_id = $1 ${productIds ? 'AND product_id IN (SELECT unnest($2::uuid[]))' : ''}`, params);
  await m.query(ROLLUP_INSERT_SQL.replace(/__SCOPE__/g, scope), params);
}

/**
 * The products' availability rollup after the variant search rows updated by a CTE `n` (RETURNING variant_id,
 * product_id, available) of the same statement, tenant `$1`: the statement's snapshot does not see `n`'s update, so
 * each product's rollup takes its updated variants' availability from `n` and its siblings' as stored.
 */
const PRODUCT_ROLLUP = `x AS (
       SELECT vs.product_id, bool_or(coalesce(n.available, vs.available)) AS available
         FROM variant_search vs LEFT JOIN n ON n.variant_id = vs.variant_id
        WHERE vs.tenant_id = $1 AND vs.product_id IN (SELECT n.product_id FROM n)
        GROUP BY vs.product_id
     ), ps AS (
       UPDATE product_search ps SET available = x.available FROM x
        WHERE ps.product_id = x.product_id AND ps.tenant_id = $1 AND ps.available IS DISTINCT FROM x.available
     )`;

/**
 * After stock movements of `variantIds` (written by an earlier statement of the transaction, so the ledger sums them):
 * their search rows' availability, their products' rollup, and the `stock` delta recorded, in ONE statement (issue
 * 34: three round trips were one per step). The rollup sees the statement's snapshot, so it takes the variants' new
 * availability from the update's RETURNING and the siblings' as stored. Returns the delta's id.
 */
export async function refreshAvailabilityAndRecordChange(m: EntityManager, tenantId: string, variantIds: string[]): Promise<number> {
  const [change]: Array<{ id: string | number }> = await m.query(
    `WITH n AS (
       UPDATE variant_search vs SET available = ${availableSql('v')}
         FROM variants v WHERE v.id = vs.variant_id AND vs.tenant_id = $1 AND v.tenant_id = $1 AND vs.variant_id = ANY($2::uuid[])
       RETURNING vs.variant_id, vs.product_id, vs.available
     ), ${PRODUCT_ROLLUP}
     INSERT INTO catalogue_changes (tenant_id, kind, ids) VALUES ($1, 'stock', $2::uuid[]) RETURNING id`,
    [tenantId, variantIds],
  );
  return Number(change.id);
}

/**
 * Stock movements of variants the transaction has locked, their search rows' availability, their products' rollup
 * and the `stock` delta, in ONE statement (issue 34: the order placement's insert and refresh were two round trips).
 * The statement's snapshot does not see its own inserted movements: each variant's ledger sum is the stored one plus
 * the deltas it inserts (no other transaction can move a locked variant in between). Returns the delta's id.
 */
export async function insertMovementsAndRefreshAvailability(
  m: EntityManager,
  tenantId: string,
  reason: string,
  moves: ReadonlyArray<{ variantId: string; locationId: string; delta: number }>,
): Promise<number> {
  const [change]: Array<{ id: string | number }> = await m.query(
    prepared(`WITH mv AS (
       INSERT INTO stock_movements (tenant_id, variant_id, location_id, delta, reason)
       SELECT $1, x.variant_id, x.location_id, x.delta, $2 FROM unnest($3::uuid[], $4::uuid[], $5::numeric[]) AS x(variant_id, location_id, delta)
       RETURNING variant_id, delta
     ), d AS (
       SELECT variant_id, sum(delta) AS delta FROM mv GROUP BY variant_id
     ), n AS (
       UPDATE variant_search vs SET available = NOT v.track_inventory OR v.allow_backorder
           OR coalesce((SELECT sum(sm.delta) FROM stock_movements sm WHERE sm.tenant_id = v.tenant_id AND sm.variant_id = v.id), 0) + d.delta > 0
         FROM variants v, d WHERE v.id = vs.variant_id AND d.variant_id = vs.variant_id AND vs.tenant_id = $1 AND v.tenant_id = $1
       RETURNING vs.variant_id, vs.product_id, vs.available
     ), ${PRODUCT_ROLLUP}
     INSERT INTO catalogue_changes (tenant_id, kind, ids) SELECT $1, 'stock', array_agg(DISTINCT variant_id) FROM mv RETURNING id`),
    [tenantId, reason, moves.map((mv) => mv.variantId), moves.map((mv) => mv.locationId), moves.map((mv) => String(mv.delta))],
  );
  return Number(change.id);
}

/** Records a `products` or `rebuild` delta; its id. */
export async function insertCatalogueChange(m: EntityManager, tenantId: string, kind: string, ids: string[]): Promise<number> {
  const [change]: Array<{ id: string | number }> = await m.query(
    `INSERT INTO catalogue_changes (tenant_id, kind, ids) VALUES ($1, $2, $3::uuid[]) RETURNING id`,
    [tenantId, kind, ids],
  );
  return Number(change.id);
}

/** Serializes the shop's reprices until the transaction ends. */
export async function lockReprice(m: EntityManager, tenantId: string): Promise<void> {
  await m.query(`SELECT pg_advisory_xact_lock(hashtext('catalogue-reprice'), hashtext($1))`, [tenantId]);
}
