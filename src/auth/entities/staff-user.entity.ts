import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';

/** A member of a shop's staff; tokens they issue never exceed their live permissions. */
@Entity('staff_users')
export class StaffUser extends TenantEntity {
  @Column({ type: 'text' })
  email: string;

  /** Admin scope names (`Shop/<resource>/<action>`). */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  permissions: string[];

  @Column({ type: 'boolean', default: false })
  isOwner: boolean;
}
