import { ApiProperty, PartialType } from '@nestjs/swagger';
import { IsArray, IsDateString, IsInt, IsObject, IsOptional, Max, Min } from 'class-validator';
import { NonBlankText, OptionalBoolean, OptionalText } from '../../common/http/dto-fields.js';
import type { Promotion } from '../entities/promotion.entity.js';

const RULES_DOC = 'See README "Promotions" for every type and its members; money as decimals of the default currency.';

export class CombinesWithDto {
  /** May apply together with product promotions (line, set, N-for-M, buy-X-get-Y). Default false. */
  @OptionalBoolean()
  product?: boolean | null;
  /** May apply together with order promotions (percent or fixed off the order). Default false. */
  @OptionalBoolean()
  order?: boolean | null;
  /** May apply together with shipping promotions. Default false. */
  @OptionalBoolean()
  shipping?: boolean | null;
  /** May apply together with a discount code. Default false. */
  @OptionalBoolean()
  discount_codes?: boolean | null;
}

export class CreatePromotionDto {
  /** Required; shown to buyers on lines and totals. */
  @NonBlankText('name', 200)
  name: string;

  /** Default true. */
  @OptionalBoolean()
  enabled?: boolean | null;

  /** ISO 8601; null: from now. */
  @IsOptional()
  @IsDateString({ strict: true }, { message: 'starts_at must be an ISO 8601 date-time' })
  starts_at?: string | null;

  /** ISO 8601, after starts_at; null: no end. */
  @IsOptional()
  @IsDateString({ strict: true }, { message: 'ends_at must be an ISO 8601 date-time' })
  ends_at?: string | null;

  /** Higher wins ties (and applies first); default 0. */
  @IsOptional()
  @IsInt({ message: 'priority must be an integer' })
  @Min(-1000000)
  @Max(1000000)
  priority?: number | null;

  /** Which other promotions, and whether a discount code, may apply together with this one (all false by default). */
  @IsOptional()
  @IsObject({ message: 'combines_with must be an object' })
  combines_with?: CombinesWithDto | null;

  /** Completed orders that may apply it in all; null: unlimited. */
  @IsOptional()
  @IsInt({ message: 'usage_limit must be an integer' })
  @Min(1)
  @Max(1_000_000_000)
  usage_limit?: number | null;

  /** Completed orders per customer; null: unlimited. */
  @IsOptional()
  @IsInt({ message: 'usage_limit_per_customer must be an integer' })
  @Min(1)
  @Max(1_000_000_000)
  usage_limit_per_customer?: number | null;

  /** A code the buyer must enter (unique per shop, any case); null: applies automatically. */
  @OptionalText(100)
  code?: string | null;

  /** Every condition must hold (none: always). */
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true }, required: false, description: RULES_DOC })
  @IsOptional()
  @IsArray({ message: 'conditions must be a list' })
  conditions?: unknown[] | null;

  /** At least one, all of one class (product, order or shipping). */
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true }, description: RULES_DOC })
  @IsArray({ message: 'actions must be a list' })
  actions: unknown[];
}

/** All optional: only the members sent change (null clears starts_at, ends_at, the limits and the code). */
export class UpdatePromotionDto extends PartialType(CreatePromotionDto) {}

export class CombinesWithOutDto {
  product: boolean;
  order: boolean;
  shipping: boolean;
  discount_codes: boolean;
}

export class PromotionDto {
  id: string;
  name: string;
  enabled: boolean;
  starts_at: string | null;
  ends_at: string | null;
  priority: number;
  /** `product`, `order` or `shipping`: what its actions reduce. */
  kind: string;
  combines_with: CombinesWithOutDto;
  usage_limit: number | null;
  usage_limit_per_customer: number | null;
  /** Completed orders that applied it. */
  times_used: number;
  code: string | null;
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true }, description: RULES_DOC })
  conditions: unknown[];
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true }, description: RULES_DOC })
  actions: unknown[];
  created_at: string;
  /** Null until the first update. */
  updated_at: string | null;
}

export function mapPromotion(p: Promotion, kind: string): PromotionDto {
  return {
    id: p.id,
    name: p.name,
    enabled: p.enabled,
    starts_at: p.startsAt ? p.startsAt.toISOString() : null,
    ends_at: p.endsAt ? p.endsAt.toISOString() : null,
    priority: p.priority,
    kind,
    combines_with: { ...p.combinesWith },
    usage_limit: p.usageLimit,
    usage_limit_per_customer: p.usageLimitPerCustomer,
    times_used: p.timesUsed,
    code: p.code,
    conditions: p.conditions,
    actions: p.actions,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt ? p.updatedAt.toISOString() : null,
  };
}
