import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { Collection } from '../collections/entities/collection.entity.js';
import { mapImage } from '../collections/dto/image.dto.js';
import type { RequestContext } from '../common/context/request-context.js';
import type { Translations } from '../common/db/base.entity.js';
import { managerOf } from '../common/db/tenant-scope.js';
import type { ImageDto } from '../collections/dto/image.dto.js';
import { AppError } from '../common/http/app-error.js';
import { translate } from '../common/i18n.js';
import { convertMinor, fromMinor, toMinor } from '../common/money.js';
import { Page } from '../common/paging/page.js';
import { keysetCondition, Pager, SortKey, SortValue } from '../common/paging/pager.service.js';
import { CatalogueFilters, CatalogueWhere, collectionClause, CollectionScope, collectionOrder, constrainsVariants, FACET_KEYS, FacetKey, filterKey, OrderSpec, Params, parseFilters, priceExpr, ProductWhere, sortKeys, textClause } from './catalogue-query.js';
import { CatalogueCache } from './catalogue-cache.service.js';
import { MATCH_SET_MAX, MatchRow, MatchSet } from './match-set.js';
import { preparedQuery } from './prepared-query.js';
import { preserialize } from './preserialized-json.js';
import { FacetNameSnapshot, Snapshot } from './facet-name-snapshot.service.js';
import { StockService } from './stock.service.js';

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

/** Facet counts of one filter set: per set (`all`, or a filtered dimension) the (id, count) pairs, and the price range. */
interface FacetCounts {
  sets: Map<string, Array<[string, number]>>;
  min: number | null;
  max: number | null;
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
    private readonly cache: CatalogueCache,
  ) {}

  // ---------------------------------------------------------------- lists

  /**
   * GET /products (and collection products): one page, `price_range`, and `facets` when asked for.
   * Filters that do not constrain variants (categories, vendor, collection, ids) read the per-product rollup
   * `product_search` in the order of one of its indexes; any variant-level filter reads `variant_search`, where
   * every clause is about one variant row (CONTRACT 7), grouped by product.
   */
  async listProducts(ctx: RequestContext, req: Request, listId: string, scope: CollectionScope | null, options: { facets: boolean; defaultOrder?: OrderSpec } = { facets: true }): Promise<Page<ProductListDto>> {
    const f = await this.withTextMatches(ctx, parseFilters(req, scope ? 'collection' : 'products'));
    const page = this.pager.request(req, listId);
    if (!scope && f.collectionId) scope = await this.filterScope(ctx, f.collectionId);
    const order: OrderSpec = f.order ?? (f.words.length > 0 ? 'relevance' : options.defaultOrder ?? 'created desc');
    const keys = sortKeys(order === 'manual' && scope?.type !== 'manual' ? 'created desc' : order);
    const manual = order === 'manual' && scope?.type === 'manual';
    if (page.after && page.after.length !== keys.length) throw AppError.unprocessable('page_info does not match this list');
    // variant-level filters: the cached match set of the filter set, when it is small enough to keep
    const set = !manual && constrainsVariants(f) ? await this.matchSet(ctx, f, scope) : null;
    const rows: Array<{ id: string; price: string; created: Date; title: string; rating: string; rel?: string; pos?: number }> = set
      ? set.page(keys, page.after, page.limit + 1)
      : await this.listQuery(ctx, f, scope, order, keys, page.after, page.limit, manual);
    const paged = this.pager.page(rows, page, (r) => keys.map((k) => positionValue(r, k.expr.slice(2))));
    const [products, extras] = await Promise.all([
      this.hydratePage(ctx, paged.items.map((r) => r.id), f, scope),
      options.facets && f.includeFacets ? this.facets(ctx, f, scope) : this.priceRange(ctx, f, scope).then((priceRange) => ({ facets: undefined, priceRange })),
    ]);
    const result = new Page(products, paged.limit, paged.nextPageInfo);
    if (extras.facets) return result.with({ facets: extras.facets, price_range: extras.priceRange });
    return result.with({ price_range: extras.priceRange });
  }

  /**
   * The products matching a variant-constrained filter set with their sort keys (one grouped query over
   * `variant_search`, relevance included with `q`), cached per tenant + filter set + currency like the facet counts.
   * Null when the scope is not cacheable or the set has more than MATCH_SET_MAX products (then SQL lists each page:
   * such a set is a large share of the catalogue, so an index-order walk finds a page quickly).
   */
  private async matchSet(ctx: RequestContext, f: CatalogueFilters, scope: CollectionScope | null): Promise<MatchSet | null> {
    if (!this.cache.enabled || !this.cacheable(scope)) return null;
    return this.cache.get(
      ctx.tenantId,
      `match|${filterKey(f, scope, ctx.activeCurrency)}`,
      async () => {
        const params = new Params();
        const where = new CatalogueWhere(params, ctx.tenantId, f, ctx.activeCurrency, scope);
        const rel = f.words.length > 0 ? `, round(max(${where.relevance()})::numeric, 6) AS rel` : '';
        const rows: MatchRow[] = await managerOf(ctx, this.dataSource).query(
          `SELECT vs.product_id AS id, min(${where.price_}) AS price, max(vs.product_created_at) AS created, max(vs.title_sort) AS title, max(vs.rating) AS rating${rel}
           FROM variant_search vs WHERE ${where.sql()} GROUP BY vs.product_id LIMIT ${MATCH_SET_MAX + 1}`,
          params.values,
        );
        return rows.length > MATCH_SET_MAX ? null : new MatchSet(rows);
      },
      (set) => set?.size ?? 1,
    );
  }

  /** One page (limit + 1 rows) of a list in SQL, after the cursor position `after`. */
  private async listQuery(ctx: RequestContext, f: CatalogueFilters, scope: CollectionScope | null, order: OrderSpec, keys: SortKey[], after: SortValue[] | null, limit: number, manual: boolean) {
    const params = new Params();
    let inner: string;
    if (!constrainsVariants(f)) {
      const where = new ProductWhere(params, ctx.tenantId, f, scope);
      const pos = manual ? `, (SELECT min(cp.position) FROM collection_products cp WHERE cp.collection_id = ${params.add(scope!.id)}::uuid AND cp.product_id = ps.product_id) AS pos` : '';
      inner = `SELECT ps.product_id AS id, ${priceExpr(ctx.activeCurrency, 'ps', 'min_gross')} AS price, ps.created_at AS created, ps.title_sort AS title, ps.rating AS rating${pos}
        FROM product_search ps WHERE ${where.sql()}`;
    } else if (order === 'created desc' || order === 'created asc' || order === 'title asc' || order === 'title desc' || order === 'rating desc') {
      // product-level sort keys: walk the rollup in index order, keeping products with a variant matching every clause
      const pw = new ProductWhere(params, ctx.tenantId, f, scope);
      const where = new CatalogueWhere(params, ctx.tenantId, f, ctx.activeCurrency, scope);
      inner = `SELECT ps.product_id AS id, ps.min_gross AS price, ps.created_at AS created, ps.title_sort AS title, ps.rating AS rating
        FROM product_search ps WHERE ${pw.sql()} AND EXISTS (SELECT 1 FROM variant_search vs WHERE vs.product_id = ps.product_id AND ${where.sql()})`;
    } else {
      const where = new CatalogueWhere(params, ctx.tenantId, f, ctx.activeCurrency, scope);
      const extra: string[] = [];
      if (order === 'relevance') extra.push(`round(max(${where.relevance()})::numeric, 6) AS rel`);
      if (manual) extra.push(`min((SELECT cp.position FROM collection_products cp WHERE cp.collection_id = ${params.add(scope!.id)}::uuid AND cp.product_id = vs.product_id)) AS pos`);
      inner = `SELECT vs.product_id AS id, min(${where.price_}) AS price, max(vs.product_created_at) AS created, max(vs.title_sort) AS title, max(vs.rating) AS rating
          ${extra.map((e) => `, ${e}`).join('')}
        FROM variant_search vs WHERE ${where.sql()} GROUP BY vs.product_id`;
    }
    let keyset = '';
    if (after) {
      if (keys.every((k) => k.dir === keys[0].dir) && after.every((v) => v !== null)) {
        // one direction: a row comparison, which the order's index serves as a start position
        keyset = `WHERE (${keys.map((k) => k.expr).join(', ')}) ${keys[0].dir === 'ASC' ? '>' : '<'} (${after.map((v) => params.add(v)).join(', ')})`;
      } else {
        const k = keysetCondition(keys, after);
        keyset = `WHERE ${k.sql.replace(/:ks(\d+)/g, (_, i: string) => params.add(k.params[`ks${i}`]))}`;
      }
    }
    const sql = `SELECT * FROM (${inner}) g ${keyset} ORDER BY ${keys.map((k) => `${k.expr} ${k.dir}`).join(', ')} LIMIT ${limit + 1}`;
    const rows: Array<{ id: string; price: string; created: Date; title: string; rating: string; rel?: string; pos?: number }> = await managerOf(ctx, this.dataSource).query(sql, params.values);
    return rows;
  }

  /** GET /products/facets and /collections/{id}/facets. */
  async facetsOnly(ctx: RequestContext, req: Request, scope: CollectionScope | null): Promise<{ facets: FacetDto[]; price_range: PriceRangeDto }> {
    const f = await this.withTextMatches(ctx, parseFilters(req, 'facets'));
    if (!scope && f.collectionId) scope = await this.filterScope(ctx, f.collectionId);
    const { facets, priceRange } = await this.facets(ctx, f, scope);
    return { facets, price_range: priceRange };
  }

  /** Resolves the search words to the matching variant ids once (cached), so the list, facet and range queries reuse them. */
  private async withTextMatches(ctx: RequestContext, f: CatalogueFilters): Promise<CatalogueFilters> {
    if (f.words.length === 0) return f;
    const matches = await this.cache.get(ctx.tenantId, `text|${f.words.join(' ')}`, async () => {
      const params = new Params();
      const t = params.add(ctx.tenantId);
      const rows: Array<{ variant_id: string }> = await this.dataSource.query(
        `SELECT vs.variant_id FROM variant_search vs WHERE vs.tenant_id = ${t} AND ${f.words.map((w) => textClause(params, w)).join(' AND ')}`,
        params.values,
      );
      return rows.map((r) => r.variant_id);
    });
    return { ...f, textMatches: matches };
  }

  /** A scope whose products can change without a catalogue change (a manual collection's picks) is not cached. */
  private cacheable(scope: CollectionScope | null): boolean {
    return !scope || scope.type === 'smart';
  }

  private async priceRange(ctx: RequestContext, f: CatalogueFilters, scope: CollectionScope | null): Promise<PriceRangeDto> {
    const compute = async () => {
      const params = new Params();
      let sql: string;
      if (!constrainsVariants(f, 'price')) {
        const where = new ProductWhere(params, ctx.tenantId, f, scope);
        sql = `SELECT min(${priceExpr(ctx.activeCurrency, 'ps', 'min_gross')}) AS min, max(${priceExpr(ctx.activeCurrency, 'ps', 'max_gross')}) AS max FROM product_search ps WHERE ${where.sql('price')}`;
      } else {
        const where = new CatalogueWhere(params, ctx.tenantId, { ...f, priceMin: null, priceMax: null }, ctx.activeCurrency, scope);
        sql = `SELECT min(${where.price_}) AS min, max(${where.price_}) AS max FROM variant_search vs WHERE ${where.sql('price')}`;
      }
      const [row] = await managerOf(ctx, this.dataSource).query(sql, params.values);
      return { min: row?.min == null ? 0 : Number(row.min), max: row?.max == null ? 0 : Number(row.max) };
    };
    const range = this.cacheable(scope) ? await this.cache.get(ctx.tenantId, `range|${filterKey(f, scope, ctx.activeCurrency)}`, compute) : await compute();
    return { ...range, currency: ctx.activeCurrency.code };
  }

  /**
   * Facets and price range. The counts of every dimension come from one statement: one "set" of matching products
   * for the full filter set and one per dimension already filtered on (every filter but its own); each set unnests
   * the facet ids of its rows once and counts them grouped by id. A set whose filters do not constrain variants
   * counts `product_search` rows (one per product); otherwise distinct (product, id) pairs of matching variant rows.
   * Counts are cached (`CatalogueCache`); names are mapped from the snapshot per language. With the cache on, each
   * set is its own cached statement keyed by the filters it applies (`sharedFacetCounts`); the one statement is for
   * uncached scopes (manual collections) and a disabled cache.
   */
  private async facets(ctx: RequestContext, f: CatalogueFilters, scope: CollectionScope | null): Promise<{ facets: FacetDto[]; priceRange: PriceRangeDto }> {
    const snap = await this.snapshot.get(ctx.tenantId);
    const key = filterKey(f, scope, ctx.activeCurrency);
    const compute = async () => this.mapFacets(ctx, await this.facetCounts(ctx, f, scope), snap);
    const mapped = this.cacheable(scope)
      ? await this.cache.get(ctx.tenantId, `facets|${key}|${ctx.language}|${snap.at}`, () => this.cache.get(ctx.tenantId, `counts|${key}`, () => this.facetCounts(ctx, f, scope)).then((c) => this.mapFacets(ctx, c, snap)))
      : await compute();
    return { facets: mapped.facets, priceRange: { min: mapped.min, max: mapped.max, currency: ctx.activeCurrency.code } };
  }

  private async facetCounts(ctx: RequestContext, f: CatalogueFilters, scope: CollectionScope | null): Promise<FacetCounts> {
    if (this.cache.enabled && this.cacheable(scope)) return this.sharedFacetCounts(ctx, f, scope);
    const params = new Params();
    let pw: ProductWhere | undefined;
    let vw: CatalogueWhere | undefined;
    const productWhere = () => (pw ??= new ProductWhere(params, ctx.tenantId, f, scope));
    const variantWhere = () => (vw ??= new CatalogueWhere(params, ctx.tenantId, f, ctx.activeCurrency, scope));
    const ids = `vs.category_ids || vs.option_ids || ARRAY[vs.manufacturer_id, vs.color_id, vs.region_id, vs.year_id, vs.size_id, vs.country_id]`;
    const countSet = (set: string, without?: FacetKey) =>
      !constrainsVariants(f, without)
        ? `SELECT '${set}' AS s, x::text AS id, count(*) AS n FROM product_search ps, unnest(ps.facet_ids) x WHERE ${productWhere().sql(without)} GROUP BY x`
        : `SELECT '${set}' AS s, d.x::text AS id, count(*) AS n FROM (SELECT DISTINCT vs.product_id, x FROM variant_search vs, unnest(${ids}) x WHERE ${variantWhere().sql(without)} AND x IS NOT NULL) d GROUP BY d.x`;
    const parts = [countSet('all')];
    for (const k of FACET_KEYS) if (f.dims[k].length > 0) parts.push(countSet(k, k));
    const cur = ctx.activeCurrency;
    parts.push(
      !constrainsVariants(f, 'price')
        ? `SELECT 'price', min(${priceExpr(cur, 'ps', 'min_gross')})::text, 0::bigint FROM product_search ps WHERE ${productWhere().sql('price')}
           UNION ALL SELECT 'price_max', max(${priceExpr(cur, 'ps', 'max_gross')})::text, 0::bigint FROM product_search ps WHERE ${productWhere().sql('price')}`
        : `SELECT 'price', min(r.p)::text, 0::bigint FROM r UNION ALL SELECT 'price_max', max(r.p)::text, 0::bigint FROM r`,
    );
    const withRange = constrainsVariants(f, 'price') ? `WITH r AS MATERIALIZED (SELECT ${priceExpr(cur)} AS p FROM variant_search vs WHERE ${variantWhere().sql('price')}) ` : '';
    const rows: Array<{ s: string; id: string | null; n: string }> = await managerOf(ctx, this.dataSource).query(`${withRange}${parts.join(' UNION ALL ')}`, params.values);
    const out: FacetCounts = { sets: new Map(), min: null, max: null };
    for (const r of rows) {
      if (r.s === 'price') out.min = r.id === null ? null : Number(r.id);
      else if (r.s === 'price_max') out.max = r.id === null ? null : Number(r.id);
      else if (r.id !== null && Number(r.n) > 0) {
        if (!out.sets.has(r.s)) out.sets.set(r.s, []);
        out.sets.get(r.s)!.push([r.id, Number(r.n)]);
      }
    }
    return out;
  }

  /**
   * `facetCounts` from separately cached sets: each set is keyed by the filters it applies (the set of a dimension
   * filtered on is the filter set without that dimension), so filter sets share sets: the `categories` set of every
   * category page is the unfiltered catalogue's `all` set. The price range is the cached `priceRange`.
   */
  private async sharedFacetCounts(ctx: RequestContext, f: CatalogueFilters, scope: CollectionScope | null): Promise<FacetCounts> {
    const cur = ctx.activeCurrency;
    const sets: Array<[string, CatalogueFilters]> = [['all', f]];
    for (const k of FACET_KEYS) if (f.dims[k].length > 0) sets.push([k, { ...f, dims: { ...f.dims, [k]: [] } }]);
    const ids = `vs.category_ids || vs.option_ids || ARRAY[vs.manufacturer_id, vs.color_id, vs.region_id, vs.year_id, vs.size_id, vs.country_id]`;
    const countSet = async (sf: CatalogueFilters): Promise<Array<[string, number]>> => {
      const params = new Params();
      const sql = !constrainsVariants(sf)
        ? `SELECT x::text AS id, count(*) AS n FROM product_search ps, unnest(ps.facet_ids) x WHERE ${new ProductWhere(params, ctx.tenantId, sf, scope).sql()} GROUP BY x`
        : `SELECT d.x::text AS id, count(*) AS n FROM (SELECT DISTINCT vs.product_id, x FROM variant_search vs, unnest(${ids}) x WHERE ${new CatalogueWhere(params, ctx.tenantId, sf, cur, scope).sql()} AND x IS NOT NULL) d GROUP BY d.x`;
      const rows: Array<{ id: string | null; n: string }> = await managerOf(ctx, this.dataSource).query(sql, params.values);
      return rows.filter((r) => r.id !== null && Number(r.n) > 0).map((r) => [r.id!, Number(r.n)]);
    };
    const [range, ...lists] = await Promise.all([
      this.priceRange(ctx, f, scope),
      ...sets.map(([, sf]) => this.cache.get(ctx.tenantId, `set|${filterKey(sf, scope, cur)}`, () => countSet(sf))),
    ]);
    const out: FacetCounts = { sets: new Map(), min: range.min, max: range.max };
    sets.forEach(([name], i) => {
      if (lists[i].length > 0) out.sets.set(name, lists[i]);
    });
    return out;
  }

  /** Facet DTOs in SPEC order: each dimension from its set (its own when filtered on, else `all`), named and ranked by the snapshot. */
  private async mapFacets(ctx: RequestContext, counts: FacetCounts, snap: Snapshot): Promise<{ facets: FacetDto[]; min: number; max: number }> {
    const unknown = new Set<string>();
    for (const list of counts.sets.values()) for (const [id] of list) if (!snap.entries.has(id)) unknown.add(id);
    const kindOf = new Map<string, string>([...unknown].length ? await this.kindsOf(ctx, [...unknown]) : []);
    const byKey = new Map<FacetKey, FacetValueDto[]>();
    for (const k of FACET_KEYS) {
      const list = counts.sets.get(k) ?? counts.sets.get('all') ?? [];
      const values: FacetValueDto[] = [];
      for (const [id, n] of list) {
        const e = snap.entries.get(id);
        if ((e ? e.kind : kindOf.get(id)) !== k) continue;
        values.push({ id, name: e ? nameOf(e.name, ctx) : null, value: k === 'custom_fields' ? (e?.value ?? null) : null, count: n });
      }
      if (values.length > 0) byKey.set(k, values);
    }
    const facets: FacetDto[] = [];
    for (const k of FACET_KEYS) {
      const values = byKey.get(k);
      if (!values) continue;
      values.sort((a, b) => (snap.entries.get(a.id)?.rank ?? 1e9) - (snap.entries.get(b.id)?.rank ?? 1e9) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      facets.push({ key: k, values });
    }
    // shared by every request of the cache entry: serialized once (see preserialize)
    return { facets: preserialize(facets), min: counts.min ?? 0, max: counts.max ?? 0 };
  }

  /** The dimension of ids the snapshot does not hold yet (their names stay null until it does). */
  private async kindsOf(ctx: RequestContext, ids: string[]): Promise<Array<[string, string]>> {
    const rows: Array<{ id: string; kind: string }> = await managerOf(ctx, this.dataSource).query(
      `SELECT id::text, dimension AS kind FROM facet_values WHERE tenant_id = $1 AND id = ANY($2::uuid[])
       UNION ALL SELECT id::text, 'manufacturers' FROM manufacturers WHERE tenant_id = $1 AND id = ANY($2::uuid[])
       UNION ALL SELECT id::text, 'categories' FROM categories WHERE tenant_id = $1 AND id = ANY($2::uuid[])
       UNION ALL SELECT id::text, 'custom_fields' FROM custom_field_options WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
      [ctx.tenantId, ids],
    );
    return rows.map((r) => [r.id, r.kind]);
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
   * `hydrateList` of a page, cached with the tenant's other catalogue results (same generation and TTL, so a stock
   * movement or import retires it) per product ids, language, currency and facet-name snapshot, and with `q` the
   * filter set (only matching variants are listed then). The cached array is serialized to JSON once and spliced
   * into each response (`preserialize`); nothing mutates it.
   */
  private async hydratePage(ctx: RequestContext, ids: string[], f: CatalogueFilters, scope: CollectionScope | null): Promise<ProductListDto[]> {
    if (ids.length === 0 || !this.cache.enabled) return this.hydrateList(ctx, ids, f, scope);
    const snap = await this.snapshot.get(ctx.tenantId);
    const cur = ctx.activeCurrency;
    const words = f.words.length > 0 ? filterKey(f, scope, cur) : '';
    const key = `page|${ctx.language}/${ctx.defaultLanguage}|${cur.code}/${cur.rate}/${cur.precision}|${snap.at}|${words}|${ids.join(',')}`;
    return this.cache.get(ctx.tenantId, key, async () => preserialize(await this.hydrateList(ctx, ids, f, scope)));
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

  async product(ctx: RequestContext, id: string): Promise<ProductDetailDto> {
    if (!UUID.test(id)) throw AppError.notFound('product');
    const m = managerOf(ctx, this.dataSource);
    const [snap, variants, products, imageRows] = await Promise.all([
      this.snapshot.get(ctx.tenantId),
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
