import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';

export type CustomerType = 'customer' | 'corporate' | 'reseller';

/** A shopper account; the customer-tier issue adds its credentials to this same table. */
@Entity('customers')
export class Customer extends TenantEntity {
  /** Unique per tenant, case-insensitive (index on lower(email)). */
  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;

  @Column({ type: 'boolean', default: false })
  isEmailConfirmed: boolean;

  @Column({ type: 'text', default: 'customer' })
  type: CustomerType;

  @Column({ type: 'uuid', nullable: true })
  currencyId: string | null;

  /** The primary (billing) address, a row of customer_addresses. */
  @Column({ type: 'uuid', nullable: true })
  defaultAddressId: string | null;
}
