import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsEmail,
  IsIn,
  IsISO8601,
  IsNumber,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { PageQueryDto } from '../../common/paging/page-query.dto.js';
import { FINANCIAL_STATUSES, FULFILLMENT_STATUSES, ORDER_STATUSES } from '../entities/checkout.entities.js';
import { OrderReceiptBaseDto, OrderRefundSummaryDto } from './order.dto.js';
import { OptionalBoolean, OptionalText } from '../../common/http/dto-fields.js';
import { ClaimDto, ReturnDto } from './after-sales.dto.js';

/** A status filter value in any case, as the API spells it (an unknown value is left for `@IsIn` to refuse). */
function spelledAs(values: readonly string[]): (p: { value: unknown }) => unknown {
  return ({ value }) => (typeof value === 'string' ? (values.find((v) => v.toLowerCase() === value.toLowerCase()) ?? value) : value);
}

/** GET /admin/orders filters (every one optional; AND-combined). */
export class AdminOrderListQueryDto extends PageQueryDto {
  /** `Open`, `Shipped` or `Cancelled`, in any case (`cancelled` too, as the other status filters are lower case). */
  @IsOptional()
  @IsIn(ORDER_STATUSES)
  @Transform(spelledAs(ORDER_STATUSES))
  status?: string;

  @IsOptional()
  @IsIn(FINANCIAL_STATUSES)
  @Transform(spelledAs(FINANCIAL_STATUSES))
  financial_status?: string;

  @IsOptional()
  @IsIn(FULFILLMENT_STATUSES)
  @Transform(spelledAs(FULFILLMENT_STATUSES))
  fulfillment_status?: string;

  /** Orders placed at or after this instant (ISO 8601). */
  @IsOptional()
  @IsISO8601()
  created_at_min?: string;

  /** Orders placed at or before this instant (ISO 8601). */
  @IsOptional()
  @IsISO8601()
  created_at_max?: string;

  @IsOptional()
  @IsUUID()
  customer_id?: string;

  /** Exact email, case-insensitive. */
  @OptionalText(320)
  email?: string;

  /** Order number or email, exact or prefix (case-insensitive). */
  @OptionalText(320)
  q?: string;

  /**
   * `true`: only unpaid (`pending` or `partially_paid`), not cancelled invoice orders placed more than the shop's
   * `invoice_due_days` ago; `false` or omitted: no such filter.
   */
  @IsOptional()
  @IsIn(['true', 'false'])
  overdue?: string;
}

/** A row of GET /admin/orders. */
export class AdminOrderSummaryDto {
  id: string;
  number: string;
  created_at: string;
  email: string | null;
  total: number;
  currency: string;
  /** `Open`, `Shipped`, `Cancelled`. */
  status: string;
  financial_status: string;
  fulfillment_status: string;
}

export class AdminRefundLineDto {
  line_id: string;
  quantity: number;
  restock: boolean;
  /** The part of the refund for this line, tax included. */
  amount: number;
  /** Of `amount`, the line's VAT given back (issue 31: orders taxed by destination only). */
  @ApiPropertyOptional()
  tax?: number;
  /** Of `amount`, the line's excise duty given back (issue 31: orders taxed by destination only). */
  @ApiPropertyOptional()
  excise?: number;
}

/** What one line was charged: its rate, and for a destination-taxed order its category, zone and excise. */
export class AdminOrderLineTaxDto {
  line_id: string;
  tax_rate: number;
  /** The tax category's key; null: the variant's own rate applied. */
  tax_category: string | null;
  /** The tax zone's name; null: no zone decided (origin rates). */
  tax_zone: string | null;
  excise_amount: number;
  /** The VAT charged on the excise (a zone whose VAT base includes it); 0 otherwise. */
  excise_tax: number;
}

/** The taxes an order was charged (issue 31). */
export class AdminOrderTaxesDto {
  /** The destination's tax zone (name); null: origin rates. */
  tax_zone: string | null;
  /** `constant` or `recompute` for a destination-taxed order whose prices include tax; null otherwise. */
  gross_price_policy: string | null;
  excise_amount: number;
  @ApiProperty({ type: () => [AdminOrderLineTaxDto] })
  lines: AdminOrderLineTaxDto[];
}

/** The rate row that priced shipping. */
export class AdminShippingRateDto {
  /** `table` (a rate table's step), `flat` (the method's price) or `provider` (a carrier's rate). */
  source: string;
  /** `bottles`, `grams` or `value`; null unless `table`. */
  basis: string | null;
  from: number | null;
  to: number | null;
  /** The row's price in the shop's default currency (the method's price when flat); null from a provider. */
  price: number | null;
  /** Started `beyond` blocks above the table's last step. */
  beyond_blocks: number;
  /** Free over `free_over`. */
  free: boolean;
}

/** What shipping was charged and what decided it (issue 31). */
export class AdminOrderShippingDto {
  method_id: string | null;
  method_name: string | null;
  /** The method's zone (key) that served the address; null: a method without zones. */
  zone: string | null;
  amount: number;
  tax_rate: number;
  @ApiProperty({ type: () => AdminShippingRateDto, nullable: true })
  rate: AdminShippingRateDto | null;
}

export class AdminOrderRefundDto extends OrderRefundSummaryDto {
  id: string;
  /** Shipping refunded by this refund, tax included. */
  shipping: number;
  @ApiProperty({ type: () => [AdminRefundLineDto] })
  lines: AdminRefundLineDto[];
  note: string | null;
}

export class AdminFulfillmentLineDto {
  line_id: string;
  quantity: number;
}

export class AdminOrderFulfillmentDto {
  id: string;
  created_at: string;
  @ApiProperty({ type: () => [AdminFulfillmentLineDto] })
  lines: AdminFulfillmentLineDto[];
  tracking_number: string | null;
  tracking_url: string | null;
  carrier: string | null;
}

export class AdminOrderTransactionDto {
  id: string;
  created_at: string;
  /** `authorization`, `capture`, `manual` (money staff received outside any provider), `refund` or `void`. */
  kind: string;
  amount: number;
  /** `pending`, `succeeded` or `failed`. */
  status: string;
  provider: string | null;
  /** The payment provider's reference (or the one staff gave a payment they recorded). */
  reference: string | null;
  /** The staff user who recorded it; null for the service's own. */
  recorded_by: string | null;
  note: string | null;
}

/** GET /admin/orders/{id}: the receipt plus what staff need. */
export class AdminOrderDto extends OrderReceiptBaseDto {
  @ApiProperty({ type: () => [AdminOrderRefundDto] })
  refunds: AdminOrderRefundDto[];
  @ApiProperty({ type: () => [AdminOrderFulfillmentDto] })
  fulfillments: AdminOrderFulfillmentDto[];
  @ApiProperty({ type: () => [AdminOrderTransactionDto] })
  transactions: AdminOrderTransactionDto[];
  email: string | null;
  customer_id: string | null;
  note: string | null;
  @ApiProperty({ type: [String] })
  tags: string[];
  /** A claim's zero-priced replacement order names the order it replaces (issue 33); null otherwise. */
  replacement_for: string | null;
  /** The order's returns (RMA), oldest first (issue 33; README "Returns and claims"). */
  @ApiProperty({ type: () => [ReturnDto] })
  returns: ReturnDto[];
  /** The order's claims, oldest first; a `replace` claim's `replacement_order_id` names its replacement order. */
  @ApiProperty({ type: () => [ClaimDto] })
  claims: ClaimDto[];
  @ApiProperty({ type: () => AdminOrderTaxesDto })
  taxes: AdminOrderTaxesDto;
  @ApiProperty({ type: () => AdminOrderShippingDto })
  shipping: AdminOrderShippingDto;
}

/** POST /admin/orders/{id}/cancel. */
export class CancelOrderDto {
  /** Why (free text, e.g. `customer`, `fraud`, `inventory`). */
  @OptionalText(255)
  reason?: string | null;

  /** Return every unfulfilled line to the location it was taken from (default true). */
  @OptionalBoolean()
  restock?: boolean;

  /** Refund what was paid through the payment provider (default true); an unpaid order's authorization is voided. */
  @OptionalBoolean()
  refund?: boolean;

  @OptionalText(2000)
  note?: string | null;
}

export class RefundLineInputDto {
  @IsUUID()
  line_id: string;

  @IsNumber()
  @Min(0.001)
  @Max(1_000_000)
  quantity: number;

  /** Put the quantity back in stock, where it was taken from (default false). */
  @OptionalBoolean()
  restock?: boolean;
}

/** POST /admin/orders/{id}/refunds. */
export class CreateRefundDto {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(250)
  @ValidateNested({ each: true })
  @Type(() => RefundLineInputDto)
  lines?: RefundLineInputDto[];

  /** Shipping to refund, tax included (at most what was charged for shipping and not yet refunded). */
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsNumber()
  @Min(0)
  @Max(1_000_000_000)
  shipping?: number | null;

  /** The amount to refund; computed from the lines and shipping when omitted or null. */
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsNumber()
  @Min(0.01)
  @Max(1_000_000_000)
  amount?: number | null;

  /** ISO 4217 code of `amount` and `shipping`: the order's currency (422 `currency_mismatch` otherwise); the order's when omitted. */
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @Matches(/^[A-Za-z]{3}$/, { message: 'currency must be an ISO 4217 code of 3 letters' })
  currency?: string | null;

  @OptionalText(2000)
  note?: string | null;
}

export class FulfillmentLineInputDto {
  @IsUUID()
  line_id: string;

  @IsNumber()
  @Min(0.001)
  @Max(1_000_000)
  quantity: number;
}

/** POST /admin/orders/{id}/fulfillments. */
export class CreateFulfillmentDto {
  /** Every line's remaining quantity when omitted. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(250)
  @ValidateNested({ each: true })
  @Type(() => FulfillmentLineInputDto)
  lines?: FulfillmentLineInputDto[];

  @OptionalText(255)
  tracking_number?: string | null;

  /** An absolute http(s) URL. */
  @OptionalText(2000)
  tracking_url?: string | null;

  @OptionalText(255)
  carrier?: string | null;

  /** Mail the buyer a shipping notice (sent from the outbox after the fulfillment committed). */
  @OptionalBoolean()
  notify_customer?: boolean;
}

/** PUT /admin/orders/{id}: only supplied members change; null clears note and email. */
export class UpdateOrderDto {
  @OptionalText(5000)
  note?: string | null;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  tags?: string[];

  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsEmail()
  email?: string | null;
}

/** POST /admin/orders/{id}/payments. */
export class RecordPaymentDto {
  /** The amount received, at most what is unpaid; all that is unpaid when omitted or null. */
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsNumber({ maxDecimalPlaces: 4 })
  @Min(0.01)
  @Max(1_000_000_000)
  amount?: number | null;

  /** ISO 4217 code of `amount`: the order's currency (422 `currency_mismatch` otherwise); the order's when omitted. */
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @Matches(/^[A-Za-z]{3}$/, { message: 'currency must be an ISO 4217 code of 3 letters' })
  currency?: string | null;

  /** `manual` (default): money received outside any provider (bank transfer, cash); `capture`: the pending authorization, through the order's payment provider. */
  @IsOptional()
  @IsIn(['capture', 'manual'])
  kind?: 'capture' | 'manual';

  /** The bank or provider reference. */
  @OptionalText(255)
  reference?: string | null;

  @OptionalText(2000)
  note?: string | null;
}
