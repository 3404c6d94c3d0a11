import { ApiProperty } from '@nestjs/swagger';
import { IsArray, IsOptional } from 'class-validator';
import { CombinesWithOutDto } from './promotion.dto.js';

const RULES_DOC = 'As in the admin API (README "Promotions"); a customer_group condition names groups by `group_keys` (or `group_ids`).';

/** A customer group in the promotions document. */
export class CustomerGroupDocumentDto {
  /** Unique per shop; the import upserts by it (a group of the same name without a key is adopted). */
  key: string;
  name: string;
  /** Members by email (every one must be a customer of the shop); on import the group's members become exactly these. */
  @ApiProperty({ type: 'array', items: { type: 'string' } })
  customers: string[];
}

/** A promotion in the promotions document: the admin members without id, kind, times_used and dates, plus `key`. */
export class PromotionDocumentDto {
  /** Unique per shop; the import upserts by it. */
  key: string;
  name: string;
  enabled: boolean;
  starts_at: string | null;
  ends_at: string | null;
  priority: number;
  @ApiProperty({ type: () => CombinesWithOutDto })
  combines_with: CombinesWithOutDto;
  usage_limit: number | null;
  usage_limit_per_customer: number | null;
  code: string | null;
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true }, description: RULES_DOC })
  conditions: unknown[];
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true }, description: RULES_DOC })
  actions: unknown[];
}

/** The export (and the import body): customer groups with their members, promotions. Every member is optional on import. */
export class PromotionsDocumentDto {
  @ApiProperty({ type: () => [CustomerGroupDocumentDto], required: false })
  @IsOptional()
  @IsArray({ message: 'customer_groups must be a list' })
  customer_groups?: unknown[];

  @ApiProperty({ type: () => [PromotionDocumentDto], required: false })
  @IsOptional()
  @IsArray({ message: 'promotions must be a list' })
  promotions?: unknown[];
}

export class ImportCountsDto {
  customer_groups: number;
  promotions: number;
}

export class PromotionsImportIdsDto {
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  customer_groups: Record<string, string>;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  promotions: Record<string, string>;
}

/** What an import did: counts of created and updated objects (an unchanged one counts in neither), ids by key. */
export class PromotionsImportResultDto {
  created: ImportCountsDto;
  updated: ImportCountsDto;
  ids: PromotionsImportIdsDto;
}
