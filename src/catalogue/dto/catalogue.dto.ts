import { ApiProperty } from '@nestjs/swagger';
import { ImageDto } from '../../collections/index.js';
import { FACET_KEYS, type FacetKey } from '../catalogue-filters.js';

/** Storefront catalogue shapes of SPEC (product list projection, detail, variant, facets, price range, collection). */

export class FacetValueDto {
  /** The filter token (pass it to the facet's query parameter). */
  id: string;
  /** Active language; null while the facet-name snapshot lacks the id. */
  name: string | null;
  /** Raw value for custom-field options; null for entity-backed facets. */
  value: string | null;
  /** Distinct matching products; always greater than 0. */
  count: number;
}

export class FacetDto {
  @ApiProperty({
    enum: FACET_KEYS,
    description: 'The dimension; its filter parameter is vendor, category_id, color_id, size_id, year_id, country_id, region_id or custom_field_id.',
  })
  key: FacetKey;
  @ApiProperty({ type: () => [FacetValueDto] })
  values: FacetValueDto[];
}

export class PriceRangeDto {
  /** Cheapest gross price in the matching set, in the active currency. */
  min: number;
  max: number;
  /** ISO 4217. */
  currency: string;
}

export class CustomFieldDto {
  key: string | null;
  label: string | null;
  value: string | null;
  type: string | null;
}

export class FacetRefDto {
  id: string;
  name: string | null;
}

export class QuantityRuleDto {
  min: number;
  max: number | null;
  increment: number;
}

export class OptionRefDto {
  field_key: string;
  field_label: string | null;
  id: string;
  name: string | null;
}

export class VariantFacetsDto {
  @ApiProperty({ type: () => FacetRefDto, nullable: true })
  color: FacetRefDto | null;
  @ApiProperty({ type: () => FacetRefDto, nullable: true })
  region: FacetRefDto | null;
  @ApiProperty({ type: () => FacetRefDto, nullable: true })
  vintage: FacetRefDto | null;
  @ApiProperty({ type: () => FacetRefDto, nullable: true })
  size: FacetRefDto | null;
  @ApiProperty({ type: () => [OptionRefDto] })
  options: OptionRefDto[];
}

export class VariantDto {
  id: string;
  product_id: string;
  handle: string | null;
  title: string | null;
  sku: string | null;
  option_group: string | null;
  /** Gross, tax included, in the response's currency. */
  price: number;
  net_price: number;
  /** Pre-discount price when on offer; 0 otherwise. */
  compare_at_price: number;
  /**
   * EU Omnibus: the lowest price this variant was sold at during the 30 days before its current price took effect
   * (in the response's currency), when it is on offer (`compare_at_price` above `price`); null otherwise. Without
   * an earlier price in that window (a new variant), the current price.
   */
  @ApiProperty({ type: Number, nullable: true })
  lowest_price_30_days: number | null;
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
  @ApiProperty({ type: () => QuantityRuleDto })
  quantity_rule: QuantityRuleDto;
  @ApiProperty({ type: () => [CustomFieldDto] })
  custom_fields: CustomFieldDto[];
  /** Relative URL of the generated factsheet PDF. */
  factsheet_url: string | null;
  @ApiProperty({ type: () => VariantFacetsDto })
  facets: VariantFacetsDto;
}

export class ManufacturerRefDto {
  id: string | null;
  name: string | null;
  logo_url: string | null;
}

export class FlagDto {
  name: string | null;
  /** CSS colour. */
  color: string | null;
}

export class ProductListDto {
  id: string;
  handle: string | null;
  title: string | null;
  body_html: string | null;
  /** Bare URL in the list. */
  image: string | null;
  available: boolean;
  currency: string;
  price_min: number;
  price_max: number;
  variants_count: number;
  @ApiProperty({ type: () => ManufacturerRefDto })
  manufacturer: ManufacturerRefDto;
  @ApiProperty({ type: () => FlagDto })
  flag: FlagDto;
  rating: number;
  rating_count: number;
  @ApiProperty({ type: () => [CustomFieldDto] })
  custom_fields: CustomFieldDto[];
  /** List-level view; on a text search only matching variants appear. */
  @ApiProperty({ type: () => [VariantDto] })
  variants: VariantDto[];
}

export class ProductDetailDto {
  id: string;
  handle: string | null;
  title: string | null;
  body_html: string | null;
  summary_html: string | null;
  @ApiProperty({ type: () => ImageDto })
  image: ImageDto;
  @ApiProperty({ type: () => [ImageDto] })
  images: ImageDto[];
  available: boolean;
  vendor: string | null;
  rating: number;
  rating_count: number;
  currency: string;
  price_min: number;
  price_max: number;
  @ApiProperty({ type: () => ManufacturerRefDto })
  manufacturer: ManufacturerRefDto;
  /** Root first; empty when uncategorized. */
  @ApiProperty({ type: () => [FacetRefDto] })
  category_path: FacetRefDto[];
  @ApiProperty({ type: () => FlagDto })
  flag: FlagDto;
  @ApiProperty({ type: () => [CustomFieldDto] })
  custom_fields: CustomFieldDto[];
  @ApiProperty({ type: () => [VariantDto] })
  variants: VariantDto[];
}

export class StorefrontCollectionDto {
  id: string;
  handle: string | null;
  title: string | null;
  body_html: string | null;
  @ApiProperty({ type: () => ImageDto })
  image: ImageDto;
  products_count: number;
  sort_order: string | null;
  meta_title: string | null;
  meta_description: string | null;
  @ApiProperty({ type: () => [CustomFieldDto] })
  custom_fields: CustomFieldDto[];
}

/** A corrected whole query (did-you-mean) and the number of products it finds. */
export class SearchSuggestionDto {
  q: string;
  count: number;
}

/** `meta` of a product list: did-you-mean, only with include=suggestions on a search without a match (issue 35). */
export class ProductListMetaDto {
  @ApiProperty({ type: () => [SearchSuggestionDto] })
  suggestions: SearchSuggestionDto[];
}

/** `{products, price_range}` plus `facets` only with include=facets (never null), `meta` only with include=suggestions and no match. */
export class ProductListResponseDto {
  @ApiProperty({ type: () => [ProductListDto] })
  products: ProductListDto[];
  @ApiProperty({ type: () => [FacetDto], required: false })
  facets?: FacetDto[];
  @ApiProperty({ type: () => PriceRangeDto })
  price_range: PriceRangeDto;
  @ApiProperty({ type: () => ProductListMetaDto, required: false })
  meta?: ProductListMetaDto;
}

export class FacetsResponseDto {
  @ApiProperty({ type: () => [FacetDto] })
  facets: FacetDto[];
  @ApiProperty({ type: () => PriceRangeDto })
  price_range: PriceRangeDto;
}

export class VariantsResponseDto {
  currency: string;
  @ApiProperty({ type: () => [VariantDto] })
  variants: VariantDto[];
}
