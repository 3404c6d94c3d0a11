import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * The admin catalogue's answers. Its request bodies are not classes: they are the import's member schemas
 * (`ImportProduct`, `ImportVariant`, `AdminProductCreate`, `AdminVariantCreate` in `import/import-schema.ts`), so one
 * schema documents and validates the import and the admin API alike.
 */

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
  /** Sold as a gift card (issue 33): once the order is paid, each unit bought issues a card worth the unit price, mailed to the buyer. */
  gift_card: boolean;
  /** On-hand per location key. */
  @ApiProperty({ type: 'object', additionalProperties: { type: 'number' } })
  stock: Record<string, number>;
  /** Key of the variant's tax category (README "Taxes"); absent or null: none, the variant's `tax_rate` applies. Present only when set. */
  @ApiPropertyOptional({ type: String, nullable: true })
  tax_category?: string | null;
  /** Volume of one unit in ml (excise, shipping litres); absent or null: read from the `size` name (`75 cl`). Present only when set. */
  @ApiPropertyOptional({ type: Number, nullable: true })
  volume_ml?: number | null;
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
