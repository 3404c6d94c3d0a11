import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { LinePromotionDto, PromotionDiscountDto } from '../../promotions/index.js';
import { CheckoutAddressDto, TaxLineDto } from './checkout.dto.js';

/** SPEC "Order line": prices as charged. */
export class OrderLineDto {
  id: string;
  variant_id: string | null;
  product_id: string | null;
  title: string | null;
  sku: string | null;
  description: string | null;
  quantity: number;
  /** Net unit price as charged. */
  unit_price: number;
  /** Gross unit price as charged. */
  unit_price_with_tax: number;
  /** Follows the order's price_includes_tax basis. */
  line_total: number;
  /** What promotions took off this line (issue 32); present only when the order applied a promotion. */
  @ApiPropertyOptional({ type: () => [LinePromotionDto] })
  promotions?: LinePromotionDto[];
}

/** A refund as the buyer sees it (amounts only). */
export class OrderRefundSummaryDto {
  created_at: string;
  /** Tax included, in the order's currency. */
  amount: number;
}

/** What every tier's receipt has in common (the refunds differ: amounts only for the buyer). */
export class OrderReceiptBaseDto {
  id: string;
  number: string | null;
  /** `Open`, `Shipped`, ... (treat unknown values as unrecognised). */
  status: string | null;
  date: string;
  currency: string;
  price_includes_tax: boolean;
  @ApiProperty({ type: () => [OrderLineDto] })
  line_items: OrderLineDto[];
  /** Before the order-level discount. */
  subtotal: number;
  discount: number;
  discount_code: string | null;
  shipping_amount: number;
  shipping_method_name: string | null;
  tax_amount: number;
  @ApiProperty({ type: () => [TaxLineDto] })
  tax_lines: TaxLineDto[];
  total: number;
  comments: string | null;
  /** The payment type's name, e.g. `Invoice`. */
  payment_type: string | null;
  /** `pending`, `paid` or `cancelled` (kept; `financial_status` says more). */
  payment_status: string;
  /** `pending`, `paid`, `partially_refunded`, `refunded` or `voided`. */
  financial_status: string;
  /** `unfulfilled`, `partial` or `fulfilled`. */
  fulfillment_status: string;
  cancelled_at: string | null;
  /** e.g. `customer`, `payment_expired`, `payment_cancelled`; null unless cancelled. */
  cancel_reason: string | null;
  /** Sum of the refunds. */
  refunded_amount: number;
  tracking_url: string | null;
  @ApiProperty({ type: () => CheckoutAddressDto })
  shipping_address: CheckoutAddressDto;
  @ApiProperty({ type: () => CheckoutAddressDto })
  billing_address: CheckoutAddressDto;
  /**
   * Which gross price policy priced an order taxed by destination in a shop whose prices include tax (issue 31):
   * `constant` (the shelf price was kept; net and tax follow the destination) or `recompute` (the net was kept; the
   * gross follows the destination rate). Absent on every other order (`price_includes_tax` says gross or net).
   */
  @ApiPropertyOptional({ enum: ['constant', 'recompute'] })
  gross_price_policy?: 'constant' | 'recompute';
  /** The promotions applied, by promotion (issue 32; inside `discount`, shipping parts inside `shipping_amount`); present only when the order applied one. */
  @ApiPropertyOptional({ type: () => [PromotionDiscountDto] })
  discounts?: PromotionDiscountDto[];
}

/** SPEC "Placed order (receipt)", plus tax_amount, tax_lines, payment and fulfillment state and the refunds' amounts. */
export class OrderReceiptDto extends OrderReceiptBaseDto {
  @ApiProperty({ type: () => [OrderRefundSummaryDto] })
  refunds: OrderRefundSummaryDto[];
}

/** SPEC "Order summary" (customer tier). */
export class OrderSummaryDto {
  id: string;
  number: string | null;
  status: string | null;
  date: string;
  /** Gross, in the order's own currency. */
  total: number;
  /** ISO 4217 code of the order's currency (the currency of `total`); only with `include=currency` (not in SPEC's summary). */
  @ApiPropertyOptional()
  currency?: string;
  /** Number of lines. */
  line_items: number;
}

/** POST /admin/orders/{id}/fulfillment: marks the order shipped. */
export class FulfillOrderDto {
  @IsString()
  @MaxLength(2000)
  tracking_url: string;
}
