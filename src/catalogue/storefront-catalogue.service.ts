import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { Collection } from '../collections/entities/collection.entity.js';
import { mapImage } from '../collections/dto/image.dto.js';
import type { RequestContext } from '../common/context/request-context.js';
import type { Translations } from '../common/db/base.entity.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { translate } from '../common/i18n.js';
import { convertMinor, fromMinor, toMinor } from '../common/money.js';
import { Page } from '../common/paging/page.js';
import { keysetCondition, Pager, SortValue } from '../common/paging/pager.service.js';
import { CatalogueFilters, CatalogueWhere, textClause, collectionClause, CollectionScope, collectionOrder, FACET_KEYS, FacetKey, OrderSpec, Params, parseFilters, priceExpr, sortKeys } from './catalogue-query.js';
import { FacetNameSnapshot, Snapshot } from './facet-name-snapshot.service.js';
import { StockService } from './stock.service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface FacetValueDto {
  id: string;
  name: string | null;
  value: string | null;
  count: number;
}
export interface FacetDto {
  key: FacetKey;
  values: FacetValueDto[];
}
export interface PriceRangeDto {
  min: number;
  max: number;
  currency: string;
}
export interface CustomFieldDto {
  key: string | null;
  label: string | null;
  value: string | null;
  type: string | null;
}
export interface FacetRefDto {
  id: string;
  name: string | null;
}
export interface ImageDto {
  id: string | null;
  src: string | null;
  preview_src: string | null;
  alt: string | null;
  position: number;
  width: number;
  height: number;
}
export interface VariantDto {
  id: string;
  product_id: string;
  handle: string | null;
  title: string | null;
  sku: string | null;
  option_group: string | null;
  price: number;
  net_price: number;
  compare_at_price: number;
  tax_rate: number;
  available: boolean;
  inventory_quantity: number;
  description: string | null;
  description_additional: string | null;
  year: string | null;
  size: string | null;
  area: string | null;
  country: string | null;
  alcohol_volume: number | null;
  quantity_rule: { min: number; max: number | null; increment: number };
  custom_fields: CustomFieldDto[];
  factsheet_url: string | null;
  facets: { color: FacetRefDto | null; region: FacetRefDto | null; vintage: FacetRefDto | null; size: FacetRefDto | null; options: Array<{ field_key: string; field_label: string | null; id: string; name: string | null }> };
}
export interface ProductListDto {
  id: string;
  handle: string | null;
  title: string | null;
  body_html: string | null;
  image: string | null;
  available: boolean;
  currency: string;
  price_min: number;
  price_max: number;
  variants_count: number;
  manufacturer: { id: string | null; name: string | null; logo_url: string | null };
  flag: { name: string | null; color: string | null };
  rating: number;
  rating_count: number;
  custom_fields: CustomFieldDto[];
  variants: VariantDto[];
}
export interface ProductDetailDto {
  id: string;
  handle: string | null;
  title: string | null;
  body_html: string | null;
  summary_html: string | null;
  image: ImageDto;
  images: ImageDto[];
  available: boolean;
  vendor: string | null;
  rating: number;
  rating_count: number;
  currency: string;
  price_min: number;
  price_max: number;
  manufacturer: { id: string | null; name: string | null; logo_url: string | null };
  category_path: FacetRefDto[];
  flag: { name: string | null; color: string | null };
  custom_fields: CustomFieldDto[];
  variants: VariantDto[];
}
export interface StorefrontCollectionDto {
  id: string;
  handle: string | null;
  title: string | null;
  body_html: string | null;
  image: ImageDto;
  products_count: number;
  sort_order: string | null;
  meta_title: string | null;
  meta_description: string | null;
  custom_fields: CustomFieldDto[];
}

interface VariantRow {
  id: string;
  product_id: string;
  handle: string | null;
  title: Translations;
  sku: string | null;
  option_group: string | null;
  gross: string;
  net: string;
  compare_at_gross: string | null;
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
}

interface ProductRow {
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
}

const BLANK_IMAGE: ImageDto = { id: null, src: null, preview_src: null, alt: null, position: 0, width: 0, height: 0 };

/** Storefront products, facets, collections and the admin's collection products (SPEC, CONTRACT 7). */
@Injectable()
export class StorefrontCatalogueService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pager: Pager,
    private readonly snapshot: FacetNameSnapshot,
    private readonly stock: StockService,
  ) {}

  // ---------------------------------------------------------------- lists

  /** GET /products (and collection products): one page, `price_range`, and `facets` when asked for. */
  async listProducts(ctx: RequestContext, req: Request, listId: string, scope: CollectionScope | null, options: { facets: boolean; defaultOrder?: OrderSpec } = { facets: true }): Promise<Page<ProductListDto>> {
    const f = await this.withTextMatches(ctx, parseFilters(req, scope ? 'collection' : 'products'));
    const page = this.pager.request(req, listId);
    if (!scope && f.collectionId) scope = await this.scopeOf(ctx, f.collectionId, false);
    const order: OrderSpec = f.order ?? (f.words.length > 0 ? 'relevance' : options.defaultOrder ?? 'created desc');
    const keys = sortKeys(order === 'manual' && scope?.type !== 'manual' ? 'created desc' : order);
    const params = new Params();
    const where = new CatalogueWhere(params, ctx.tenantId, f, ctx.activeCurrency, scope);
    const extra: string[] = [];
    if (order === 'relevance') extra.push(`round(max(${where.relevance()})::numeric, 6) AS rel`);
    if (order === 'manual' && scope?.type === 'manual') extra.push(`min((SELECT cp.position FROM collection_products cp WHERE cp.collection_id = ${params.add(scope.id)}::uuid AND cp.product_id = vs.product_id)) AS pos`);
    let keyset = '';
    if (page.after) {
      if (page.after.length !== keys.length) throw AppError.unprocessable('page_info does not match this list');
      const k = keysetCondition(keys, page.after);
      keyset = `WHERE ${k.sql.replace(/:ks(\d+)/g, (_, i: string) => params.add(k.params[`ks${i}`]))}`;
    }
    const sql = `WITH g AS (
        SELECT vs.product_id AS id, min(${where.price_}) AS price, max(vs.product_created_at) AS created, max(vs.title_sort) AS title, max(vs.rating) AS rating
          ${extra.map((e) => `, ${e}`).join('')}
        FROM variant_search vs WHERE ${where.sql()} GROUP BY vs.product_id)
      SELECT * FROM g ${keyset} ORDER BY ${keys.map((k) => `${k.expr} ${k.dir}`).join(', ')} LIMIT ${page.limit + 1}`;
    const m = managerOf(ctx, this.dataSource);
    const rows: Array<{ id: string; price: string; created: Date; title: string; rating: string; rel?: string; pos?: number }> = await m.query(sql, params.values);
    const paged = this.pager.page(rows, page, (r) => keys.map((k) => positionValue(r, k.expr.slice(2))));
    const products = await this.hydrateList(ctx, paged.items.map((r) => r.id), f, scope);
    const result = new Page(products, paged.limit, paged.nextPageInfo);
    const snap = await this.snapshot.get(ctx.tenantId);
    if (options.facets && f.includeFacets) {
      const { facets, priceRange } = await this.facets(ctx, f, scope, snap);
      return result.with({ facets, price_range: priceRange });
    }
    return result.with({ price_range: await this.priceRange(ctx, f, scope) });
  }

  /** GET /products/facets and /collections/{id}/facets. */
  async facetsOnly(ctx: RequestContext, req: Request, scope: CollectionScope | null): Promise<{ facets: FacetDto[]; price_range: PriceRangeDto }> {
    const f = await this.withTextMatches(ctx, parseFilters(req, 'facets'));
    if (!scope && f.collectionId) scope = await this.scopeOf(ctx, f.collectionId, false);
    const { facets, priceRange } = await this.facets(ctx, f, scope, await this.snapshot.get(ctx.tenantId));
    return { facets, price_range: priceRange };
  }

  /** Resolves the search words to the matching variant ids once, so the list, facet and range queries reuse them. */
  private async withTextMatches(ctx: RequestContext, f: CatalogueFilters): Promise<CatalogueFilters> {
    if (f.words.length === 0) return f;
    const params = new Params();
    const t = params.add(ctx.tenantId);
    const rows: Array<{ variant_id: string }> = await managerOf(ctx, this.dataSource).query(
      `SELECT vs.variant_id FROM variant_search vs WHERE vs.tenant_id = ${t} AND ${f.words.map((w) => textClause(params, w)).join(' AND ')}`,
      params.values,
    );
    return { ...f, textMatches: rows.map((r) => r.variant_id) };
  }

  private async priceRange(ctx: RequestContext, f: CatalogueFilters, scope: CollectionScope | null): Promise<PriceRangeDto> {
    const params = new Params();
    const where = new CatalogueWhere(params, ctx.tenantId, { ...f, priceMin: null, priceMax: null }, ctx.activeCurrency, scope);
    const [row] = await managerOf(ctx, this.dataSource).query(`SELECT min(${where.price_}) AS min, max(${where.price_}) AS max FROM variant_search vs WHERE ${where.sql('price')}`, params.values);
    return { min: row?.min === null || row?.min === undefined ? 0 : Number(row.min), max: row?.max === null || row?.max === undefined ? 0 : Number(row.max), currency: ctx.activeCurrency.code };
  }

  /**
   * Every dimension's counts in one statement: the dimensions not filtered on share one materialized set of
   * matching variant rows; each filtered dimension gets its own set with every filter but its own.
   */
  private async facets(ctx: RequestContext, f: CatalogueFilters, scope: CollectionScope | null, snap: Snapshot): Promise<{ facets: FacetDto[]; priceRange: PriceRangeDto }> {
    const params = new Params();
    const where = new CatalogueWhere(params, ctx.tenantId, f, ctx.activeCurrency, scope);
    const cols = `vs.product_id, vs.manufacturer_id, vs.category_ids, vs.color_id, vs.size_id, vs.year_id, vs.country_id, vs.region_id, vs.option_ids`;
    const ctes = [`m_all AS MATERIALIZED (SELECT ${cols} FROM variant_search vs WHERE ${where.sql()})`];
    const source = (k: FacetKey) => (where.dim.has(k) ? `m_${k}` : 'm_all');
    for (const k of where.dim.keys()) ctes.push(`m_${k} AS MATERIALIZED (SELECT ${cols} FROM variant_search vs WHERE ${where.sql(k)})`);
    const selects = FACET_KEYS.map((k) => {
      const src = source(k);
      if (k === 'categories') return `SELECT '${k}' AS dim, c::text AS id, count(DISTINCT product_id) AS n FROM ${src}, unnest(category_ids) c GROUP BY c`;
      if (k === 'custom_fields') return `SELECT '${k}' AS dim, o::text AS id, count(DISTINCT product_id) AS n FROM ${src}, unnest(option_ids) o GROUP BY o`;
      const col = { manufacturers: 'manufacturer_id', colors: 'color_id', sizes: 'size_id', years: 'year_id', countries: 'country_id', regions: 'region_id' }[k];
      return `SELECT '${k}' AS dim, ${col}::text AS id, count(DISTINCT product_id) AS n FROM ${src} WHERE ${col} IS NOT NULL GROUP BY ${col}`;
    });
    const priceSql = `SELECT 'price' AS dim, min(${where.price_})::text AS id, 0::bigint AS n FROM variant_search vs WHERE ${where.sql('price')}
      UNION ALL SELECT 'price_max', max(${where.price_})::text, 0 FROM variant_search vs WHERE ${where.sql('price')}`;
    const rows: Array<{ dim: string; id: string | null; n: string }> = await managerOf(ctx, this.dataSource).query(
      `WITH ${ctes.join(', ')} ${selects.join(' UNION ALL ')} UNION ALL ${priceSql}`,
      params.values,
    );
    const byKey = new Map<string, FacetValueDto[]>();
    let min: number | null = null;
    let max: number | null = null;
    for (const r of rows) {
      if (r.dim === 'price') min = r.id === null ? null : Number(r.id);
      else if (r.dim === 'price_max') max = r.id === null ? null : Number(r.id);
      else if (r.id && Number(r.n) > 0) {
        const e = snap.entries.get(r.id);
        const value: FacetValueDto = { id: r.id, name: e ? nameOf(e.name, ctx) : null, value: r.dim === 'custom_fields' ? (e?.value ?? null) : null, count: Number(r.n) };
        if (!byKey.has(r.dim)) byKey.set(r.dim, []);
        byKey.get(r.dim)!.push(value);
      }
    }
    const facets: FacetDto[] = [];
    for (const k of FACET_KEYS) {
      const values = byKey.get(k);
      if (!values || values.length === 0) continue;
      values.sort((a, b) => (snap.entries.get(a.id)?.rank ?? 1e9) - (snap.entries.get(b.id)?.rank ?? 1e9) || a.id.localeCompare(b.id));
      facets.push({ key: k, values });
    }
    return { facets, priceRange: { min: min ?? 0, max: max ?? 0, currency: ctx.activeCurrency.code } };
  }

  /**
   * The storefront list projection of these products, in the given order, for other modules (the wishlist).
   * Products without a visible variant (unpublished, or every variant hidden) are left out.
   */
  async listProjection(ctx: RequestContext, ids: string[]): Promise<ProductListDto[]> {
    if (ids.length === 0) return [];
    const rows: Array<{ product_id: string }> = await managerOf(ctx, this.dataSource).query(`SELECT DISTINCT product_id FROM variant_search WHERE tenant_id = $1 AND product_id = ANY($2::uuid[])`, [ctx.tenantId, ids]);
    const visible = new Set(rows.map((r) => r.product_id));
    const noFilters = { ids: null, collectionId: null, words: [], dims: {}, priceMin: null, priceMax: null, available: false, onSale: false, order: null, includeFacets: false } as unknown as CatalogueFilters;
    return this.hydrateList(ctx, ids.filter((id) => visible.has(id)), noFilters, null);
  }

  private async hydrateList(ctx: RequestContext, ids: string[], f: CatalogueFilters, scope: CollectionScope | null): Promise<ProductListDto[]> {
    if (ids.length === 0) return [];
    const m = managerOf(ctx, this.dataSource);
    const snap = await this.snapshot.get(ctx.tenantId);
    const products = await this.productRows(ctx, ids);
    const images: Array<{ product_id: string; src: string | null }> = await m.query(
      `SELECT DISTINCT ON (product_id) product_id, src FROM product_images WHERE tenant_id = $1 AND product_id = ANY($2::uuid[]) ORDER BY product_id, position`,
      [ctx.tenantId, ids],
    );
    const counts: Array<{ product_id: string; n: string }> = await m.query(`SELECT product_id, count(*) AS n FROM variant_search WHERE tenant_id = $1 AND product_id = ANY($2::uuid[]) GROUP BY product_id`, [ctx.tenantId, ids]);
    // on a text search only the matching variants are listed
    let variantFilter = '';
    const params = new Params();
    if (f.words.length > 0) {
      const where = new CatalogueWhere(params, ctx.tenantId, f, ctx.activeCurrency, scope);
      variantFilter = `AND ${where.sql()}`;
    } else params.add(ctx.tenantId);
    const idsParam = params.add(ids);
    const variants = await this.variantRows(ctx, `vs.tenant_id = $1 AND vs.product_id = ANY(${idsParam}::uuid[]) ${variantFilter}`, params.values);
    const onHand = await this.stock.onHand(ctx, variants.map((v) => v.id));
    const byProduct = groupBy(variants, (v) => v.product_id);
    const imageOf = new Map(images.map((i) => [i.product_id, i.src]));
    const countOf = new Map(counts.map((c) => [c.product_id, Number(c.n)]));
    return ids.map((id) => {
      const p = products.get(id)!;
      const vs = (byProduct.get(id) ?? []).map((v) => this.mapVariant(ctx, snap, v, onHand.get(v.id) ?? 0, false));
      const prices = vs.map((v) => v.price);
      return {
        id,
        handle: p.handle,
        title: translate(p.title, ctx),
        body_html: translate(p.body_html, ctx),
        image: imageOf.get(id) ?? null,
        available: vs.some((v) => v.available),
        currency: ctx.activeCurrency.code,
        price_min: prices.length ? Math.min(...prices) : 0,
        price_max: prices.length ? Math.max(...prices) : 0,
        variants_count: countOf.get(id) ?? 0,
        manufacturer: this.manufacturerOf(snap, p.manufacturer_id),
        flag: { name: p.flag_name ? translate(p.flag_name, ctx) : null, color: p.flag_color },
        rating: Number(p.rating),
        rating_count: p.rating_count,
        custom_fields: vs[0]?.custom_fields ?? [],
        variants: vs,
      };
    });
  }

  // ---------------------------------------------------------------- single product

  async product(ctx: RequestContext, id: string): Promise<ProductDetailDto> {
    if (!UUID.test(id)) throw AppError.notFound('product');
    const snap = await this.snapshot.get(ctx.tenantId);
    const variants = await this.variantRows(ctx, `vs.tenant_id = $1 AND vs.product_id = $2`, [ctx.tenantId, id]);
    if (variants.length === 0) throw AppError.notFound('product');
    const p = (await this.productRows(ctx, [id])).get(id)!;
    const onHand = await this.stock.onHand(ctx, variants.map((v) => v.id));
    const vs = variants.map((v) => this.mapVariant(ctx, snap, v, onHand.get(v.id) ?? 0, true));
    const imageRows: Array<{ id: string; src: string | null; alt: string | null; position: number; width: number; height: number }> = await managerOf(ctx, this.dataSource).query(
      `SELECT id, src, alt, position, width, height FROM product_images WHERE tenant_id = $1 AND product_id = $2 ORDER BY position`,
      [ctx.tenantId, id],
    );
    const images = imageRows.map((i) => ({ id: i.id, src: i.src, preview_src: i.src, alt: i.alt, position: i.position, width: i.width, height: i.height }));
    const first = p.category_ids[0];
    const path = first ? (snap.entries.get(first)?.path ?? [first]) : [];
    const prices = vs.map((v) => v.price);
    const manufacturer = this.manufacturerOf(snap, p.manufacturer_id);
    return {
      id,
      handle: p.handle,
      title: translate(p.title, ctx),
      body_html: translate(p.body_html, ctx),
      summary_html: translate(p.summary_html, ctx),
      image: images[0] ?? BLANK_IMAGE,
      images,
      available: vs.some((v) => v.available),
      vendor: manufacturer.name,
      rating: Number(p.rating),
      rating_count: p.rating_count,
      currency: ctx.activeCurrency.code,
      price_min: prices.length ? Math.min(...prices) : 0,
      price_max: prices.length ? Math.max(...prices) : 0,
      manufacturer,
      category_path: path.map((cid) => ({ id: cid, name: snap.entries.has(cid) ? nameOf(snap.entries.get(cid)!.name, ctx) : null })),
      flag: { name: p.flag_name ? translate(p.flag_name, ctx) : null, color: p.flag_color },
      custom_fields: vs[0]?.custom_fields ?? [],
      variants: vs,
    };
  }

  async variants(ctx: RequestContext, id: string): Promise<{ currency: string; variants: VariantDto[] }> {
    const product = await this.product(ctx, id);
    return { currency: product.currency, variants: product.variants };
  }

  // ---------------------------------------------------------------- collections

  /** A collection as a list scope; unpublished ones are 404 on the storefront. */
  async scopeOf(ctx: RequestContext, id: string, includeUnpublished: boolean): Promise<CollectionScope & { sortOrder: string | null }> {
    const c = await this.collection(ctx, id, includeUnpublished);
    return { id: c.id, type: c.collectionType, rulesJson: c.rulesJson, sortOrder: c.sortOrder };
  }

  private async collection(ctx: RequestContext, id: string, includeUnpublished: boolean): Promise<Collection> {
    if (!UUID.test(id)) throw AppError.notFound('collection');
    const qb = managerOf(ctx, this.dataSource).getRepository(Collection).createQueryBuilder('c').where('c.id = :id AND c.tenant_id = :t', { id, t: ctx.tenantId });
    if (!includeUnpublished) qb.andWhere('c.published');
    const c = await qb.getOne();
    if (!c) throw AppError.notFound('collection');
    return c;
  }

  async collectionProducts(ctx: RequestContext, req: Request, id: string, admin: boolean): Promise<Page<ProductListDto>> {
    const scope = await this.scopeOf(ctx, id, admin);
    return this.listProducts(ctx, req, admin ? 'admin.collection.products' : 'storefront.collection.products', scope, { facets: !admin, defaultOrder: collectionOrder(scope.sortOrder, scope.type) });
  }

  async collectionFacets(ctx: RequestContext, req: Request, id: string): Promise<{ facets: FacetDto[]; price_range: PriceRangeDto }> {
    return this.facetsOnly(ctx, req, await this.scopeOf(ctx, id, false));
  }

  async listCollections(ctx: RequestContext): Promise<StorefrontCollectionDto[]> {
    const rows = await managerOf(ctx, this.dataSource).getRepository(Collection).createQueryBuilder('c').where('c.tenant_id = :t AND c.published', { t: ctx.tenantId }).orderBy('c.created_at', 'ASC').addOrderBy('c.id', 'ASC').getMany();
    const counts = await this.productsCounts(ctx, rows);
    return rows.map((c) => this.mapCollection(ctx, c, counts.get(c.id) ?? 0, false));
  }

  async getCollection(ctx: RequestContext, id: string): Promise<StorefrontCollectionDto> {
    const c = await this.collection(ctx, id, false);
    const counts = await this.productsCounts(ctx, [c]);
    return this.mapCollection(ctx, c, counts.get(c.id) ?? 0, true);
  }

  /** Visible products of each collection (manual: the picked ones still visible; smart: its rules, evaluated now). */
  async productsCounts(ctx: RequestContext, collections: Array<Pick<Collection, 'id' | 'collectionType' | 'rulesJson'>>): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (collections.length === 0) return out;
    const params = new Params();
    const t = params.add(ctx.tenantId);
    const parts = collections.map((c) => `SELECT ${params.add(c.id)}::text AS id, count(DISTINCT vs.product_id) AS n FROM variant_search vs WHERE vs.tenant_id = ${t} AND ${collectionClause(params, t, { id: c.id, type: c.collectionType, rulesJson: c.rulesJson })}`);
    const rows: Array<{ id: string; n: string }> = await managerOf(ctx, this.dataSource).query(parts.join(' UNION ALL '), params.values);
    for (const r of rows) out.set(r.id, Number(r.n));
    return out;
  }

  /** `productsCounts` by collection id (any collection of the tenant; unknown ids count 0): the admin collections' `products_count`. */
  async productsCountsByIds(ctx: RequestContext, ids: string[]): Promise<Map<string, number>> {
    const valid = ids.filter((id) => UUID.test(id));
    const rows = valid.length
      ? await managerOf(ctx, this.dataSource).getRepository(Collection).createQueryBuilder('c').where('c.tenant_id = :t AND c.id IN (:...ids)', { t: ctx.tenantId, ids: valid }).getMany()
      : [];
    const counts = await this.productsCounts(ctx, rows);
    return new Map(ids.map((id) => [id, counts.get(id) ?? 0]));
  }

  private mapCollection(ctx: RequestContext, c: Collection, count: number, full: boolean): StorefrontCollectionDto {
    return {
      id: c.id,
      handle: c.handle,
      title: translate(c.title, ctx),
      body_html: full ? translate(c.bodyHtml, ctx) : null,
      image: mapImage(c.id, c),
      products_count: count,
      sort_order: c.sortOrder,
      meta_title: full ? c.metaTitle : null,
      meta_description: full ? c.metaDescription : null,
      custom_fields: [],
    };
  }

  // ---------------------------------------------------------------- shared pieces

  private async productRows(ctx: RequestContext, ids: string[]): Promise<Map<string, ProductRow>> {
    const rows: ProductRow[] = await managerOf(ctx, this.dataSource).query(
      `SELECT p.id, p.handle, p.title, p.body_html, p.summary_html, p.manufacturer_id, p.category_ids, p.rating, p.rating_count, f.name AS flag_name, f.color AS flag_color
       FROM products p LEFT JOIN flags f ON f.id = p.flag_id WHERE p.tenant_id = $1 AND p.id = ANY($2::uuid[])`,
      [ctx.tenantId, ids],
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  private async variantRows(ctx: RequestContext, where: string, params: unknown[]): Promise<VariantRow[]> {
    return managerOf(ctx, this.dataSource).query(
      `SELECT v.id, v.product_id, v.handle, v.title, v.sku, v.option_group, v.gross, v.net, v.compare_at_gross, v.tax_rate, vs.available, v.description, v.description_additional,
         v.year_id, v.size_id, v.color_id, v.region_id, v.country_id, v.area, v.alcohol_volume, v.quantity_min, v.quantity_max, v.quantity_increment, v.option_ids
       FROM variant_search vs JOIN variants v ON v.id = vs.variant_id WHERE ${where} ORDER BY vs.product_id, vs.position, v.id`,
      params,
    );
  }

  private manufacturerOf(snap: Snapshot, id: string | null): { id: string | null; name: string | null; logo_url: string | null } {
    if (!id) return { id: null, name: null, logo_url: null };
    const e = snap.entries.get(id);
    return { id, name: e ? (e.name['*'] ?? null) : null, logo_url: e?.logoUrl ?? null };
  }

  /** A visible variant in the active currency; the list view leaves tax_rate, alcohol_volume and option_group at defaults. */
  mapVariant(ctx: RequestContext, snap: Snapshot, v: VariantRow, onHand: number, full: boolean): VariantDto {
    const cur = ctx.activeCurrency;
    const money = (amount: string) => fromMinor(convertMinor(toMinor(amount, 4), cur.rate, 4, cur.precision), cur.precision);
    const price = money(v.gross);
    const compare = v.compare_at_gross === null ? 0 : money(v.compare_at_gross);
    const ref = (id: string | null): FacetRefDto | null => (id ? { id, name: snap.entries.has(id) ? nameOf(snap.entries.get(id)!.name, ctx) : null } : null);
    const name = (id: string | null) => (id ? (ref(id)?.name ?? null) : null);
    const options = v.option_ids.map((oid) => {
      const e = snap.entries.get(oid);
      const field = e?.fieldId ? snap.fields.get(e.fieldId) : undefined;
      return { field, option: { field_key: field?.key ?? '', field_label: field ? translate(field.label, ctx) : null, id: oid, name: e ? nameOf(e.name, ctx) : null } };
    });
    const customFields: CustomFieldDto[] = [];
    const byField = groupBy(options.filter((o) => o.field), (o) => o.field!.id);
    for (const [, list] of [...byField].sort((a, b) => a[1][0].field!.position - b[1][0].field!.position)) {
      const field = list[0].field!;
      customFields.push({ key: field.key, label: translate(field.label, ctx), value: list.map((o) => o.option.name ?? '').join(', '), type: field.type });
    }
    return {
      id: v.id,
      product_id: v.product_id,
      handle: v.handle,
      title: translate(v.title, ctx),
      sku: v.sku,
      option_group: full ? v.option_group : null,
      price,
      net_price: money(v.net),
      compare_at_price: compare > price ? compare : 0,
      tax_rate: full ? Number(v.tax_rate) : 0,
      available: v.available,
      inventory_quantity: onHand,
      description: translate(v.description, ctx),
      description_additional: translate(v.description_additional, ctx),
      year: name(v.year_id),
      size: name(v.size_id),
      area: v.area,
      country: name(v.country_id),
      alcohol_volume: full && v.alcohol_volume !== null ? Number(v.alcohol_volume) : null,
      quantity_rule: { min: Number(v.quantity_min), max: v.quantity_max === null ? null : Number(v.quantity_max), increment: Number(v.quantity_increment) },
      custom_fields: customFields,
      factsheet_url: `/storefront/factsheets/${v.id}.pdf`,
      facets: { color: ref(v.color_id), region: ref(v.region_id), vintage: ref(v.year_id), size: ref(v.size_id), options: options.map((o) => o.option) },
    };
  }
}

function nameOf(name: Translations, ctx: RequestContext): string | null {
  if (name['*'] !== undefined) return name['*'];
  return translate(name, ctx);
}

function positionValue(row: Record<string, unknown>, column: string): SortValue {
  const v = row[column];
  if (v instanceof Date) return v.toISOString();
  if (v === undefined) return null;
  return v as SortValue;
}

function groupBy<T>(list: T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of list) {
    const k = key(item);
    if (!out.has(k)) out.set(k, []);
    out.get(k)!.push(item);
  }
  return out;
}

export { priceExpr };
