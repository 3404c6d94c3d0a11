import { OmitType, PartialType } from '@nestjs/swagger';
import { IsDateString, IsIn, IsNumber, IsOptional, IsUUID, Matches, Max, Min } from 'class-validator';
import type { DiscountCode } from '../entities/discount-code.entity.js';
import { NonBlankText, OptionalBoolean } from '../../common/http/dto-fields.js';

export const DISCOUNT_TYPES = ['value', 'percent'] as const;
const MAX_AMOUNT = 1_000_000_000;
const NUMBER = { allowNaN: false, allowInfinity: false, maxDecimalPlaces: 4 };

export class CreateDiscountCodeDto {
  /** Required; unique within the shop (exact match, surrounding spaces trimmed); immutable. */
  @NonBlankText('code', 100)
  code: string;

  /** `value` (fixed amount, default) or `percent`; immutable. */
  @IsOptional()
  @IsIn(DISCOUNT_TYPES)
  type?: string | null;

  /** Required, greater than 0; an amount for `value`, a percentage (at most 100) for `percent`. */
  @IsNumber(NUMBER)
  @Min(0.0001, { message: 'value must be greater than 0' })
  @Max(MAX_AMOUNT)
  value: number;

  /** Default true. */
  @OptionalBoolean()
  is_active?: boolean | null;

  /** Unlimited redemptions; default false (single-use). */
  @OptionalBoolean()
  is_infinite?: boolean | null;

  /** Currency of a fixed value, one of the shop's; null means the shop default. Always null for percent codes. */
  @IsOptional()
  @IsUUID('all', { message: 'currency_id must be a UUID' })
  currency_id?: string | null;

  /**
   * The same currency by ISO 4217 code (`CHF`), instead of or with `currency_id`: one of the shop's (422 otherwise);
   * naming another currency than `currency_id` is 422 `currency_mismatch`. Ignored, like `currency_id`, for percent codes.
   */
  @IsOptional()
  @Matches(/^[A-Za-z]{3}$/, { message: 'currency must be an ISO 4217 code of 3 letters' })
  currency?: string | null;

  /** ISO 8601 date-time after which the code is refused; null never expires. */
  @IsOptional()
  @IsDateString({ strict: true }, { message: 'expiry_date must be an ISO 8601 date-time' })
  expiry_date?: string | null;

  /** Minimum cart subtotal, at least 0 (default 0, no minimum). */
  @IsOptional()
  @IsNumber(NUMBER)
  @Min(0)
  @Max(MAX_AMOUNT)
  min_value?: number | null;

  /** Default false. */
  @OptionalBoolean()
  is_check_all_products_for_category?: boolean | null;
}

/**
 * All optional (`PartialType`); `code` and `type` are immutable, so not members (ignored when sent). A null value,
 * min_value or flag is no change; a null currency_id or expiry_date clears it. `value` is redeclared because null
 * (no change) is accepted here.
 */
export class UpdateDiscountCodeDto extends PartialType(OmitType(CreateDiscountCodeDto, ['code', 'type', 'value'] as const)) {
  @IsOptional()
  @IsNumber(NUMBER)
  @Min(0.0001, { message: 'value must be greater than 0' })
  @Max(MAX_AMOUNT)
  value?: number | null;
}

export class DiscountCodeDto {
  id: string;
  code: string | null;
  /** `value` or `percent`. */
  type: string | null;
  value: number;
  is_active: boolean;
  /** True once redeemed (irrelevant while is_infinite). */
  is_used: boolean;
  is_infinite: boolean;
  using_date: string | null;
  currency_id: string | null;
  expiry_date: string | null;
  min_value: number;
  is_check_all_products_for_category: boolean;
  created_at: string;
  /** Null until the first update. */
  updated_at: string | null;
}

export function mapDiscountCode(d: DiscountCode): DiscountCodeDto {
  return {
    id: d.id,
    code: d.code,
    type: d.type,
    value: Number(d.value),
    is_active: d.isActive,
    is_used: d.isUsed,
    is_infinite: d.isInfinite,
    using_date: d.usingDate ? d.usingDate.toISOString() : null,
    currency_id: d.currencyId,
    expiry_date: d.expiryDate ? d.expiryDate.toISOString() : null,
    min_value: Number(d.minValue),
    is_check_all_products_for_category: d.isCheckAllProductsForCategory,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt ? d.updatedAt.toISOString() : null,
  };
}
