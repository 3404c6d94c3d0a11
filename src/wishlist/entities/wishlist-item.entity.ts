import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';

/** A saved product of a visitor (`visitorId`, customer null) or a shopper (`customerId`); unique per owner and product. */
@Entity('wishlist_items')
export class WishlistItem extends TenantEntity {
  @Column({ type: 'text', nullable: true })
  visitorId: string | null;

  @Column({ type: 'uuid', nullable: true })
  customerId: string | null;

  @Column({ type: 'uuid' })
  productId: string;

  @Column({ type: 'timestamptz', precision: 3 })
  addedAt: Date;
}
