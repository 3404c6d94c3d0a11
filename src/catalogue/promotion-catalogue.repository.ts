import type { EntityManager } from 'typeorm';
import { visibleVariantSql } from './catalogue.repository.js';
import { collectionClause, type Params } from './repositories/catalogue-query.js';
import { smartCollectionScopes, smartCollectionsByProduct } from './smart-collections.repository.js';

/**
 * The catalogue reads of catalogue promotions (issue 32): which products a promotion's line selector can reach, and
 * the visible variants with what a selector matches them by. The promotions module calls these through index.ts;
 * the selector's shape is declared here so the catalogue imports nothing from promotions.
 */

/** A facet a promotion's line can be matched by. */
export type PromotionSelectorFacet = 'colour' | 'country' | 'region' | 'vintage' | 'size';

/** One way a promotion's line can match (the engine's `LineMatcher`); a selector matches when any one does. */
export type PromotionSelectorMatcher =
  | { type: 'product'; ids: readonly string[] }
  | { type: 'variant'; ids: readonly string[] }
  | { type: 'collection'; ids: readonly string[] }
  | { type: 'category'; ids: readonly string[] }
  | { type: 'manufacturer'; ids: readonly string[] }
  | { type: 'facet'; facet: PromotionSelectorFacet; values: readonly string[] }
  | { type: 'custom_field'; key: string; values: readonly string[] };

/** A visible variant with what a promotion's line selector can match it by. */
export interface PromotionCatalogueVariant {
  variantId: string;
  productId: string;
  /** Regular gross price, default currency, decimal string. */
  gross: string;
  collectionIds: string[];
  /** With their ancestors. */
  categoryIds: string[];
  manufacturerId: string | null;
  /** Each facet value by id and by key. */
  facets: Record<PromotionSelectorFacet, string[]>;
  /** Per custom field, every option of the variant by key and by id (a wine of two grapes matches either). */
  customFields: Record<string, string[]>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The products (with a visible variant) a line selector can match: any one matcher, as the engine reads them (categories
 * with their ancestors, manual and smart collections, facet values by id or key, custom-field options by field and option
 * key or id).
 */
export async function productsMatchingSelector(m: EntityManager, tenantId: string, selector: readonly PromotionSelectorMatcher[]): Promise<string[]> {
  const params: unknown[] = [tenantId];
  const arg = (v: unknown) => `$${params.push(v)}`;
  const uuids = (ids: readonly string[]) => ids.filter((id) => UUID.test(id));
  const shared: Params = { values: params, add: arg };
  const clauses: string[] = [];
  for (const s of selector) {
    switch (s.type) {
      case 'product':
        clauses.push(`vs.product_id = ANY(${arg(uuids(s.ids))}::uuid[])`);
        break;
      case 'variant':
        clauses.push(`vs.variant_id = ANY(${arg(uuids(s.ids))}::uuid[])`);
        break;
      case 'manufacturer':
        clauses.push(`vs.manufacturer_id = ANY(${arg(uuids(s.ids))}::uuid[])`);
        break;
      case 'category':
        clauses.push(`vs.category_ids && ${arg(uuids(s.ids))}::uuid[]`);
        break;
      case 'collection':
        clauses.push(
          `vs.product_id IN (SELECT cp.product_id FROM collection_products cp WHERE cp.tenant_id = $1 AND cp.collection_id = ANY(${arg(uuids(s.ids))}::uuid[]))`,
        );
        // smart collections: their rules over the same rows
        for (const scope of await smartCollectionScopes(m, tenantId, uuids(s.ids))) clauses.push(collectionClause(shared, '$1', scope));
        break;
      case 'facet': {
        const column = { colour: 'color_id', country: 'country_id', region: 'region_id', vintage: 'year_id', size: 'size_id' }[s.facet];
        clauses.push(
          `(vs.${column} = ANY(${arg(uuids(s.values))}::uuid[]) OR vs.${column} IN (SELECT fv.id FROM facet_values fv WHERE fv.tenant_id = $1 AND fv.key = ANY(${arg(s.values)}::text[])))`,
        );
        break;
      }
      case 'custom_field':
        clauses.push(
          `vs.option_ids && ARRAY(SELECT o.id FROM custom_field_options o JOIN custom_fields f ON f.tenant_id = o.tenant_id AND f.id = o.field_id
             WHERE o.tenant_id = $1 AND f.key = ${arg(s.key)} AND (o.key = ANY(${arg(s.values)}::text[]) OR o.id = ANY(${arg(uuids(s.values))}::uuid[])))`,
        );
        break;
    }
  }
  if (clauses.length === 0) return [];
  const rows: Array<{ product_id: string }> = await m.query(
    `SELECT DISTINCT vs.product_id FROM variant_search vs WHERE vs.tenant_id = $1 AND (${clauses.join(' OR ')})`,
    params,
  );
  return rows.map((r) => r.product_id);
}

interface PromotionVariantRow {
  variant_id: string;
  product_id: string;
  gross: string;
  manufacturer_id: string | null;
  category_ids: string[];
  collection_ids: string[];
  color_id: string | null;
  region_id: string | null;
  year_id: string | null;
  size_id: string | null;
  country_id: string | null;
  option_ids: string[];
}

/** The visible variants of these products (every product when null) with what a promotion's line selector matches. */
export async function promotionCatalogueVariants(m: EntityManager, tenantId: string, productIds: string[] | null): Promise<PromotionCatalogueVariant[]> {
  const params: unknown[] = [tenantId];
  if (productIds) params.push(productIds);
  const rows: PromotionVariantRow[] = await m.query(
    `SELECT v.id AS variant_id, v.product_id, v.gross::text AS gross, p.manufacturer_id,
            coalesce((SELECT array_agg(DISTINCT a) FROM categories c, unnest(c.path) a WHERE c.tenant_id = p.tenant_id AND c.id = ANY(p.category_ids)), '{}') AS category_ids,
            coalesce((SELECT array_agg(cp.collection_id) FROM collection_products cp WHERE cp.tenant_id = p.tenant_id AND cp.product_id = p.id), '{}') AS collection_ids,
            v.color_id, v.region_id, v.year_id, v.size_id, v.country_id, v.option_ids
       FROM variants v JOIN products p ON p.tenant_id = v.tenant_id AND p.id = v.product_id
      WHERE v.tenant_id = $1 AND ${visibleVariantSql('v', 'p')} ${productIds ? 'AND v.product_id IN (SELECT unnest($2::uuid[]))' : ''}`,
    params,
  );
  if (rows.length === 0) return [];
  const keys = new Map<string, string>();
  for (const r of (await m.query(`SELECT id, key FROM facet_values WHERE tenant_id = $1`, [tenantId])) as Array<{ id: string; key: string }>)
    keys.set(r.id, r.key);
  const options = new Map<string, { field: string; key: string }>();
  for (const r of (await m.query(
    `SELECT o.id, o.key, f.key AS field FROM custom_field_options o JOIN custom_fields f ON f.tenant_id = o.tenant_id AND f.id = o.field_id WHERE o.tenant_id = $1`,
    [tenantId],
  )) as Array<{ id: string; key: string; field: string }>)
    options.set(r.id, { field: r.field, key: r.key });
  const facet = (id: string | null) => (id ? [id, keys.get(id) ?? id] : []);
  const smart = await smartCollectionsByProduct(m, tenantId, productIds);
  return rows.map((r) => {
    const customFields: Record<string, string[]> = {};
    for (const id of r.option_ids) {
      const o = options.get(id);
      if (o) (customFields[o.field] ??= []).push(o.key, id);
    }
    return {
      variantId: r.variant_id,
      productId: r.product_id,
      gross: r.gross,
      collectionIds: [...r.collection_ids, ...(smart.get(r.product_id) ?? [])],
      categoryIds: r.category_ids,
      manufacturerId: r.manufacturer_id,
      facets: { colour: facet(r.color_id), region: facet(r.region_id), vintage: facet(r.year_id), size: facet(r.size_id), country: facet(r.country_id) },
      customFields,
    };
  });
}
