import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';

/**
 * A storefront cart. Its owner is an anonymous visitor (`visitorId`, customer null) or a signed-in shopper
 * (`customerId`); one cart per owner and shop. The currency is the visitor's choice (null: the shop default).
 */
@Entity('carts')
export class Cart extends TenantEntity {
  @Column({ type: 'text', nullable: true })
  visitorId: string | null;

  @Column({ type: 'uuid', nullable: true })
  customerId: string | null;

  @Column({ type: 'uuid', nullable: true })
  currencyId: string | null;

  /** The applied coupon's code (exact text); re-checked at every read. */
  @Column({ type: 'text', nullable: true })
  discountCode: string | null;

  /** Why the last coupon was dropped at a read (a CONTRACT 4 refusal code); cleared by the next coupon action. */
  @Column({ type: 'text', nullable: true })
  discountCodeError: string | null;
}
