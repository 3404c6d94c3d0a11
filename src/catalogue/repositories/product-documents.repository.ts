import type { EntityManager } from 'typeorm';
import type { Translations } from '../../common/db/base.entity.js';

/**
 * The rows of products read back as import documents (`readProductDocuments`, export/catalogue-document.ts): the
 * products, their images, approved ratings, live variants (facet values and options by key) and stock per location
 * key, five statements at once.
 */
export async function productDocumentRows(m: EntityManager, tenantId: string, ids: string[]) {
  const q = <T>(sql: string): Promise<T[]> => m.query(sql, [tenantId, ids]);
  const [products, images, ratings, variants, stock] = await Promise.all([
    q<{
      id: string;
      key: string;
      handle: string | null;
      title: Translations;
      body_html: Translations;
      summary_html: Translations;
      manufacturer: string | null;
      vendor: string | null;
      categories: string[];
      flag: string | null;
      tags: string[];
      published: boolean;
      created_at: Date;
      updated_at: Date | null;
      archived_at: Date | null;
      rating: string;
      rating_count: number;
    }>(
      `SELECT p.id, p.key, p.handle, p.title, p.body_html, p.summary_html, mf.key AS manufacturer, mf.name AS vendor,
         ARRAY(SELECT c.key FROM unnest(p.category_ids) WITH ORDINALITY AS u(id, n) JOIN categories c ON c.tenant_id = p.tenant_id AND c.id = u.id ORDER BY u.n) AS categories,
         fl.key AS flag, p.tags, p.published, p.created_at, p.updated_at, p.archived_at, p.rating, p.rating_count
       FROM products p
       LEFT JOIN manufacturers mf ON mf.tenant_id = p.tenant_id AND mf.id = p.manufacturer_id
       LEFT JOIN flags fl ON fl.tenant_id = p.tenant_id AND fl.id = p.flag_id
       WHERE p.tenant_id = $1 AND p.id = ANY($2::uuid[])`,
    ),
    q<{ product_id: string; src: string | null; alt: string | null; width: number; height: number }>(
      `SELECT product_id, src, alt, width, height FROM product_images WHERE tenant_id = $1 AND product_id = ANY($2::uuid[]) ORDER BY product_id, position, id`,
    ),
    q<{ product_id: string; value: number }>(
      `SELECT product_id, value FROM product_ratings WHERE tenant_id = $1 AND product_id = ANY($2::uuid[]) AND approved ORDER BY product_id, value DESC, id`,
    ),
    q<{
      id: string;
      product_id: string;
      key: string;
      handle: string | null;
      sku: string | null;
      title: Translations;
      price: string;
      compare_at_price: string | null;
      gross: string;
      compare_at_gross: string | null;
      tax_rate: string;
      published: boolean;
      active: boolean;
      color: string | null;
      region: string | null;
      year: string | null;
      size: string | null;
      country: string | null;
      alcohol_volume: string | null;
      grams: number | null;
      option_group: string | null;
      description: Translations;
      description_additional: Translations;
      area: string | null;
      quantity_min: string;
      quantity_max: string | null;
      quantity_increment: string;
      options: Array<[string, string]>;
      track_inventory: boolean;
      allow_backorder: boolean;
      gift_card: boolean;
      created_at: Date;
      updated_at: Date | null;
    }>(
      `SELECT v.id, v.product_id, v.key, v.handle, v.sku, v.title, v.price, v.compare_at_price, v.gross, v.compare_at_gross, v.tax_rate, v.published, v.active,
         fc.key AS color, fr.key AS region, fy.key AS year, fs.key AS size, fk.key AS country,
         v.alcohol_volume, v.grams, v.option_group, v.description, v.description_additional, v.area, v.quantity_min, v.quantity_max, v.quantity_increment,
         coalesce((SELECT json_agg(json_build_array(f.key, o.key) ORDER BY u.n) FROM unnest(v.option_ids) WITH ORDINALITY AS u(id, n)
                   JOIN custom_field_options o ON o.tenant_id = v.tenant_id AND o.id = u.id JOIN custom_fields f ON f.tenant_id = o.tenant_id AND f.id = o.field_id), '[]') AS options,
         v.track_inventory, v.allow_backorder, v.gift_card, v.created_at, v.updated_at
       FROM variants v
       LEFT JOIN facet_values fc ON fc.tenant_id = v.tenant_id AND fc.id = v.color_id
       LEFT JOIN facet_values fr ON fr.tenant_id = v.tenant_id AND fr.id = v.region_id
       LEFT JOIN facet_values fy ON fy.tenant_id = v.tenant_id AND fy.id = v.year_id
       LEFT JOIN facet_values fs ON fs.tenant_id = v.tenant_id AND fs.id = v.size_id
       LEFT JOIN facet_values fk ON fk.tenant_id = v.tenant_id AND fk.id = v.country_id
       WHERE v.tenant_id = $1 AND v.product_id = ANY($2::uuid[]) AND v.archived_at IS NULL
       ORDER BY v.product_id, v.position, v.key`,
    ),
    q<{ variant_id: string; location: string; on_hand: string }>(
      `SELECT sm.variant_id, l.key AS location, sum(sm.delta) AS on_hand
       FROM stock_movements sm JOIN stock_locations l ON l.tenant_id = sm.tenant_id AND l.id = sm.location_id
       WHERE sm.tenant_id = $1 AND sm.variant_id IN (SELECT v.id FROM variants v WHERE v.tenant_id = $1 AND v.product_id = ANY($2::uuid[]))
       GROUP BY sm.variant_id, l.key ORDER BY sm.variant_id, l.key`,
    ),
  ]);
  return { products, images, ratings, variants, stock };
}
