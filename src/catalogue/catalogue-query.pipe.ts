import { PipeTransform } from '@nestjs/common';
import { CatalogueFilters, FilterKind, parseFilters, RawQuery } from './catalogue-query.js';

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
