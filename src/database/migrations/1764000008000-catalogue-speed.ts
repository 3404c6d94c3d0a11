import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Storefront catalogue speed (issue 5 "Speed"): `product_search`, one row per visible product rolled up from
 * `variant_search` (facet ids of every visible variant in one array, min/max gross, available and on_sale flags,
 * the sort columns), so product-level lists, facet counts and price ranges read one row per product instead of
 * counting distinct products over variant rows. Kept current by `SearchIndexService` with `variant_search`.
 */
export class CatalogueSpeed1764000008000 implements MigrationInterface {
  name = 'CatalogueSpeed1764000008000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE product_search (
      product_id uuid PRIMARY KEY REFERENCES products(id) ON DELETE CASCADE,
      tenant_id uuid NOT NULL,
      created_at timestamptz(3) NOT NULL,
      title_sort text COLLATE "C" NOT NULL DEFAULT '',
      rating numeric(4,2) NOT NULL DEFAULT 0,
      min_gross numeric(14,4) NOT NULL,
      max_gross numeric(14,4) NOT NULL,
      available boolean NOT NULL,
      on_sale boolean NOT NULL,
      variants_count int NOT NULL,
      manufacturer_id uuid,
      facet_ids uuid[] NOT NULL DEFAULT '{}')`);
    await q.query(`CREATE INDEX product_search_tenant_created_idx ON product_search (tenant_id, created_at DESC, product_id DESC)`);
    await q.query(`CREATE INDEX product_search_tenant_title_idx ON product_search (tenant_id, title_sort, product_id)`);
    await q.query(`CREATE INDEX product_search_tenant_rating_idx ON product_search (tenant_id, rating DESC, product_id DESC)`);
    await q.query(`CREATE INDEX product_search_tenant_price_idx ON product_search (tenant_id, min_gross, product_id)`);
    await q.query(`CREATE INDEX product_search_facets_gin ON product_search USING gin (tenant_id, facet_ids)`);
    // a product's visible variants, read by the list hydration and the detail in (product, position) order
    await q.query(`CREATE INDEX IF NOT EXISTS variant_search_tenant_product_position_idx ON variant_search (tenant_id, product_id, position)`);
    await q.query(ROLLUP_INSERT_SQL.replace(/__SCOPE__/g, ''));
    await q.query(`ANALYZE product_search`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS variant_search_tenant_product_position_idx`);
    await q.query(`DROP TABLE IF EXISTS product_search`);
  }
}

/**
 * Rebuilds `product_search` rows from `variant_search` (`__SCOPE__` narrows both scans, e.g.
 * `AND vs.tenant_id = $1 AND vs.product_id = ANY($2::uuid[])`; empty: every tenant). Shared with the service.
 */
export const ROLLUP_INSERT_SQL = `
  INSERT INTO product_search (product_id, tenant_id, created_at, title_sort, rating, min_gross, max_gross, available, on_sale, variants_count, manufacturer_id, facet_ids)
  SELECT a.product_id, a.tenant_id, a.created_at, a.title_sort, a.rating, a.min_gross, a.max_gross, a.available, a.on_sale, a.variants_count, a.manufacturer_id,
    coalesce(f.ids, '{}')
  FROM (
    SELECT vs.product_id, min(vs.tenant_id::text)::uuid AS tenant_id, max(vs.product_created_at) AS created_at, max(vs.title_sort) AS title_sort, max(vs.rating) AS rating,
      min(vs.gross) AS min_gross, max(vs.gross) AS max_gross, bool_or(vs.available) AS available, bool_or(vs.on_sale) AS on_sale, count(*)::int AS variants_count,
      min(vs.manufacturer_id::text)::uuid AS manufacturer_id
    FROM variant_search vs WHERE true __SCOPE__ GROUP BY vs.product_id) a
  LEFT JOIN (
    SELECT e.product_id, array_agg(DISTINCT e.x ORDER BY e.x) AS ids
    FROM (SELECT vs.product_id, x FROM variant_search vs
          CROSS JOIN LATERAL unnest(vs.category_ids || vs.option_ids || ARRAY[vs.manufacturer_id, vs.color_id, vs.region_id, vs.year_id, vs.size_id, vs.country_id]) x
          WHERE x IS NOT NULL __SCOPE__) e
    GROUP BY e.product_id) f ON f.product_id = a.product_id`;
