import { Column, Entity } from 'typeorm';
import { TenantEntity } from 'vinoshop-commerce';

/** Points a customer earned with one order (one row per order, so a replayed event cannot earn twice). */
@Entity('loyalty_point_entries')
export class LoyaltyPointEntry extends TenantEntity {
  @Column({ type: 'uuid' })
  customerId: string;

  /** The order's id from the `order.placed` payload. */
  @Column({ type: 'text' })
  orderId: string;

  @Column({ type: 'integer' })
  points: number;
}
