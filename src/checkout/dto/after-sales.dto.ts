import { ApiProperty } from '@nestjs/swagger';
import type { AfterSalesClaim, AfterSalesReturn } from '../../extensions/index.js';

/**
 * Returns and claims as the admin order embeds them (`returns`, `claims`) and the returns module answers them
 * (issue 33). The shapes are declared here, with the admin order; the returns module fills them through the
 * `OrderAfterSales` extension point.
 */
export class ReturnLineDto {
  line_id: string;
  quantity: number;
  reason: string | null;
  quantity_received: number;
  quantity_damaged: number;
  location_id: string | null;
}

/** A return (RMA). */
export class ReturnDto implements AfterSalesReturn {
  id: string;
  order_id: string;
  /** `requested`, `approved`, `received`, `refunded` or `rejected`. */
  status: string;
  /** `staff` or `customer`. */
  requested_by: string;
  @ApiProperty({ type: () => [ReturnLineDto] })
  lines: ReturnLineDto[];
  note: string | null;
  rejected_reason: string | null;
  /** The return shipping fee deducted from the refund. */
  shipping_fee: number;
  /** `original` or `store_credit` once refunded. */
  refund_to: string | null;
  refunded_amount: number;
  created_at: string;
  received_at: string | null;
  refunded_at: string | null;
}

export class ClaimLineDto {
  line_id: string;
  quantity: number;
  reason: string | null;
}

/** A claim (breakage, wrong item). */
export class ClaimDto implements AfterSalesClaim {
  id: string;
  order_id: string;
  /** `replace` or `refund`. */
  type: string;
  @ApiProperty({ type: () => [ClaimLineDto] })
  lines: ClaimLineDto[];
  reason: string | null;
  note: string | null;
  /** The refund a `refund` claim made. */
  refund_id: string | null;
  /** The zero-priced order a `replace` claim created. */
  replacement_order_id: string | null;
  created_at: string;
}
