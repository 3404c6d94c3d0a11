import { PipeTransform } from '@nestjs/common';
import { AppError } from '../common/http/app-error.js';
import { CatalogueFilters, FilterKind, parseFilters, RawQuery } from './catalogue-filters.js';

/**
 * The catalogue list query as typed filters: `@Query(CatalogueQueryPipe.products) filters: CatalogueFilters`. It
 * turns the raw query object into `CatalogueFilters` (CONTRACT 7; a bad parameter is 422 naming it), so the
 * service never sees the request. One instance per endpoint kind; the `*Query` DTO classes document the same
 * parameters for OpenAPI (`@ApiQuery`).
 */
export class CatalogueQueryPipe implements PipeTransform<unknown, Promise<CatalogueFilters>> {
  /** `GET /products`: every filter, `ids` and `collection_id` included. */
  static readonly products = new CatalogueQueryPipe('products');
  /** `GET /collections/{id}/products` (storefront and admin): the collection is the path's, not a parameter. */
  static readonly collection = new CatalogueQueryPipe('collection');
  /** The facet endpoints: the filters without `order`. */
  static readonly facets = new CatalogueQueryPipe('facets');

  private constructor(private readonly kind: FilterKind) {}

  /**
   * Async like Nest's `ParseUUIDPipe` behind `@UuidParam('id')`: a sync throw here would settle first, and a bad path
   * id must still be named before a bad filter, as when the service parsed the query (pinned by the catalogue e2e).
   */
  async transform(query: unknown): Promise<CatalogueFilters> {
    return parseFilters(typeof query === 'object' && query !== null ? (query as RawQuery) : {}, this.kind);
  }
}

/**
 * A collection list's filters with their 422 held back until the collection is found: on
 * `GET /collections/{id}/products|facets` (storefront and admin) an unknown or hidden collection is 404 before a
 * bad filter is 422, as when the service parsed the query after finding the collection.
 */
export class CollectionQuery {
  constructor(private readonly parsed: CatalogueFilters | AppError) {}

  /** The typed filters, or the 422 naming the first bad parameter. */
  filters(): CatalogueFilters {
    if (this.parsed instanceof AppError) throw this.parsed;
    return this.parsed;
  }
}

/**
 * `@Query(CollectionQueryPipe.products) query: CollectionQuery`: `CatalogueQueryPipe`'s parsing, its 422 deferred.
 * Import `CollectionQuery` as a type in controllers: as a class it would be the parameter's metatype, and the global
 * ValidationPipe would strip every query member before this pipe sees them.
 */
export class CollectionQueryPipe implements PipeTransform<unknown, Promise<CollectionQuery>> {
  /** `GET /collections/{id}/products`: the collection is the path's, not a parameter. */
  static readonly products = new CollectionQueryPipe(CatalogueQueryPipe.collection);
  /** `GET /collections/{id}/facets`: the filters without `order`. */
  static readonly facets = new CollectionQueryPipe(CatalogueQueryPipe.facets);

  private constructor(private readonly parse: CatalogueQueryPipe) {}

  async transform(query: unknown): Promise<CollectionQuery> {
    try {
      return new CollectionQuery(await this.parse.transform(query));
    } catch (err) {
      if (err instanceof AppError) return new CollectionQuery(err);
      throw err;
    }
  }
}
