import type { EntityManager } from 'typeorm';
import type { Translations } from '../../common/db/base.entity.js';
import { saleJoinSql, storefrontPriceColumnsSql } from '../sale-prices.repository.js';
import { preparedQuery } from './prepared-query.js';

/**
 * The storefront product JSON's reads (`ProductJsonService`, issue 36: its SQL moved here with the same statement
 * text). The list and detail reads are prepared statements (`preparedQuery`): they serve case (e) of the bench.
 */

/** A visible variant as the product JSON is made of it (prices in the default currency, as stored). */
export interface ProductJsonVariantRow {
  id: string;
  product_id: string;
  handle: string | null;
  title: Translations;
  sku: string | null;
  option_group: string | null;
  gross: string;
  net: string;
  compare_at_gross: string | null;
  /** The Omnibus prior price (gross, default currency) when the variant is on sale; null otherwise. */
  lowest_prior: string | null;
  tax_rate: string;
  available: boolean;
  description: Translations;
  description_additional: Translations;
  year_id: string | null;
  size_id: string | null;
  color_id: string | null;
  region_id: string | null;
  country_id: string | null;
  area: string | null;
  alcohol_volume: string | null;
  quantity_min: string;
  quantity_max: string | null;
  quantity_increment: string;
  option_ids: string[];
  on_hand?: string;
}

/** A product as the product JSON is made of it (`image` and `variants_count` in the list projection only). */
export interface ProductJsonRow {
  id: string;
  handle: string | null;
  title: Translations;
  body_html: Translations;
  summary_html: Translations;
  manufacturer_id: string | null;
  category_ids: string[];
  rating: string;
  rating_count: number;
  flag_name: Translations | null;
  flag_color: string | null;
  image?: string | null;
  variants_count?: number;
}

export interface ProductImageRow {
  id: string;
  src: string | null;
  alt: string | null;
  position: number;
  width: number;
  height: number;
}

/** Which of these products are visible (in `product_search`), in no particular order. */
export async function visibleProductIds(m: EntityManager, tenantId: string, ids: string[]): Promise<string[]> {
  const rows: Array<{ product_id: string }> = await m.query(`SELECT product_id FROM product_search WHERE tenant_id = $1 AND product_id = ANY($2::uuid[])`, [
    tenantId,
    ids,
  ]);
  return rows.map((r) => r.product_id);
}

/** Products with their flag; `listed`: also the first image and the visible variant count, without the summary. */
export function productJsonRows(m: EntityManager, tenantId: string, ids: string[], listed: boolean): Promise<ProductJsonRow[]> {
  const extra = listed
    ? `, (SELECT i.src FROM product_images i WHERE i.tenant_id = p.tenant_id AND i.product_id = p.id ORDER BY i.position LIMIT 1) AS image,
         (SELECT ps.variants_count FROM product_search ps WHERE ps.tenant_id = p.tenant_id AND ps.product_id = p.id) AS variants_count`
    : '';
  return preparedQuery<ProductJsonRow>(
    m,
    `SELECT p.id, p.handle, p.title, p.body_html, ${listed ? "'{}'::jsonb AS summary_html" : 'p.summary_html'}, p.manufacturer_id, p.category_ids, p.rating, p.rating_count, f.name AS flag_name, f.color AS flag_color ${extra}
       FROM products p LEFT JOIN flags f ON f.tenant_id = p.tenant_id AND f.id = p.flag_id WHERE p.tenant_id = $1 AND p.id = ANY($2::uuid[])`,
    [tenantId, ids],
  );
}

/** Visible variants with their on-hand (sum of the stock ledger over every location, as `StockService.onHand`). */
function variantRows(m: EntityManager, where: string, params: unknown[], withOnHand: boolean): Promise<ProductJsonVariantRow[]> {
  const onHand = withOnHand
    ? `, (SELECT coalesce(sum(sm.delta), 0) FROM stock_movements sm WHERE sm.tenant_id = vs.tenant_id AND sm.variant_id = vs.variant_id) AS on_hand`
    : '';
  return preparedQuery<ProductJsonVariantRow>(
    m,
    `SELECT v.id, v.product_id, v.handle, v.title, v.sku, v.option_group, ${storefrontPriceColumnsSql('v', 'sp')}, v.tax_rate, vs.available, v.description, v.description_additional,
         v.year_id, v.size_id, v.color_id, v.region_id, v.country_id, v.area, v.alcohol_volume, v.quantity_min, v.quantity_max, v.quantity_increment, v.option_ids ${onHand}
       FROM variant_search vs JOIN variants v ON v.tenant_id = vs.tenant_id AND v.id = vs.variant_id ${saleJoinSql('v')} WHERE ${where} ORDER BY vs.product_id, vs.position, v.id`,
    params,
  );
}

/** The visible variants of these products (a list page); their on-hand from the ledger unless `withOnHand` is false. */
export function variantRowsOfProducts(m: EntityManager, tenantId: string, ids: string[], withOnHand: boolean): Promise<ProductJsonVariantRow[]> {
  return variantRows(m, `vs.tenant_id = $1 AND vs.product_id = ANY($2::uuid[])`, [tenantId, ids], withOnHand);
}

/** The visible variants of one product (its detail), with their on-hand. */
export function variantRowsOfProduct(m: EntityManager, tenantId: string, id: string): Promise<ProductJsonVariantRow[]> {
  return variantRows(m, `vs.tenant_id = $1 AND vs.product_id = $2`, [tenantId, id], true);
}

/** A product's images in their order. */
export function productImageRows(m: EntityManager, tenantId: string, id: string): Promise<ProductImageRow[]> {
  return preparedQuery<ProductImageRow>(
    m,
    `SELECT id, src, alt, position, width, height FROM product_images WHERE tenant_id = $1 AND product_id = $2 ORDER BY position`,
    [tenantId, id],
  );
}
