import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Collection, collectionsOf, mapImage } from '../collections/index.js';
import type { RequestContext } from '../common/context/request-context.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { translate } from '../common/i18n.js';
import { Page } from '../common/paging/page.js';
import { ListParams } from '../common/paging/list-params.js';
import { Pager } from '../common/paging/pager.service.js';
import { CatalogueFilters, CollectionScope, collectionOrder, OrderSpec, priceExpr } from './repositories/catalogue-query.js';
import { collectionProductCounts } from './smart-collections.repository.js';
import type { CollectionQuery } from './catalogue-query.pipe.js';
import { namedFacets } from './facet-json.js';
import { FacetNameSnapshot, Snapshot } from './facet-name-snapshot.service.js';
import { CatalogueSearch, Extensions, type CatalogueSearchRequest } from '../extensions/index.js';
import { ProductJsonService } from './product-json.service.js';
import { listedProductIdByHandle } from './catalogue.repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export {
  CustomFieldDto,
  FacetDto,
  FacetRefDto,
  FacetValueDto,
  PriceRangeDto,
  ProductDetailDto,
  ProductListDto,
  StorefrontCollectionDto,
  VariantDto,
} from './dto/catalogue.dto.js';
import type { FacetDto, PriceRangeDto, ProductDetailDto, ProductListDto, StorefrontCollectionDto, VariantDto } from './dto/catalogue.dto.js';

/**
 * Storefront products, facets, collections and the admin's collection products (SPEC, CONTRACT 7): filters,
 * counts, orders and pages from the catalogue engine (`CatalogueSearch`), product JSON from `ProductJsonService`.
 */
@Injectable()
export class StorefrontCatalogueService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pager: Pager,
    private readonly snapshot: FacetNameSnapshot,
    private readonly extensions: Extensions,
    private readonly products: ProductJsonService,
  ) {}

  /** The catalogue engine: the `CatalogueSearch` extension point's implementation (the built-in one unless replaced). */
  private get search(): CatalogueSearch {
    return this.extensions.one(CatalogueSearch)!;
  }

  // ---------------------------------------------------------------- lists

  /**
   * GET /products (and collection products): one page, `price_range`, and `facets` when asked for, all from the
   * catalogue engine (`CatalogueSearch`: the in-memory index); the page's products are hydrated from the per-product
   * JSON cache with the live availability and on-hand overlaid. `f` comes from `CatalogueQueryPipe` (`products`
   * without a scope, `collection` with one), `list` from `@ListParams()`.
   */
  async listProducts(
    ctx: RequestContext,
    f: CatalogueFilters,
    list: ListParams,
    listId: string,
    scope: CollectionScope | null,
    options: { facets: boolean; defaultOrder?: OrderSpec } = { facets: true },
  ): Promise<Page<ProductListDto>> {
    const page = this.pager.request(list, listId);
    if (!scope && f.collectionId) scope = await this.filterScope(ctx, f.collectionId);
    const order: OrderSpec = f.order ?? (f.words.length > 0 ? 'relevance' : (options.defaultOrder ?? 'created desc'));
    const resolved: OrderSpec = order === 'manual' && scope?.type !== 'manual' ? 'created desc' : order;
    if (page.after && page.after.length !== 2) throw AppError.unprocessable('page_info does not match this list');
    const facets = options.facets && f.includeFacets;
    const snap = await this.snapshot.get(ctx.tenantId);
    const request: CatalogueSearchRequest = {
      filters: f,
      scope,
      order: resolved,
      after: page.after,
      rows: page.limit + 1,
      facets,
      rank: rankOf(snap),
      names: namesOf(snap),
    };
    const result = await this.search.search(ctx, request);
    const paged = this.pager.page(result.rows, page, (r) => r.position);
    const products = await this.products.hydratePage(ctx, snap, paged.items);
    const priceRange = { min: result.priceRange.min ?? 0, max: result.priceRange.max ?? 0, currency: ctx.activeCurrency.code };
    let out = new Page(products, paged.limit, paged.nextPageInfo);
    if (f.includeSuggestions && f.words.length > 0 && result.rows.length === 0 && !page.after && this.search.didYouMean)
      out = out.with({ meta: { suggestions: await this.search.didYouMean(ctx, request, 5) } });
    if (result.facets) return out.with({ facets: namedFacets(ctx, snap, result.facets), price_range: priceRange });
    return out.with({ price_range: priceRange });
  }

  /** GET /products/facets and /collections/{id}/facets; `f` comes from `CatalogueQueryPipe.facets`. */
  async facetsOnly(ctx: RequestContext, f: CatalogueFilters, scope: CollectionScope | null): Promise<{ facets: FacetDto[]; price_range: PriceRangeDto }> {
    if (!scope && f.collectionId) scope = await this.filterScope(ctx, f.collectionId);
    const snap = await this.snapshot.get(ctx.tenantId);
    const result = await this.search.search(ctx, {
      filters: f,
      scope,
      order: 'created desc',
      after: null,
      rows: 0,
      facets: true,
      rank: rankOf(snap),
      names: namesOf(snap),
    });
    return {
      facets: namedFacets(ctx, snap, result.facets ?? []),
      price_range: { min: result.priceRange.min ?? 0, max: result.priceRange.max ?? 0, currency: ctx.activeCurrency.code },
    };
  }

  /** The storefront list projection of these products, in the given order, for other modules (the wishlist). */
  listProjection(ctx: RequestContext, ids: string[]): Promise<ProductListDto[]> {
    return this.products.listProjection(ctx, ids);
  }

  /** GET /products/{id}. */
  product(ctx: RequestContext, id: string): Promise<ProductDetailDto> {
    return this.products.product(ctx, id);
  }

  /** GET /products/by_handle?handle=: the detail of the listed product with that handle; 404 when none. */
  async productByHandle(ctx: RequestContext, handle: string): Promise<ProductDetailDto> {
    const id = await listedProductIdByHandle(managerOf(ctx, this.dataSource), ctx.tenantId, handle);
    if (!id) throw AppError.notFound('product');
    return this.product(ctx, id);
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
    const [c] = await collectionsOf(managerOf(ctx, this.dataSource), ctx.tenantId, { ids: [id], publishedOnly: !includeUnpublished });
    if (!c) throw AppError.notFound('collection');
    return c;
  }

  /** A collection's products; the collection is looked up before the filters are (404 before 422). */
  async collectionProducts(ctx: RequestContext, query: CollectionQuery, list: ListParams, id: string, admin: boolean): Promise<Page<ProductListDto>> {
    const scope = await this.scopeOf(ctx, id, admin);
    return this.listProducts(ctx, query.filters(), list, admin ? 'admin.collection.products' : 'storefront.collection.products', scope, {
      facets: !admin,
      defaultOrder: collectionOrder(scope.sortOrder, scope.type),
    });
  }

  async collectionFacets(ctx: RequestContext, query: CollectionQuery, id: string): Promise<{ facets: FacetDto[]; price_range: PriceRangeDto }> {
    const scope = await this.scopeOf(ctx, id, false);
    return this.facetsOnly(ctx, query.filters(), scope);
  }

  async listCollections(ctx: RequestContext): Promise<StorefrontCollectionDto[]> {
    const rows = await collectionsOf(managerOf(ctx, this.dataSource), ctx.tenantId, { publishedOnly: true });
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
    const rows = await collectionProductCounts(
      managerOf(ctx, this.dataSource),
      ctx.tenantId,
      collections.map((c) => ({ id: c.id, type: c.collectionType, rulesJson: c.rulesJson })),
    );
    for (const r of rows) out.set(r.id, Number(r.n));
    return out;
  }

  /** `productsCounts` by collection id (any collection of the tenant; unknown ids count 0): the admin collections' `products_count`. */
  async productsCountsByIds(ctx: RequestContext, ids: string[]): Promise<Map<string, number>> {
    const valid = ids.filter((id) => UUID.test(id));
    const rows = valid.length ? await collectionsOf(managerOf(ctx, this.dataSource), ctx.tenantId, { ids: valid }) : [];
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
}

/** Facet values rank by the name snapshot (its build time is the version of the ranks). */
function rankOf(snap: Snapshot): { version: number; of: (id: string) => number } {
  return { version: snap.at, of: (id) => snap.entries.get(id)?.rank ?? 1e9 };
}

/** Every name of every facet value, category, manufacturer and option (all languages, and an option's raw value), by id: what `q` matches besides the products' own text. */
export function namesOf(snap: Snapshot): { version: number; of: () => Map<string, readonly string[]> } {
  return {
    version: snap.at,
    of: () => {
      const out = new Map<string, readonly string[]>();
      for (const [id, e] of snap.entries) {
        const names = Object.values(e.name ?? {}).filter((n): n is string => typeof n === 'string');
        if (e.value) names.push(e.value);
        out.set(id, names);
      }
      return out;
    },
  };
}

export { priceExpr };
