import { Inject, Injectable, Optional } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { Collection } from '../collections/index.js';
import { mapImage } from '../collections/index.js';
import type { RequestContext } from '../common/context/request-context.js';
import type { Translations } from '../common/db/base.entity.js';
import { managerOf } from '../common/db/tenant-scope.js';
import type { ImageDto } from '../collections/index.js';
import { AppError } from '../common/http/app-error.js';
import { translate } from '../common/i18n.js';
import { convertMinor, fromMinor, toMinor } from '../pricing/index.js';
import { Page } from '../common/paging/page.js';
import { Pager } from '../common/paging/pager.service.js';
import { CatalogueFilters, CatalogueWhere, collectionClause, CollectionScope, collectionOrder, OrderSpec, Params, parseFilters, priceExpr } from './catalogue-query.js';
import { preparedQuery } from './prepared-query.js';
import { preserialize } from './preserialized-json.js';
import { FacetNameSnapshot, Snapshot } from './facet-name-snapshot.service.js';
import { CATALOGUE_SEARCH } from './index/catalogue-search.js';
import type { CatalogueSearch, CatalogueSearchResult, VariantStock } from './index/catalogue-search.js';
import { ProductJsonCache } from './index/product-json-cache.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export { CustomFieldDto, FacetDto, FacetRefDto, FacetValueDto, PriceRangeDto, ProductDetailDto, ProductListDto, StorefrontCollectionDto, VariantDto } from './dto/catalogue.dto.js';
import type { CustomFieldDto, FacetDto, FacetRefDto, FacetValueDto, PriceRangeDto, ProductDetailDto, ProductListDto, StorefrontCollectionDto, VariantDto } from './dto/catalogue.dto.js';

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
  on_hand?: string;
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
  image?: string | null;
  variants_count?: number;
}

const BLANK_IMAGE: ImageDto = { id: null, src: null, preview_src: null, alt: null, position: 0, width: 0, height: 0 };

/** Storefront products, facets, collections and the admin's collection products (SPEC, CONTRACT 7). */
@Injectable()
export class StorefrontCatalogueService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pager: Pager,
    private readonly snapshot: FacetNameSnapshot,
    @Inject(CATALOGUE_SEARCH) private readonly search: CatalogueSearch,
    private readonly productCache: ProductJsonCache,
    @Optional() private readonly config?: AppConfig,
  ) {}

  // ---------------------------------------------------------------- lists

  /**
   * GET /products (and collection products): one page, `price_range`, and `facets` when asked for, all from the
   * catalogue engine (`CatalogueSearch`: the in-memory index); the page's products are hydrated from the per-product
   * JSON cache with the live availability and on-hand overlaid.
   */
  async listProducts(ctx: RequestContext, req: Request, listId: string, scope: CollectionScope | null, options: { facets: boolean; defaultOrder?: OrderSpec } = { facets: true }): Promise<Page<ProductListDto>> {
    const f = parseFilters(req, scope ? 'collection' : 'products');
    const page = this.pager.request(req, listId);
    if (!scope && f.collectionId) scope = await this.filterScope(ctx, f.collectionId);
    const order: OrderSpec = f.order ?? (f.words.length > 0 ? 'relevance' : options.defaultOrder ?? 'created desc');
    const resolved: OrderSpec = order === 'manual' && scope?.type !== 'manual' ? 'created desc' : order;
    if (page.after && page.after.length !== 2) throw AppError.unprocessable('page_info does not match this list');
    const facets = options.facets && f.includeFacets;
    const snap = await this.snapshot.get(ctx.tenantId);
    const result = await this.search.search(ctx, { filters: f, scope, order: resolved, after: page.after, rows: page.limit + 1, facets, rank: rankOf(snap) });
    const paged = this.pager.page(result.rows, page, (r) => r.position);
    const products = await this.hydratePage(ctx, snap, paged.items);
    const priceRange = { min: result.priceRange.min ?? 0, max: result.priceRange.max ?? 0, currency: ctx.activeCurrency.code };
    const out = new Page(products, paged.limit, paged.nextPageInfo);
    if (result.facets) return out.with({ facets: this.mapFacets(ctx, snap, result.facets), price_range: priceRange });
    return out.with({ price_range: priceRange });
  }

  /** GET /products/facets and /collections/{id}/facets. */
  async facetsOnly(ctx: RequestContext, req: Request, scope: CollectionScope | null): Promise<{ facets: FacetDto[]; price_range: PriceRangeDto }> {
    const f = parseFilters(req, 'facets');
    if (!scope && f.collectionId) scope = await this.filterScope(ctx, f.collectionId);
    const snap = await this.snapshot.get(ctx.tenantId);
    const result = await this.search.search(ctx, { filters: f, scope, order: 'created desc', after: null, rows: 0, facets: true, rank: rankOf(snap) });
    return {
      facets: this.mapFacets(ctx, snap, result.facets ?? []),
      price_range: { min: result.priceRange.min ?? 0, max: result.priceRange.max ?? 0, currency: ctx.activeCurrency.code },
    };
  }

  /** Named facets per engine answer and language (an answer is reused while the catalogue content stands). */
  private readonly named = new WeakMap<object, Map<string, FacetDto[]>>();

  /**
   * Facet DTOs (already in SPEC order and ranked by the snapshot): names in the active language. Kept with the
   * engine's answer and serialized once (`preserialize`: a large category's facets are hundreds of kilobytes).
   */
  private mapFacets(ctx: RequestContext, snap: Snapshot, groups: NonNullable<CatalogueSearchResult['facets']>): FacetDto[] {
    const key = `${ctx.language}/${ctx.defaultLanguage}|${snap.at}`;
    let byLang = this.named.get(groups);
    if (!byLang) this.named.set(groups, (byLang = new Map()));
    const hit = byLang.get(key);
    if (hit) return hit;
    const mapped = preserialize(this.nameFacets(ctx, snap, groups));
    if (byLang.size > 8) byLang.clear();
    byLang.set(key, mapped);
    return mapped;
  }

  private nameFacets(ctx: RequestContext, snap: Snapshot, groups: NonNullable<CatalogueSearchResult['facets']>): FacetDto[] {
    return groups.map(({ key, values }) => ({
      key,
      values: values.map(({ id, count }): FacetValueDto => {
        const e = snap.entries.get(id);
        return { id, name: e ? nameOf(e.name, ctx) : null, value: key === 'custom_fields' ? (e?.value ?? null) : null, count };
      }),
    }));
  }


  /**
   * The storefront list projection of these products, in the given order, for other modules (the wishlist).
   * Products without a visible variant (unpublished, or every variant hidden) are left out.
   */
  async listProjection(ctx: RequestContext, ids: string[]): Promise<ProductListDto[]> {
    if (ids.length === 0) return [];
    const rows: Array<{ product_id: string }> = await managerOf(ctx, this.dataSource).query(`SELECT product_id FROM product_search WHERE tenant_id = $1 AND product_id = ANY($2::uuid[])`, [ctx.tenantId, ids]);
    const visible = new Set(rows.map((r) => r.product_id));
    const noFilters = { ids: null, collectionId: null, words: [], dims: {}, priceMin: null, priceMax: null, available: false, onSale: false, order: null, includeFacets: false } as unknown as CatalogueFilters;
    return this.hydrateList(ctx, ids.filter((id) => visible.has(id)), noFilters, null);
  }

  /**
   * The list projection of a page: each product's JSON from `ProductJsonCache` (per product, language, currency
   * and name snapshot; filled from the primary on a miss), with the index's live availability and on-hand of each
   * variant overlaid; with `q` only the matching variants are listed (and priced).
   */
  private async hydratePage(ctx: RequestContext, snap: Snapshot, rows: Array<{ id: string; variantIds: string[] | null }>): Promise<ProductListDto[]> {
    if (rows.length === 0) return [];
    const cur = ctx.activeCurrency;
    const keyOf = (id: string) => `${ctx.tenantId}|${id}|list|${ctx.language}/${ctx.defaultLanguage}|${cur.code}/${cur.rate}/${cur.precision}|${snap.at}`;
    const cached = new Map<string, ProductListDto>();
    const missing: string[] = [];
    for (const r of rows) {
      const hit = this.productCache.get<ProductListDto>(keyOf(r.id));
      if (hit) cached.set(r.id, hit);
      else missing.push(r.id);
    }
    if (missing.length > 0) {
      const noFilters = { ids: null, collectionId: null, words: [], dims: {}, priceMin: null, priceMax: null, available: false, onSale: false, order: null, includeFacets: false } as unknown as CatalogueFilters;
      for (const p of await this.hydrateList(this.fillContext(ctx, missing), missing, noFilters, null)) {
        cached.set(p.id, p);
        this.productCache.set(keyOf(p.id), ctx.tenantId, p.id, p, JSON.stringify(p).length * 2);
      }
    }
    const stock = await this.search.stock(ctx, [...cached.values()].flatMap((p) => p.variants.map((v) => v.id)));
    const out: ProductListDto[] = [];
    for (const r of rows) {
      const p = cached.get(r.id);
      if (!p) continue; // gone since the index answered
      let vs = p.variants;
      if (r.variantIds) {
        const listed = new Set(r.variantIds);
        vs = vs.filter((v) => listed.has(v.id));
      }
      vs = vs.map((v) => withStock(v, stock.get(v.id)));
      const prices = vs.map((v) => v.price);
      out.push({
        ...p,
        available: vs.some((v) => v.available),
        price_min: prices.length ? Math.min(...prices) : 0,
        price_max: prices.length ? Math.max(...prices) : 0,
        custom_fields: vs[0]?.custom_fields ?? [],
        variants: vs,
      });
    }
    return out;
  }


  /** Products of a page: one statement for the products (flag, first image, visible variant count), one for their variants with on-hand. */
  private async hydrateList(ctx: RequestContext, ids: string[], f: CatalogueFilters, scope: CollectionScope | null): Promise<ProductListDto[]> {
    if (ids.length === 0) return [];
    const snap = await this.snapshot.get(ctx.tenantId);
    // on a text search only the matching variants are listed
    let variantFilter = '';
    const params = new Params();
    if (f.words.length > 0) {
      const where = new CatalogueWhere(params, ctx.tenantId, f, ctx.activeCurrency, scope);
      variantFilter = `AND ${where.sql()}`;
    } else params.add(ctx.tenantId);
    const idsParam = params.add(ids);
    const [products, variants] = await Promise.all([
      this.productRows(ctx, ids, true),
      // without a search the statement text is fixed: a prepared statement
      this.variantRows(ctx, `vs.tenant_id = $1 AND vs.product_id = ANY(${idsParam}::uuid[]) ${variantFilter}`, params.values, true, variantFilter === ''),
    ]);
    const byProduct = groupBy(variants, (v) => v.product_id);
    // a product gone since a cached match set was computed (another instance's write, within the TTL) is left out
    return ids.filter((id) => products.has(id)).map((id) => {
      const p = products.get(id)!;
      const vs = (byProduct.get(id) ?? []).map((v) => this.mapVariant(ctx, snap, v, Number(v.on_hand ?? 0), false));
      const prices = vs.map((v) => v.price);
      return {
        id,
        handle: p.handle,
        title: translate(p.title, ctx),
        body_html: translate(p.body_html, ctx),
        image: p.image ?? null,
        available: vs.some((v) => v.available),
        currency: ctx.activeCurrency.code,
        price_min: prices.length ? Math.min(...prices) : 0,
        price_max: prices.length ? Math.max(...prices) : 0,
        variants_count: p.variants_count ?? 0,
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

  /** GET /products/{id}: visible per the index; the detail JSON from `ProductJsonCache` with live stock overlaid. */
  async product(ctx: RequestContext, id: string): Promise<ProductDetailDto> {
    if (!UUID.test(id)) throw AppError.notFound('product');
    const [visible, snap] = await Promise.all([this.search.visible(ctx, [id.toLowerCase()]), this.snapshot.get(ctx.tenantId)]);
    id = id.toLowerCase();
    if (!visible.has(id)) throw AppError.notFound('product');
    const cur = ctx.activeCurrency;
    const key = `${ctx.tenantId}|${id}|detail|${ctx.language}/${ctx.defaultLanguage}|${cur.code}/${cur.rate}/${cur.precision}|${snap.at}`;
    let detail = this.productCache.get<ProductDetailDto>(key);
    if (!detail) {
      detail = await this.loadProduct(this.fillContext(ctx, [id]), id, snap);
      this.productCache.set(key, ctx.tenantId, id, detail, JSON.stringify(detail).length * 2);
    }
    const stock = await this.search.stock(ctx, detail.variants.map((v) => v.id));
    const variants = detail.variants.map((v) => withStock(v, stock.get(v.id)));
    return { ...detail, variants, available: variants.some((v) => v.available) };
  }

  /**
   * Where a cache fill reads: the request's replica, unless one of the products changed recently (a replica further
   * behind than REPLICA_MAX_LAG_MS is not used, so after that window every replica has the change): then the primary.
   */
  private fillContext(ctx: RequestContext, productIds: string[]): RequestContext {
    return this.search.changedRecently(ctx.tenantId, productIds, (this.config?.REPLICA_MAX_LAG_MS ?? 5_000) + 1_000) ? onPrimary(ctx) : ctx;
  }

  private async loadProduct(ctx: RequestContext, id: string, snap: Snapshot): Promise<ProductDetailDto> {
    const m = managerOf(ctx, this.dataSource);
    const [variants, products, imageRows] = await Promise.all([
      this.variantRows(ctx, `vs.tenant_id = $1 AND vs.product_id = $2`, [ctx.tenantId, id], true, true),
      this.productRows(ctx, [id], false),
      preparedQuery<{ id: string; src: string | null; alt: string | null; position: number; width: number; height: number }>(
        m,
        `SELECT id, src, alt, position, width, height FROM product_images WHERE tenant_id = $1 AND product_id = $2 ORDER BY position`,
        [ctx.tenantId, id],
      ),
    ]);
    if (variants.length === 0) throw AppError.notFound('product');
    const p = products.get(id)!;
    const vs = variants.map((v) => this.mapVariant(ctx, snap, v, Number(v.on_hand ?? 0), true));
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
      // SPEC Image.id is a uuid: without images the blank image carries the product's id (as collections use their own)
      image: images[0] ?? { ...BLANK_IMAGE, id },
      images,
      available: vs.some((v) => v.available),
      // SPEC: vendor is a string (not nullable): "" without a manufacturer
      vendor: manufacturer.name ?? '',
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

  /**
   * The `collection_id` filter of GET /products: like any other filter value, one that names no published collection
   * of the shop matches nothing (a rule set that no product meets) rather than 404, which is kept for the collection's own paths.
   */
  private async filterScope(ctx: RequestContext, id: string): Promise<CollectionScope> {
    try {
      return await this.scopeOf(ctx, id, false);
    } catch (err) {
      if (err instanceof AppError && err.status === 404) return { id, type: 'smart', rulesJson: '{"any":[]}' };
      throw err;
    }
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
    const parts = collections.map((c) => `SELECT ${params.add(c.id)}::text AS id, count(*) AS n FROM product_search ps WHERE ps.tenant_id = ${t} AND ${collectionClause(params, t, { id: c.id, type: c.collectionType, rulesJson: c.rulesJson }, 'ps')}`);
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

  /** Product rows; `listed` adds the first image and the visible variant count (from the rollup). */
  private async productRows(ctx: RequestContext, ids: string[], listed: boolean): Promise<Map<string, ProductRow>> {
    const extra = listed
      ? `, (SELECT i.src FROM product_images i WHERE i.tenant_id = p.tenant_id AND i.product_id = p.id ORDER BY i.position LIMIT 1) AS image,
         (SELECT ps.variants_count FROM product_search ps WHERE ps.product_id = p.id) AS variants_count`
      : '';
    const rows = await preparedQuery<ProductRow>(
      managerOf(ctx, this.dataSource),
      `SELECT p.id, p.handle, p.title, p.body_html, ${listed ? "'{}'::jsonb AS summary_html" : 'p.summary_html'}, p.manufacturer_id, p.category_ids, p.rating, p.rating_count, f.name AS flag_name, f.color AS flag_color ${extra}
       FROM products p LEFT JOIN flags f ON f.id = p.flag_id WHERE p.tenant_id = $1 AND p.id = ANY($2::uuid[])`,
      [ctx.tenantId, ids],
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** Visible variants with their on-hand (sum of the stock ledger over every location, as `StockService.onHand`). */
  private async variantRows(ctx: RequestContext, where: string, params: unknown[], withOnHand = false, prepared = false): Promise<VariantRow[]> {
    const onHand = withOnHand ? `, (SELECT coalesce(sum(sm.delta), 0) FROM stock_movements sm WHERE sm.tenant_id = vs.tenant_id AND sm.variant_id = vs.variant_id) AS on_hand` : '';
    const m = managerOf(ctx, this.dataSource);
    return (prepared ? (text: string, values: unknown[]) => preparedQuery<VariantRow>(m, text, values) : (text: string, values: unknown[]) => m.query(text, values) as Promise<VariantRow[]>)(
      `SELECT v.id, v.product_id, v.handle, v.title, v.sku, v.option_group, v.gross, v.net, v.compare_at_gross, v.tax_rate, vs.available, v.description, v.description_additional,
         v.year_id, v.size_id, v.color_id, v.region_id, v.country_id, v.area, v.alcohol_volume, v.quantity_min, v.quantity_max, v.quantity_increment, v.option_ids ${onHand}
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

/** Facet values rank by the name snapshot (its build time is the version of the ranks). */
function rankOf(snap: Snapshot): { version: number; of: (id: string) => number } {
  return { version: snap.at, of: (id) => snap.entries.get(id)?.rank ?? 1e9 };
}

/** The context without a replica or transaction manager: cache fills read the primary (never a lagging replica). */
function onPrimary(ctx: RequestContext): RequestContext {
  if (!ctx.manager || ctx.manager.queryRunner?.isTransactionActive) return ctx;
  const copy = Object.assign(Object.create(Object.getPrototypeOf(ctx) as object) as RequestContext, ctx);
  copy.manager = null;
  return copy;
}

/** A variant with the index's live availability and on-hand. */
function withStock(v: VariantDto, s: VariantStock | undefined): VariantDto {
  return s ? { ...v, available: s.available, inventory_quantity: s.onHand } : v;
}

function nameOf(name: Translations, ctx: RequestContext): string | null {
  if (name['*'] !== undefined) return name['*'];
  return translate(name, ctx);
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
