import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';

/** A named set of customers (the `customer_group` promotion condition); the name is unique per shop in any case. */
@Entity('customer_groups')
export class CustomerGroup extends TenantEntity {
  @Column({ type: 'text' })
  name: string;

  /** Import key (unique per shop), set by an import; null for groups made in the admin API. */
  @Column({ type: 'text', nullable: true })
  key?: string | null;
}

/** A customer in a group (once). */
@Entity('customer_group_members')
export class CustomerGroupMember extends TenantEntity {
  @Column({ type: 'uuid' })
  groupId: string;

  @Column({ type: 'uuid' })
  customerId: string;
}
