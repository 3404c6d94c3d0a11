import { IsISO8601, IsNumber, IsOptional, IsString, IsUUID, Length, Matches, Max, Min, ValidateIf } from 'class-validator';
import { OptionalBoolean, OptionalText } from '../../common/http/dto-fields.js';

/** A gift card for staff (the code itself is shown only once, on creation). */
export class GiftCardDto {
  id: string;
  /** The code's last four characters. */
  last_characters: string;
  currency: string;
  initial_value: number;
  /** The sum of the card's ledger rows. */
  balance: number;
  customer_id: string | null;
  expires_at: string | null;
  note: string | null;
  /** Disabled (deleted) cards cannot pay. */
  disabled: boolean;
  created_at: string;
  updated_at: string | null;
}

/** The answer of POST /admin/gift_cards: the card plus its code, shown this once. */
export class CreatedGiftCardDto extends GiftCardDto {
  code: string;
}

/** POST /admin/gift_cards. */
export class CreateGiftCardDto {
  /** The value loaded on the card (an `issue` row). */
  @IsNumber({ maxDecimalPlaces: 4 })
  @Min(0.01)
  @Max(1_000_000)
  initial_value: number;

  /** ISO 4217 code of one of the shop's currencies; the default currency when omitted. */
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z]{3}$/, { message: 'currency must be an ISO 4217 code' })
  currency?: string;

  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsISO8601()
  expires_at?: string | null;

  @OptionalText(2000)
  note?: string | null;

  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsUUID()
  customer_id?: string | null;

  /** A code of your own (8..64 letters, digits, dashes); generated when omitted. */
  @IsOptional()
  @IsString()
  @Length(8, 64)
  @Matches(/^[A-Za-z0-9-]+$/, { message: 'code may hold letters, digits and dashes only' })
  code?: string;
}

/** PUT /admin/gift_cards/{id}: only supplied members change. */
export class UpdateGiftCardDto {
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsISO8601()
  expires_at?: string | null;

  @OptionalText(2000)
  note?: string | null;

  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsUUID()
  customer_id?: string | null;

  @OptionalBoolean()
  disabled?: boolean;
}

/** POST /admin/gift_cards/{id}/adjustments and POST /admin/customers/{id}/store_credit. */
export class BalanceAdjustmentDto {
  /** Positive adds, negative takes off (never below zero). */
  @IsNumber({ maxDecimalPlaces: 4 })
  @Min(-1_000_000)
  @Max(1_000_000)
  amount: number;

  /** Store credit: the currency (the default currency when omitted); ignored for gift cards. */
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z]{3}$/, { message: 'currency must be an ISO 4217 code' })
  currency?: string;

  @OptionalText(2000)
  note?: string | null;
}

/** A row of an account's ledger. */
export class BalanceTransactionDto {
  id: string;
  /** `issue`, `redeem`, `refund`, `expire` or `adjust`. */
  kind: string;
  /** Negative takes money off the account. */
  amount: number;
  currency: string;
  order_id: string | null;
  /** The staff user who made the change, if any. */
  staff_id: string | null;
  note: string | null;
  created_at: string;
}

/** A customer's store credit in one currency. */
export class StoreCreditDto {
  currency: string;
  balance: number;
}

/** POST /gift_cards/balance and POST /checkouts/{token}/gift_cards. */
export class GiftCardCodeDto {
  @IsString()
  @Length(1, 64)
  code: string;
}

/** The shopper's balance check: the same shape for an unknown, empty or expired card (balance 0, nulls). */
export class GiftCardBalanceDto {
  balance: number;
  currency: string | null;
  expires_at: string | null;
}
