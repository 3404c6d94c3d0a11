import { ApiProperty, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { NonBlankText, OptionalText } from '../../common/http/dto-fields.js';
import type { TaxZone } from '../entities/tax-zone.entity.js';

export const MAX_ZONE_COUNTRIES = 300;
export const MAX_ZONE_REGIONS = 1000;
export const MAX_ZONE_POSTCODES = 10_000;

/** One postcode pattern of a zone. */
export class TaxZonePostcodeDto {
  /** ISO 3166-1 alpha-2 of the country the pattern belongs to. */
  @IsString()
  @MaxLength(2)
  country: string;

  /** `27498` (exact), `HS*` (prefix) or `22060..22061` (inclusive range of digits of the same length); at most 16 characters. */
  @IsString()
  @MaxLength(40)
  pattern: string;
}

export class CreateTaxZoneDto {
  /** Required, not blank. */
  @NonBlankText('name', 200)
  name: string;

  /** Import key, unique within the shop (optional). */
  @OptionalText(100)
  key?: string | null;

  /** ISO 3166-1 alpha-2 codes (case-insensitive; stored upper case); at most 300. */
  @ApiProperty({ type: [String], required: false, nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ZONE_COUNTRIES)
  @IsString({ each: true })
  countries?: string[] | null;

  /** ISO 3166-2 subdivision codes (`ES-CN`, `US-CA`); at most 1,000. */
  @ApiProperty({ type: [String], required: false, nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ZONE_REGIONS)
  @IsString({ each: true })
  regions?: string[] | null;

  /** Postcode patterns, each with its country; at most 10,000. */
  @ApiProperty({ type: [TaxZonePostcodeDto], required: false, nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ZONE_POSTCODES)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => TaxZonePostcodeDto)
  postcodes?: TaxZonePostcodeDto[] | null;

  /**
   * ISO 4217 code of the currency the zone's excise amounts (`excise_per_hl` of its rates) are written in, e.g. `CHF`
   * for Switzerland; null or absent: the shop's default currency. Converted to the checkout's currency through the
   * shop's currency rates (a code the shop has no currency for counts as the default currency).
   */
  @ApiProperty({ type: String, required: false, nullable: true, example: 'CHF' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z]{3}$/, { message: 'excise_currency must be an ISO 4217 code (like CHF)' })
  excise_currency?: string | null;

  /**
   * Whether the zone's VAT is charged on the excise duty too (the duty is part of the VAT base: so in the 27 EU
   * states, CH, NO and the UK, see src/tax/data/eu-vat-2026.ts); default false (the duty outside the base).
   */
  @ApiProperty({ type: Boolean, required: false })
  @IsOptional()
  @IsBoolean()
  excise_in_vat_base?: boolean;
}

/** Every member optional; a sent list replaces the stored one; a null key clears it. */
export class UpdateTaxZoneDto extends PartialType(CreateTaxZoneDto) {}

export class TaxZoneDto {
  id: string;
  key: string | null;
  name: string;
  @ApiProperty({ type: [String] })
  countries: string[];
  @ApiProperty({ type: [String] })
  regions: string[];
  @ApiProperty({ type: [TaxZonePostcodeDto] })
  postcodes: TaxZonePostcodeDto[];
  /** The currency of the zone's excise amounts; null: the shop's default currency. */
  excise_currency: string | null;
  /** Whether the zone's VAT is charged on the excise too. */
  excise_in_vat_base: boolean;
  created_at: string;
  /** Null until the first update. */
  updated_at: string | null;
}

export function mapTaxZone(z: TaxZone): TaxZoneDto {
  return {
    id: z.id,
    key: z.key,
    name: z.name,
    countries: z.countries,
    regions: z.regions,
    postcodes: z.postcodes.map((p) => ({ country: p.country, pattern: p.pattern })),
    excise_currency: z.exciseCurrency,
    excise_in_vat_base: z.exciseInVatBase,
    created_at: z.createdAt.toISOString(),
    updated_at: z.updatedAt ? z.updatedAt.toISOString() : null,
  };
}
