import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';

/** A shopper's `vnscat_` access token: only its keyed hash is stored; 30 days; revoked by sign-out or a password reset. */
@Entity('customer_tokens')
export class CustomerToken extends TenantEntity {
  @Column({ type: 'uuid' })
  customerId: string;

  /** HMAC-SHA256 of the plaintext (AuthService.hash). */
  @Column({ type: 'bytea', select: false })
  tokenHash: Buffer;

  @Column({ type: 'timestamptz', precision: 3 })
  expiresAt: Date;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  revokedAt: Date | null;
}
