import { ApiProperty, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
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
    created_at: z.createdAt.toISOString(),
    updated_at: z.updatedAt ? z.updatedAt.toISOString() : null,
  };
}
