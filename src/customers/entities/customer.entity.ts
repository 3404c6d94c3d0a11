import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';

export type CustomerType = 'customer' | 'corporate' | 'reseller';

/** A shopper account, shared by the admin tier (CRUD) and the customer tier (sign-in, profile, addresses). */
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

  /** scrypt hash (`scrypt$N$r$p$salt$hash`, see password.ts); null until the shopper registers or resets. Never selected by default. */
  @Column({ type: 'text', nullable: true, select: false })
  passwordHash?: string | null;
}
