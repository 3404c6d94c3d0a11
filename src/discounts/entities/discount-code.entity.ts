import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';

export type DiscountType = 'value' | 'percent';

/** A coupon; `code` is unique per tenant (exact match). The cart redeems it (is_used, using_date). */
@Entity('discount_codes')
export class DiscountCode extends TenantEntity {
  @Column({ type: 'text' })
  code: string;

  @Column({ type: 'text', default: 'value' })
  type: DiscountType;

  /** Decimal string (numeric(18,4)): an amount for `value`, a percentage for `percent`. */
  @Column({ type: 'numeric', precision: 18, scale: 4 })
  value: string;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;

  @Column({ type: 'boolean', default: false })
  isUsed: boolean;

  @Column({ type: 'boolean', default: false })
  isInfinite: boolean;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  usingDate: Date | null;

  @Column({ type: 'uuid', nullable: true })
  currencyId: string | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  expiryDate: Date | null;

  /** Decimal string; 0 means no minimum. */
  @Column({ type: 'numeric', precision: 18, scale: 4, default: 0 })
  minValue: string;

  @Column({ type: 'boolean', default: false })
  isCheckAllProductsForCategory: boolean;
}
