import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsNumber, IsOptional, IsUUID, Max, Min, ValidateIf, ValidateNested } from 'class-validator';
import { OptionalText } from '../../common/http/dto-fields.js';

export class ReturnLineInputDto {
  @IsUUID()
  line_id: string;

  @IsNumber()
  @Min(0.001)
  @Max(1_000_000)
  quantity: number;

  /** Why (free text, e.g. `damaged`, `wrong_item`, `withdrawal`). */
  @OptionalText(255)
  reason?: string | null;
}

/** POST /admin/orders/{id}/returns and POST /customer/orders/{id}/returns. */
export class CreateReturnDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(250)
  @ValidateNested({ each: true })
  @Type(() => ReturnLineInputDto)
  lines: ReturnLineInputDto[];

  @OptionalText(2000)
  note?: string | null;
}

export class ReceiveLineInputDto {
  @IsUUID()
  line_id: string;

  /** Units back in sellable condition: restocked at `location_id`. */
  @IsNumber()
  @Min(0)
  @Max(1_000_000)
  quantity_received: number;

  /** Units back damaged: recorded, not restocked. */
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(1_000_000)
  quantity_damaged?: number;

  /** Where the undamaged units go back to stock (required when quantity_received > 0). */
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsUUID()
  location_id?: string | null;
}

/** POST /admin/orders/{id}/returns/{rid}/receive. */
export class ReceiveReturnDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(250)
  @ValidateNested({ each: true })
  @Type(() => ReceiveLineInputDto)
  lines: ReceiveLineInputDto[];
}

/** POST /admin/orders/{id}/returns/{rid}/refund. */
export class RefundReturnDto {
  /** `original` (through the order's payment, default) or `store_credit` (the order's customer). */
  @IsOptional()
  @IsIn(['original', 'store_credit'])
  refund_to?: 'original' | 'store_credit';

  /** A return shipping fee deducted from the refund (tax included; default 0). */
  @IsOptional()
  @IsNumber({ maxDecimalPlaces: 4 })
  @Min(0)
  @Max(1_000_000)
  shipping_fee?: number;

  @OptionalText(2000)
  note?: string | null;
}

/** POST /admin/orders/{id}/returns/{rid}/reject. */
export class RejectReturnDto {
  @OptionalText(2000)
  reason?: string | null;
}

/** POST /admin/orders/{id}/claims. */
export class CreateClaimDto {
  /** `refund`: money back without a return (through the order's payment, or `refund_to: store_credit`). */
  @IsIn(['replace', 'refund'])
  type: 'replace' | 'refund';

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(250)
  @ValidateNested({ each: true })
  @Type(() => ReturnLineInputDto)
  lines: ReturnLineInputDto[];

  @IsOptional()
  @IsIn(['original', 'store_credit'])
  refund_to?: 'original' | 'store_credit';

  @OptionalText(255)
  reason?: string | null;

  @OptionalText(2000)
  note?: string | null;
}

// the response shapes are the admin order's `returns` and `claims` members, declared where the admin order is
export { ClaimDto, ClaimLineDto, ReturnDto, ReturnLineDto } from '../../checkout/index.js';
