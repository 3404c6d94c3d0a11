import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsISO8601, IsNumber, IsOptional, IsString, Length, Matches, Max, Min, ValidateIf, ValidateNested } from 'class-validator';
import { OptionalBoolean, OptionalText } from '../../common/http/dto-fields.js';

export class GiftCardTransferRowDto {
  /** `issue`, `redeem`, `refund`, `expire` or `adjust`. */
  @IsIn(['issue', 'redeem', 'refund', 'expire', 'adjust'])
  kind: 'issue' | 'redeem' | 'refund' | 'expire' | 'adjust';

  @IsNumber({ maxDecimalPlaces: 4 })
  @Min(-1_000_000)
  @Max(1_000_000)
  amount: number;

  /** The order of the exporting shop (not carried over on import). */
  @IsOptional()
  @IsString()
  order_id?: string | null;

  @OptionalText(2000)
  note?: string | null;

  @IsOptional()
  @IsISO8601()
  created_at?: string;
}

/** A ledger row as exported. */
export class GiftCardExportRowDto {
  /** `issue`, `redeem`, `refund`, `expire` or `adjust`. */
  kind: string;
  amount: number;
  /** The order of the exporting shop (not carried over on import). */
  order_id: string | null;
  note: string | null;
  created_at: string;
}

/** A gift card as exported: its code only as the keyed hash, with its whole ledger. */
export class GiftCardExportDto {
  /** Base64 of the code's keyed hash (HMAC-SHA-256 with APP_SECRET). */
  code_hash: string;
  last_characters: string;
  currency: string;
  initial_value: number;
  customer_id: string | null;
  expires_at: string | null;
  note: string | null;
  disabled: boolean;
  created_at: string;
  @ApiProperty({ type: () => [GiftCardExportRowDto] })
  transactions: GiftCardExportRowDto[];
}

export class GiftCardImportRowDto {
  @IsString()
  @Length(40, 64)
  code_hash: string;

  @IsString()
  @Length(0, 8)
  last_characters: string;

  @IsString()
  @Matches(/^[A-Za-z]{3}$/, { message: 'currency must be an ISO 4217 code' })
  currency: string;

  @IsNumber({ maxDecimalPlaces: 4 })
  @Min(0)
  @Max(1_000_000)
  initial_value: number;

  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsISO8601()
  expires_at?: string | null;

  @OptionalText(2000)
  note?: string | null;

  @OptionalBoolean()
  disabled?: boolean;

  @IsArray()
  @ArrayMaxSize(10_000)
  @ValidateNested({ each: true })
  @Type(() => GiftCardTransferRowDto)
  transactions: GiftCardTransferRowDto[];
}

/** POST /admin/gift_cards/import. */
export class GiftCardImportDto {
  @IsArray()
  @ArrayMaxSize(10_000)
  @ValidateNested({ each: true })
  @Type(() => GiftCardImportRowDto)
  gift_cards: GiftCardImportRowDto[];
}

export class GiftCardImportResultDto {
  created: number;
  /** Cards whose hash the shop already holds (left unchanged). */
  unchanged: number;
}

/** A customer's store credit in one currency as exported, with its whole ledger. */
export class StoreCreditExportDto {
  /** The customer's e-mail: the key an import matches customers by (ids differ between shops). */
  customer_email: string;
  /** The customer in the exporting shop (not used on import). */
  customer_id: string;
  currency: string;
  /** The sum of `transactions`. */
  balance: number;
  @ApiProperty({ type: () => [GiftCardExportRowDto] })
  transactions: GiftCardExportRowDto[];
}

export class StoreCreditImportRowDto {
  @IsString()
  @Length(3, 320)
  customer_email: string;

  @IsString()
  @Matches(/^[A-Za-z]{3}$/, { message: 'currency must be an ISO 4217 code' })
  currency: string;

  @IsArray()
  @ArrayMaxSize(10_000)
  @ValidateNested({ each: true })
  @Type(() => GiftCardTransferRowDto)
  transactions: GiftCardTransferRowDto[];
}

/** POST /admin/store_credit/import. */
export class StoreCreditImportDto {
  @IsArray()
  @ArrayMaxSize(100_000)
  @ValidateNested({ each: true })
  @Type(() => StoreCreditImportRowDto)
  store_credit: StoreCreditImportRowDto[];
}

export class StoreCreditImportResultDto {
  /** Accounts created with their ledger. */
  created: number;
  /** Accounts the customer already had in that currency with a ledger (left unchanged). */
  unchanged: number;
}
