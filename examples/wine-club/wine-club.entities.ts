import { Column, Entity } from 'typeorm';
import { TenantEntity } from 'vinoshop-commerce';

/** A club price: members pay `price` (gross, in the shop's default currency) for this variant when it is lower. */
@Entity('wine_club_prices')
export class WineClubPrice extends TenantEntity {
  @Column({ type: 'uuid' })
  variantId: string;

  @Column({ type: 'uuid' })
  productId: string;

  /** numeric(14,4) as a string. */
  @Column({ type: 'numeric', precision: 14, scale: 4 })
  price: string;
}

/** A club member: a customer of the shop, with the bottles of the monthly allocation. */
@Entity('wine_club_members')
export class WineClubMember extends TenantEntity {
  @Column({ type: 'uuid' })
  customerId: string;

  @Column({ type: 'integer' })
  bottlesPerMonth: number;
}

/** A member's allocation of one month (`YYYY-MM`), made once by the allocation job. */
@Entity('wine_club_allocations')
export class WineClubAllocation extends TenantEntity {
  @Column({ type: 'uuid' })
  customerId: string;

  @Column({ type: 'text' })
  month: string;

  @Column({ type: 'integer' })
  bottles: number;
}
