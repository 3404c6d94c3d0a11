import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * The CONTRACT 6 product and variant members: the body of a `products[]` entry of the import, of
 * `POST/PUT /admin/products` and of `POST/PUT /admin/products/{id}/variants`, and (with read-only members added) what
 * `GET /admin/products/{id}` returns. One set of rules validates all of them (`import/catalogue-writer.ts`); a
 * violation is a 422 naming the member. On PUT an absent member is unchanged and null clears it where it is
 * nullable (null leaves `key`, `published`, `active`, `price`, `tax_rate`, `track_inventory`, `allow_backorder`
 * and `created_at` unchanged).
 */

const TRANSLATED = {
  oneOf: [{ type: 'string', description: 'text in the default language' }, { type: 'object', additionalProperties: { type: 'string', nullable: true }, description: 'by language code; on PUT merged per language, null removes one' }],
};

export class ImageInputDto {
  src: string;
  alt?: string | null;
  width?: number;
  height?: number;
}

export class QuantityRuleInputDto {
  /** Default 1. */
  min?: number;
  max?: number | null;
  /** Default 1. */
  increment?: number;
}

export class VariantInputDto {
  /** Unique per shop; generated when omitted on create. */
  key?: string;
  handle?: string | null;
  sku?: string | null;
  @ApiPropertyOptional(TRANSLATED)
  title?: string | Record<string, string | null>;
  /** Default currency, gross when the shop's prices include tax, net otherwise. Required on create. */
  price?: number;
  compare_at_price?: number | null;
  /** Percent, 0..100; default 0. */
  tax_rate?: number;
  /** Default true. */
  published?: boolean;
  /** Default true. */
  active?: boolean;
  /** Facet value keys. */
  color?: string | null;
  region?: string | null;
  year?: string | null;
  size?: string | null;
  country?: string | null;
  alcohol_volume?: number | null;
  grams?: number | null;
  option_group?: string | null;
  @ApiPropertyOptional(TRANSLATED)
  description?: string | Record<string, string | null>;
  @ApiPropertyOptional(TRANSLATED)
  description_additional?: string | Record<string, string | null>;
  area?: string | null;
  @ApiPropertyOptional({ type: () => QuantityRuleInputDto, nullable: true })
  quantity_rule?: QuantityRuleInputDto | null;
  /** `{field_key: [option keys]}`. */
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } }, nullable: true })
  custom_fields?: Record<string, string[]> | null;
  /** Default true. */
  track_inventory?: boolean;
  /** Default false. */
  allow_backorder?: boolean;
  /** On-hand per location key; a location left out keeps its stock. */
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'number' }, nullable: true })
  stock?: Record<string, number> | null;
}

export class ProductVariantInputDto extends VariantInputDto {
  /** PUT /admin/products/{id}: the variant to change (else matched by `key`; an unmatched entry is a new variant). */
  id?: string;
}

export class ProductInputDto {
  /** Unique per shop; generated when omitted on create. */
  key?: string;
  /** Default: from the title. */
  handle?: string | null;
  @ApiPropertyOptional({ ...TRANSLATED, description: 'required on create' })
  title?: string | Record<string, string | null>;
  @ApiPropertyOptional(TRANSLATED)
  body_html?: string | Record<string, string | null>;
  @ApiPropertyOptional(TRANSLATED)
  summary_html?: string | Record<string, string | null>;
  /** Manufacturer key. */
  manufacturer?: string | null;
  /** Category keys. */
  @ApiPropertyOptional({ type: [String], nullable: true })
  categories?: string[] | null;
  /** Flag key. */
  flag?: string | null;
  @ApiPropertyOptional({ type: [String], nullable: true })
  tags?: string[] | null;
  /** Default true. */
  published?: boolean;
  /** ISO 8601. */
  created_at?: string;
  @ApiPropertyOptional({ type: () => [ImageInputDto], nullable: true })
  images?: ImageInputDto[] | null;
  /** Approved ratings, 1..5. */
  @ApiPropertyOptional({ type: [Number], nullable: true })
  ratings?: number[] | null;
  /** On PUT: each entry changes the variant of its `id` or `key` (absent members unchanged) or adds one; variants left out are unchanged. */
  @ApiPropertyOptional({ type: () => [ProductVariantInputDto] })
  variants?: ProductVariantInputDto[];
}

/** The CONTRACT 6 import document (every member optional); see README "Import". */
export class CatalogueDocumentDto {
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'shop settings (languages, default currency, prices_include_tax, …)' })
  settings?: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } })
  currencies?: Array<Record<string, unknown>>;
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } })
  countries?: Array<Record<string, unknown>>;
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } })
  locations?: Array<Record<string, unknown>>;
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } })
  manufacturers?: Array<Record<string, unknown>>;
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } })
  categories?: Array<Record<string, unknown>>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'facet values per dimension: colors, regions, sizes, years, countries' })
  facets?: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } })
  custom_fields?: Array<Record<string, unknown>>;
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } })
  flags?: Array<Record<string, unknown>>;
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } })
  shipping_methods?: Array<Record<string, unknown>>;
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } })
  payment_types?: Array<Record<string, unknown>>;
  @ApiPropertyOptional({ type: () => [ProductInputDto] })
  products?: ProductInputDto[];
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } })
  collections?: Array<Record<string, unknown>>;
}

// ---- responses

export class VariantPriceDto {
  /** ISO 4217. */
  currency: string;
  /** Gross, converted by the currency's rate and rounded to its precision. */
  price: number;
  compare_at_price: number | null;
}

export class QuantityRuleDto {
  min: number;
  max: number | null;
  increment: number;
}

export class ImageDocDto {
  src: string | null;
  alt: string | null;
  width: number;
  height: number;
}

export class AdminVariantDto {
  id: string;
  key: string;
  handle: string | null;
  sku: string | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  title: Record<string, string>;
  price: number;
  compare_at_price: number | null;
  tax_rate: number;
  published: boolean;
  active: boolean;
  color: string | null;
  region: string | null;
  year: string | null;
  size: string | null;
  country: string | null;
  alcohol_volume: number | null;
  grams: number | null;
  option_group: string | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  description: Record<string, string>;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  description_additional: Record<string, string>;
  area: string | null;
  quantity_rule: QuantityRuleDto;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } })
  custom_fields: Record<string, string[]>;
  track_inventory: boolean;
  allow_backorder: boolean;
  /** On-hand per location key. */
  @ApiProperty({ type: 'object', additionalProperties: { type: 'number' } })
  stock: Record<string, number>;
  /** Read-only: the sum of `stock`. */
  inventory_quantity: number;
  /** Read-only: the gross price in every currency of the shop. */
  @ApiProperty({ type: () => [VariantPriceDto] })
  prices: VariantPriceDto[];
  created_at: string;
  updated_at: string | null;
}

export class RatingSummaryDto {
  average: number;
  count: number;
}

export class CollectionRefDto {
  id: string;
  key: string | null;
  handle: string;
  collection_type: string;
}

export class AdminProductDto {
  id: string;
  key: string;
  handle: string | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  title: Record<string, string>;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  body_html: Record<string, string>;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  summary_html: Record<string, string>;
  /** Manufacturer key. */
  manufacturer: string | null;
  /** Read-only: the manufacturer's name. */
  vendor: string | null;
  /** Category keys. */
  @ApiProperty({ type: [String] })
  categories: string[];
  flag: string | null;
  @ApiProperty({ type: [String] })
  tags: string[];
  published: boolean;
  /** Read-only: set when deleted with order history. */
  archived_at: string | null;
  created_at: string;
  updated_at: string | null;
  @ApiProperty({ type: () => [ImageDocDto] })
  images: ImageDocDto[];
  @ApiProperty({ type: [Number] })
  ratings: number[];
  /** Read-only. */
  rating: RatingSummaryDto;
  /** Read-only: collections the product is in (manual picks, and smart ones whose rules it matches). */
  @ApiProperty({ type: () => [CollectionRefDto] })
  collections: CollectionRefDto[];
  @ApiProperty({ type: () => [AdminVariantDto] })
  variants: AdminVariantDto[];
}

export class CategoryRefDto {
  id: string;
  key: string;
}

export class AdminProductRowDto {
  id: string;
  key: string;
  handle: string | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  title: Record<string, string>;
  published: boolean;
  archived_at: string | null;
  /** Manufacturer name. */
  vendor: string | null;
  @ApiProperty({ type: () => [CategoryRefDto] })
  categories: CategoryRefDto[];
  variants_count: number;
  /** Lowest and highest variant price in the default currency (as set: gross or net per the shop); null without variants. */
  min_price: number | null;
  max_price: number | null;
  /** The default currency (ISO 4217). */
  currency: string;
  /** On-hand over every variant and location. */
  total_stock: number;
  created_at: string;
  updated_at: string | null;
}

export class AdminProductListQueryDto {
  /** 1..250, default 50. */
  limit?: number;
  page_info?: string;
  @ApiPropertyOptional({ enum: ['true', 'false'] })
  published?: string;
  /** `true` lists only archived products (deleted with order history); default: only live ones. */
  @ApiPropertyOptional({ enum: ['true', 'false'] })
  archived?: string;
  /** Comma-separated manufacturer ids. */
  vendor?: string;
  /** Comma-separated category ids (a category counts its descendants). */
  category_id?: string;
  /** Comma-separated collection ids (manual picks; smart collections by their rules). */
  collection_id?: string;
  /** Substring of a title (any language), the handle or a variant's SKU. */
  q?: string;
  /** ISO 8601; updated (or created, when never updated) at or after. */
  updated_at_min?: string;
  /** ISO 8601. */
  created_at_min?: string;
  @ApiPropertyOptional({ enum: ['created desc', 'title asc', 'updated desc'], default: 'created desc' })
  order?: string;
}
