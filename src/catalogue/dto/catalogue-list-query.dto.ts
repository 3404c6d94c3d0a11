import { ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { ORDERS } from '../catalogue-filters.js';

const UUIDS = 'Comma-separated UUIDs (OR within the dimension; dimensions AND together, CONTRACT 7).';

/** The facet filters shared by every catalogue list and facet endpoint (SPEC "Storefront: products"). */
export class CatalogueFacetFiltersQuery {
  @ApiPropertyOptional({ description: `Manufacturer ids. ${UUIDS}` })
  vendor?: string;
  @ApiPropertyOptional({ description: `Category ids (a category matches its descendants too). ${UUIDS}` })
  category_id?: string;
  @ApiPropertyOptional({ description: `Colour ids. ${UUIDS}` })
  color_id?: string;
  @ApiPropertyOptional({ description: `Size ids. ${UUIDS}` })
  size_id?: string;
  @ApiPropertyOptional({ description: `Vintage (year) ids. ${UUIDS}` })
  year_id?: string;
  @ApiPropertyOptional({ description: `Country ids. ${UUIDS}` })
  country_id?: string;
  @ApiPropertyOptional({ description: `Region ids. ${UUIDS}` })
  region_id?: string;
  @ApiPropertyOptional({ description: `Custom-field option ids. ${UUIDS}` })
  custom_field_id?: string;
  @ApiPropertyOptional({ description: 'Search words (typo tolerant, accents ignored) or an exact SKU; at most 200 characters.', maxLength: 200 })
  q?: string;
  @ApiPropertyOptional({ description: 'Lowest gross price, inclusive, in the active currency.', minimum: 0 })
  price_min?: number;
  @ApiPropertyOptional({ description: 'Highest gross price, inclusive, in the active currency.', minimum: 0 })
  price_max?: number;
  @ApiPropertyOptional({ description: 'Only products with a variant that can be bought now.', enum: ['true', 'false', '1', '0'] })
  available?: string;
  @ApiPropertyOptional({ description: 'Only products with a variant on offer (compare-at price above the price).', enum: ['true', 'false', '1', '0'] })
  on_sale?: string;
}

/** Query of the product lists (`/products`, `/collections/{id}/products`). */
export class CatalogueListQuery extends CatalogueFacetFiltersQuery {
  @ApiPropertyOptional({ description: 'Sort order (`+` or `_` may stand for the space); `relevance` needs `q`.', enum: [...ORDERS] })
  order?: string;
  @ApiPropertyOptional({ description: '`facets` adds the facet counts and price range to the list.', enum: ['facets'] })
  include?: string;
  @ApiPropertyOptional({ description: 'Page size, 1 to 250 (default 50).', minimum: 1, maximum: 250 })
  limit?: number;
  @ApiPropertyOptional({ description: 'The opaque cursor of a `Link` header; bound to this list and these filters.' })
  page_info?: string;
}

/** Query of `/admin/collections/{id}/products`: the list filters; never facets. */
export class AdminCollectionProductsQuery extends OmitType(CatalogueListQuery, ['include'] as const) {}

/** Query of `/products`: the list filters plus ids and a collection. */
export class ProductListQuery extends CatalogueListQuery {
  @ApiPropertyOptional({ description: `Only these products. ${UUIDS}` })
  ids?: string;
  @ApiPropertyOptional({ description: 'Only the products of this published collection (an unknown one matches nothing).', format: 'uuid' })
  collection_id?: string;
}

/** Query of `/products/facets`. */
export class ProductFacetsQuery extends CatalogueFacetFiltersQuery {
  @ApiPropertyOptional({ description: 'Only the products of this published collection.', format: 'uuid' })
  collection_id?: string;
}
