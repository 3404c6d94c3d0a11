import { PartialType } from '@nestjs/swagger';
import { IsDateString, IsIn, IsNumber, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { NonBlankText } from '../../common/http/dto-fields.js';
import type { TaxCategory, TaxRate } from '../entities/tax.entities.js';
import { EXCISE_CLASSES, EXCISE_DISPLAYS, GROSS_PRICE_POLICIES, TAX_MODES, type TaxSettings } from '../tax-engine.js';

const NUMBER = { allowNaN: false, allowInfinity: false, maxDecimalPlaces: 4 };

export class CreateTaxCategoryDto {
  /** Required; unique within the shop (the import's `variants[].tax_category`); `shipping` taxes shipping. */
  @NonBlankText('key', 100)
  key: string;

  /** Required, not blank. */
  @NonBlankText('name', 200)
  name: string;

  /** `still`, `sparkling`, `intermediate` or `spirits`; null: no excise. */
  @IsOptional()
  @IsIn(EXCISE_CLASSES)
  excise_class?: string | null;
}

/** Every member optional; a null excise_class clears it. */
export class UpdateTaxCategoryDto extends PartialType(CreateTaxCategoryDto) {}

export class TaxCategoryDto {
  id: string;
  key: string;
  name: string;
  excise_class: string | null;
  created_at: string;
  updated_at: string | null;
}

export function mapTaxCategory(c: TaxCategory): TaxCategoryDto {
  return {
    id: c.id,
    key: c.key,
    name: c.name,
    excise_class: c.exciseClass,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt ? c.updatedAt.toISOString() : null,
  };
}

export class CreateTaxRateDto {
  /** A tax category of the shop. */
  @IsUUID('all', { message: 'category_id must be a UUID' })
  category_id: string;

  /** A zone of the shop. */
  @IsUUID('all', { message: 'zone_id must be a UUID' })
  zone_id: string;

  /** Percent, 0 to 100. */
  @IsNumber(NUMBER)
  @Min(0)
  @Max(100)
  rate: number;

  /** Excise per hectolitre of product (of pure alcohol for spirits), in the shop's default currency; default 0. */
  @IsOptional()
  @IsNumber(NUMBER)
  @Min(0)
  @Max(1_000_000)
  excise_per_hl?: number | null;

  /** First day the rate applies (`YYYY-MM-DD`, inclusive); null: always before valid_to. */
  @IsOptional()
  @IsDateString({ strict: true }, { message: 'valid_from must be a date (YYYY-MM-DD)' })
  valid_from?: string | null;

  /** Last day the rate applies (inclusive); null: open. */
  @IsOptional()
  @IsDateString({ strict: true }, { message: 'valid_to must be a date (YYYY-MM-DD)' })
  valid_to?: string | null;
}

/** Every member optional; null valid_from/valid_to open the period. */
export class UpdateTaxRateDto extends PartialType(CreateTaxRateDto) {}

export class TaxRateDto {
  id: string;
  category_id: string;
  zone_id: string;
  rate: number;
  excise_per_hl: number;
  valid_from: string | null;
  valid_to: string | null;
  created_at: string;
  updated_at: string | null;
}

export function mapTaxRate(r: TaxRate): TaxRateDto {
  return {
    id: r.id,
    category_id: r.categoryId,
    zone_id: r.zoneId,
    rate: Number(r.rate),
    excise_per_hl: Number(r.excisePerHl),
    valid_from: r.validFrom,
    valid_to: r.validTo,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt ? r.updatedAt.toISOString() : null,
  };
}

/** PUT /admin/tax_settings: every member optional. */
export class UpdateTaxSettingsDto {
  /** `origin` (default: each variant's own tax_rate) or `destination` (the zone of the shipping address decides). */
  @IsOptional()
  @IsIn(TAX_MODES)
  mode?: string;

  /** For shops whose prices include tax: `constant` (default: the shelf price stays) or `recompute` (the net stays). */
  @IsOptional()
  @IsIn(GROSS_PRICE_POLICIES)
  gross_price_policy?: string;

  /** `included` (default: excise is a tax line inside tax_amount) or `separate` (shown as excise_amount only). */
  @IsOptional()
  @IsIn(EXCISE_DISPLAYS)
  excise_display?: string;
}

export class TaxSettingsDto {
  mode: string;
  gross_price_policy: string;
  excise_display: string;
}

export function mapTaxSettings(s: TaxSettings): TaxSettingsDto {
  return { mode: s.mode, gross_price_policy: s.gross_price_policy, excise_display: s.excise_display };
}
