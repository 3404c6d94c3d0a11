import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';

/** A customer's address; the customer row points at its default (billing) one. */
@Entity('customer_addresses')
export class CustomerAddress extends TenantEntity {
  @Column({ type: 'uuid' })
  customerId: string;

  @Column({ type: 'uuid', nullable: true })
  titleId: string | null;

  @Column({ type: 'text', nullable: true })
  firstName: string | null;

  @Column({ type: 'text', nullable: true })
  lastName: string | null;

  @Column({ type: 'text', nullable: true })
  company: string | null;

  @Column({ type: 'text', nullable: true })
  department: string | null;

  @Column({ type: 'text', nullable: true })
  street: string | null;

  @Column({ type: 'text', nullable: true })
  houseNumber: string | null;

  @Column({ type: 'text', nullable: true })
  zipCode: string | null;

  @Column({ type: 'text', nullable: true })
  location: string | null;

  @Column({ type: 'uuid', nullable: true })
  countryId: string | null;

  @Column({ type: 'text', nullable: true })
  phoneNumber: string | null;

  @Column({ type: 'text', nullable: true })
  mobileNumber: string | null;

  @Column({ type: 'text', nullable: true })
  faxNumber: string | null;

  @Column({ type: 'text', nullable: true })
  email: string | null;

  @Column({ type: 'text', nullable: true })
  website: string | null;
}
