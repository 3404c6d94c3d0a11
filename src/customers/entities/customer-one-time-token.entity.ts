import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';

export type OneTimePurpose = 'confirm_email' | 'reset_password';

/** An email confirmation or password reset code sent by mail: hash only, expiring, single use (`usedAt`). */
@Entity('customer_one_time_tokens')
export class CustomerOneTimeToken extends TenantEntity {
  @Column({ type: 'uuid' })
  customerId: string;

  @Column({ type: 'text' })
  purpose: OneTimePurpose;

  @Column({ type: 'bytea', select: false })
  tokenHash: Buffer;

  @Column({ type: 'timestamptz', precision: 3 })
  expiresAt: Date;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  usedAt: Date | null;
}
