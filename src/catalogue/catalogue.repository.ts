import type { EntityManager } from 'typeorm';
import type { Translations } from '../common/db/base.entity.js';
import type { CatalogueLine } from '../pricing/index.js';
import { smartCollectionsByProduct } from './smart-collections.repository.js';
import { prepared } from '../database/prepared-statements.js';

/**
 * The catalogue owns `products`, `variants`, `product_images`, `facet_values`, `manufacturers`, `stock_locations`,
 * `stock_movements`, `variant_search` and `product_search`: it alone writes them, and other modules read them
 * through the typed functions of this file (each takes the caller's `EntityManager`, so it runs in the caller's
 * transaction). The SQL fragments every such read shares are named here once.
 */

/** "Visible variant": a published, active variant of a published product (what the storefront may show and sell). */
export function visibleVariantSql(v = 'v', p = 'p'): string {
  return `${v}.published AND ${v}.active AND ${p}.published`;
}

/** "Available": the variant is not stock-tracked, may be backordered, or has stock on hand (the ledger's sum). */
export function availableSql(v = 'v'): string {
  return `NOT ${v}.track_inventory OR ${v}.allow_backorder
           OR coalesce((SELECT sum(sm.delta) FROM stock_movements sm WHERE sm.tenant_id = ${v}.tenant_id AND sm.variant_id = ${v}.id), 0) > 0`;
}

/** "Facet ids": every facet value, category, option and manufacturer id a `variant_search` row is filtered by. */
export function facetIdsSql(vs = 'vs'): string {
  return `${vs}.category_ids || ${vs}.option_ids || ARRAY[${vs}.manufacturer_id, ${vs}.color_id, ${vs}.region_id, ${vs}.year_id, ${vs}.size_id, ${vs}.country_id]`;
}

/** "Listed product": the product (`productIdExpr`, of tenant `tenantIdExpr`) has a visible variant (a `variant_search` row). */
export function listedProductSql(productIdExpr: string, tenantIdExpr: string): string {
  return `EXISTS (SELECT 1 FROM variant_search vs WHERE vs.tenant_id = ${tenantIdExpr} AND vs.product_id = ${productIdExpr})`;
}

/** True when the product is listed on the storefront (has a visible variant). */
export async function isListedProduct(m: EntityManager, tenantId: string, productId: string): Promise<boolean> {
  const rows: unknown[] = await m.query(`SELECT 1 FROM variant_search WHERE tenant_id = $1 AND product_id = $2 LIMIT 1`, [tenantId, productId]);
  return rows.length > 0;
}

/**
 * The listed product (one with a visible variant) whose handle is exactly `handle`, or null. Handles are not unique
 * for products (the import keeps what it is given): on a tie the earliest created wins, so the answer is stable.
 */
export async function listedProductIdByHandle(m: EntityManager, tenantId: string, handle: string): Promise<string | null> {
  const rows: Array<{ id: string }> = await m.query(
    `SELECT p.id FROM products p WHERE p.tenant_id = $1 AND p.handle = $2 AND ${listedProductSql('p.id', 'p.tenant_id')} ORDER BY p.created_at, p.id LIMIT 1`,
    [tenantId, handle],
  );
  return rows[0]?.id ?? null;
}

/** Titles (every language) and handles of these products, for the search suggestions (issue 35). */
export async function productTitlesOf(
  m: EntityManager,
  tenantId: string,
  ids: string[],
): Promise<Array<{ id: string; title: Translations; handle: string | null }>> {
  if (ids.length === 0) return [];
  return m.query(`SELECT id, title, handle FROM products WHERE tenant_id = $1 AND id = ANY($2::uuid[])`, [tenantId, ids]);
}

/**
 * Rebuilds `product_search` rows from `variant_search` (`__SCOPE__` narrows both scans, e.g.
 * `AND vs.tenant_id = $1 AND vs.product_id = ANY($2::uuid[])`). Migration 1764000008000 keeps its own frozen copy.
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
          CROSS JOIN LATERAL unnest(${facetIdsSql('vs')}) x
          WHERE x IS NOT NULL __SCOPE__) e
    GROUP BY e.product_id) f ON f.product_id = a.product_id`;

/** The quantity rule of a variant (decimal strings as stored). */
export interface QuantityRuleRow {
  min: string;
  max: string | null;
  increment: string;
}

/** A visible variant as the cart and the checkout sell it now: price, weight, stock flags and what they display. */
export interface SellableVariantRow {
  variant_id: string;
  product_id: string;
  /** Default-currency unit prices and tax rate (numeric strings). */
  gross: string;
  net: string;
  tax_rate: string;
  grams: number | null;
  sku: string | null;
  /** The product's title, and the variant's own. */
  title: Translations;
  variant_title: Translations;
  description: Translations;
  alcohol_volume: string | null;
  track_inventory: boolean;
  allow_backorder: boolean;
  handle: string | null;
  vendor: string | null;
  /** The product's first image (by position), if any. */
  image_id: string | null;
  image_src: string | null;
  image_alt: string | null;
  image_position: number | null;
  image_width: number | null;
  image_height: number | null;
  year: Translations | null;
  size: Translations | null;
  color: Translations | null;
}

/** The pricing input of a sellable variant bought `quantity` times (the cart's and the checkout's lines alike). */
export function catalogueLineOf(r: SellableVariantRow & { quantity: string }): CatalogueLine {
  return {
    variantId: r.variant_id,
    productId: r.product_id,
    quantity: r.quantity,
    gross: r.gross,
    net: r.net,
    taxRate: r.tax_rate,
    grams: r.grams,
    discountPercent: 0,
  };
}

/** The quantity rule of `variantId` when it is a visible variant of the tenant, else null. */
/** The product of a variant of the shop (archived or not), or null for an unknown or foreign variant. */
export async function productIdOfVariant(m: EntityManager, tenantId: string, variantId: string): Promise<string | null> {
  const rows: Array<{ product_id: string }> = await m.query(`SELECT product_id FROM variants WHERE tenant_id = $1 AND id = $2`, [tenantId, variantId]);
  return rows[0]?.product_id ?? null;
}

export async function sellableVariantRule(m: EntityManager, tenantId: string, variantId: string): Promise<QuantityRuleRow | null> {
  const rows: QuantityRuleRow[] = await m.query(sellableVariantRuleSql('$2', '$1'), [variantId, tenantId]);
  return rows[0] ?? null;
}

/**
 * The SELECT of `sellableVariantRule` for a statement that must stay single (the cart's add, issue 34): `tenant` and
 * `variant` are SQL expressions (parameters); the numbers come as decimal text, also through `row_to_json`.
 */
export function sellableVariantRuleSql(tenant: string, variant: string): string {
  return `SELECT v.quantity_min::text AS min, v.quantity_max::text AS max, v.quantity_increment::text AS increment
     FROM variants v JOIN products p ON p.id = v.product_id AND p.tenant_id = v.tenant_id
     WHERE v.id = ${variant} AND v.tenant_id = ${tenant} AND ${visibleVariantSql('v', 'p')}`;
}

/** The visible variants among `variantIds`, by id (a variant no longer sold is absent). */
export async function sellableVariants(m: EntityManager, tenantId: string, variantIds: string[]): Promise<Map<string, SellableVariantRow>> {
  if (variantIds.length === 0) return new Map();
  const rows: SellableVariantRow[] = await m.query(sellableVariantsSql('$1', '$2::uuid[]'), [tenantId, [...new Set(variantIds)]]);
  return new Map(rows.map((r) => [r.variant_id, r]));
}

/**
 * The SELECT of `sellableVariants` (one row per visible variant of `ids`, an SQL uuid[] expression) for a statement
 * that must stay single (the cart's add, issue 34); decimals come as text, also through `row_to_json`.
 */
export function sellableVariantsSql(tenant: string, ids: string): string {
  // the producer and the facet names as scalar subqueries (primary-key lookups, tenant first): a join of seven
  // relations cost PostgreSQL about 0.65 ms of planning per read (against 0.38) and hashed whole tables, for the few
  // rows of a cart or a checkout (issue 34)
  return `SELECT v.id AS variant_id, v.product_id, v.gross::text AS gross, v.net::text AS net, v.tax_rate::text AS tax_rate, v.grams, v.sku, p.title,
            v.title AS variant_title, v.description, v.alcohol_volume::text AS alcohol_volume, v.track_inventory, v.allow_backorder, p.handle,
            (SELECT mf.name FROM manufacturers mf WHERE mf.tenant_id = v.tenant_id AND mf.id = p.manufacturer_id) AS vendor,
            img.id AS image_id, img.src AS image_src, img.alt AS image_alt, img.position AS image_position, img.width AS image_width,
            img.height AS image_height,
            (SELECT f.name FROM facet_values f WHERE f.tenant_id = v.tenant_id AND f.id = v.year_id) AS year,
            (SELECT f.name FROM facet_values f WHERE f.tenant_id = v.tenant_id AND f.id = v.size_id) AS size,
            (SELECT f.name FROM facet_values f WHERE f.tenant_id = v.tenant_id AND f.id = v.color_id) AS color
     FROM variants v
     JOIN products p ON p.id = v.product_id AND p.tenant_id = v.tenant_id
     LEFT JOIN LATERAL (SELECT i.id, i.src, i.alt, i.position, i.width, i.height FROM product_images i
                        WHERE i.tenant_id = p.tenant_id AND i.product_id = p.id ORDER BY i.position LIMIT 1) img ON true
     WHERE v.tenant_id = ${tenant} AND v.id = ANY(${ids}) AND ${visibleVariantSql('v', 'p')}`;
}

/** What the destination rules measure of a variant (archived or not): its alcohol and its size as written. */
export interface VariantVolumeRow {
  variant_id: string;
  alcohol_volume: string | null;
  size: Translations | null;
}

export function variantVolumesOf(m: EntityManager, tenantId: string, variantIds: string[]): Promise<VariantVolumeRow[]> {
  return m.query(
    `SELECT v.id AS variant_id, v.alcohol_volume, fs.name AS size FROM variants v LEFT JOIN facet_values fs ON fs.id = v.size_id
     WHERE v.tenant_id = $1 AND v.id = ANY($2::uuid[])`,
    [tenantId, variantIds],
  );
}

/** Which of these variants are sold as gift cards (issue 33; archived ones included: an order keeps its lines). */
export async function giftCardVariantIds(m: EntityManager, tenantId: string, variantIds: string[]): Promise<Set<string>> {
  if (variantIds.length === 0) return new Set();
  const rows: Array<{ id: string }> = await m.query(`SELECT id FROM variants WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND gift_card`, [
    tenantId,
    variantIds,
  ]);
  return new Set(rows.map((r) => r.id));
}

/** Stock flags of a variant, locked for the caller's transaction. */
export interface LockedVariantRow {
  id: string;
  sku: string | null;
  allow_backorder: boolean;
  track_inventory: boolean;
}

/** Locks the variants (sorted by id, so concurrent lockers never deadlock) and returns their stock flags. */
export function lockVariants(m: EntityManager, tenantId: string, variantIds: string[]): Promise<LockedVariantRow[]> {
  return m.query(
    prepared(`SELECT id, sku, allow_backorder, track_inventory FROM variants WHERE tenant_id = $1 AND id = ANY($2::uuid[]) ORDER BY id FOR UPDATE`),
    [tenantId, [...variantIds].sort()],
  );
}

/** Locks one variant row of the shop for the caller's transaction (every stock movement of it waits); false when there is none. */
export async function lockVariant(m: EntityManager, tenantId: string, variantId: string): Promise<boolean> {
  const rows: unknown[] = await m.query(`SELECT id FROM variants WHERE id = $1 AND tenant_id = $2 FOR UPDATE`, [variantId, tenantId]);
  return rows.length > 0;
}

/** True when `locationId` is a stock location of the shop. */
export async function isStockLocationOf(m: EntityManager, tenantId: string, locationId: string): Promise<boolean> {
  const rows: unknown[] = await m.query(`SELECT id FROM stock_locations WHERE id = $1 AND tenant_id = $2`, [locationId, tenantId]);
  return rows.length > 0;
}

/** On-hand of one (variant, location) pair (0 without movements). */
export async function onHandAt(m: EntityManager, tenantId: string, variantId: string, locationId: string): Promise<number> {
  const [row]: Array<{ on_hand: string }> = await m.query(
    `SELECT coalesce(sum(delta), 0) AS on_hand FROM stock_movements WHERE tenant_id = $1 AND variant_id = $2 AND location_id = $3`,
    [tenantId, variantId, locationId],
  );
  return Number(row.on_hand);
}

/** On-hand of a (variant, location) pair as the ledger sums it (numeric string). */
export interface StockLevelRow {
  variant_id: string;
  location_id: string;
  on_hand: string;
}

/** On-hand per stocked (variant, location) of `variantIds`, fullest first (then by location id). */
export function stockLevelsFullestFirst(m: EntityManager, tenantId: string, variantIds: string[]): Promise<StockLevelRow[]> {
  return m.query(
    prepared(`SELECT variant_id, location_id, sum(delta) AS on_hand FROM stock_movements WHERE tenant_id = $1 AND variant_id = ANY($2::uuid[])
     GROUP BY variant_id, location_id ORDER BY sum(delta) DESC, location_id`),
    [tenantId, variantIds],
  );
}

/** The shop's first stock location (by creation), or null when it has none. */
export async function firstStockLocationId(m: EntityManager, tenantId: string): Promise<string | null> {
  const [first]: Array<{ id: string }> = await m.query(`SELECT id FROM stock_locations WHERE tenant_id = $1 ORDER BY created_at, id LIMIT 1`, [tenantId]);
  return first?.id ?? null;
}

/** What is still out per location of the movements whose reason is one of `reasons` (taken negative, returned positive). */
export function openMovementsByLocation(
  m: EntityManager,
  tenantId: string,
  variantId: string,
  reasons: [string, string],
): Promise<Array<{ location_id: string; open: string }>> {
  return m.query(
    `SELECT location_id, -sum(delta) AS open FROM stock_movements
     WHERE tenant_id = $1 AND variant_id = $2 AND reason IN ($3, $4) GROUP BY location_id ORDER BY location_id`,
    [tenantId, variantId, ...reasons],
  );
}

/** A payment type of the shop (imported with the catalogue). */
export interface PaymentTypeRow {
  id: string;
  key: string;
  name: Translations;
  kind: string;
  image_url: string | null;
}

/** The shop's payment types, by key. */
export function paymentTypesOf(m: EntityManager, tenantId: string): Promise<PaymentTypeRow[]> {
  return m.query(`SELECT id, key, name, kind, image_url FROM payment_types WHERE tenant_id = $1 ORDER BY key`, [tenantId]);
}

/** One payment type of the shop, or null. */
export async function paymentTypeOf(m: EntityManager, tenantId: string, id: string): Promise<PaymentTypeRow | null> {
  const rows: PaymentTypeRow[] = await m.query(`SELECT id, key, name, kind, image_url FROM payment_types WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
  return rows[0] ?? null;
}

/** Products the shop holds, archived ones included: what `TENANT_MAX_PRODUCTS` bounds. */
export async function productCount(m: EntityManager, tenantId: string): Promise<number> {
  const [row]: Array<{ n: number }> = await m.query(`SELECT count(*)::int AS n FROM products WHERE tenant_id = $1`, [tenantId]);
  return row.n;
}

/**
 * What promotions match a cart line by (issue 32): the variant's product and manufacturer, its product's categories
 * with their ancestors, the manual collections holding the product and the smart ones whose rules it meets, each facet value by key and id, and each
 * custom-field option as `[field key, option key, option value, option id]`. One statement for all the lines.
 */
export interface VariantPromotionFactsRow {
  variant_id: string;
  product_id: string;
  manufacturer_id: string | null;
  category_ids: string[];
  collection_ids: string[];
  colour: string[];
  country: string[];
  region: string[];
  vintage: string[];
  size: string[];
  options: Array<[string, string, string | null, string]>;
}

export async function variantPromotionFacts(m: EntityManager, tenantId: string, variantIds: string[]): Promise<VariantPromotionFactsRow[]> {
  if (variantIds.length === 0) return [];
  const facet = (alias: string) => `CASE WHEN ${alias}.id IS NULL THEN '{}'::text[] ELSE ARRAY[${alias}.key, ${alias}.id::text] END`;
  const rows: VariantPromotionFactsRow[] = await m.query(
    `SELECT v.id AS variant_id, v.product_id, p.manufacturer_id,
            coalesce((SELECT array_agg(DISTINCT x) FROM categories c, unnest(c.path || c.id) x WHERE c.tenant_id = v.tenant_id AND c.id = ANY(p.category_ids)), '{}') AS category_ids,
            coalesce((SELECT array_agg(cp.collection_id) FROM collection_products cp WHERE cp.tenant_id = v.tenant_id AND cp.product_id = p.id), '{}') AS collection_ids,
            ${facet('fc')} AS colour, ${facet('fn')} AS country, ${facet('fr')} AS region, ${facet('fy')} AS vintage, ${facet('fs')} AS size,
            coalesce((SELECT jsonb_agg(jsonb_build_array(cf.key, o.key, o.value, o.id)) FROM custom_field_options o JOIN custom_fields cf ON cf.id = o.field_id
                      WHERE o.tenant_id = v.tenant_id AND o.id = ANY(v.option_ids)), '[]') AS options
     FROM variants v
     JOIN products p ON p.id = v.product_id AND p.tenant_id = v.tenant_id
     LEFT JOIN facet_values fc ON fc.id = v.color_id
     LEFT JOIN facet_values fn ON fn.id = v.country_id
     LEFT JOIN facet_values fr ON fr.id = v.region_id
     LEFT JOIN facet_values fy ON fy.id = v.year_id
     LEFT JOIN facet_values fs ON fs.id = v.size_id
     WHERE v.tenant_id = $1 AND v.id = ANY($2::uuid[])`,
    [tenantId, [...new Set(variantIds)]],
  );
  const smart = await smartCollectionsByProduct(m, tenantId, [...new Set(rows.map((r) => r.product_id))]);
  for (const r of rows) {
    const extra = smart.get(r.product_id);
    if (extra) r.collection_ids = [...r.collection_ids, ...extra];
  }
  return rows;
}
