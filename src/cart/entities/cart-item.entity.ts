import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';

/** One line of a cart, addressed by its variant; unique per (cart, variant). Prices are never stored: every read re-prices. */
@Entity('cart_items')
export class CartItem extends TenantEntity {
  @Column({ type: 'uuid' })
  cartId: string;

  @Column({ type: 'uuid' })
  variantId: string;

  /** Decimal string (numeric(14,3)). */
  @Column({ type: 'numeric', precision: 14, scale: 3 })
  quantity: string;
}
