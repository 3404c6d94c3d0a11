import { ApiProperty } from '@nestjs/swagger';

/** `{"loyalty_points": {...}}`: a customer's balance. */
export class LoyaltyPointsDto {
  @ApiProperty({ format: 'uuid' })
  customer_id: string;
  @ApiProperty({ type: 'integer' })
  points: number;
}

/** One order's points. */
export class LoyaltyPointEntryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  /** The order's id as the order.placed event named it. */
  @ApiProperty()
  order_id: string;
  @ApiProperty({ type: 'integer' })
  points: number;
  @ApiProperty({ format: 'date-time' })
  created_at: string;
}
