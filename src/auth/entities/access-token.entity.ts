import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';

export type TokenTier = 'admin' | 'storefront';

@Entity('access_tokens')
export class AccessToken extends TenantEntity {
  @Column({ type: 'uuid' })
  issuerId: string;

  @Column({ type: 'text' })
  tier: TokenTier;

  /** `vnstat` or `vnstss`. */
  @Column({ type: 'text' })
  prefix: string;

  @Column({ type: 'text' })
  label: string;

  @Column({ type: 'text', array: true })
  scopes: string[];

  /** HMAC-SHA256 of the plaintext; the plaintext is never stored. */
  @Column({ type: 'bytea', select: false })
  tokenHash: Buffer;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  lastUsedAt: Date | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  revokedAt: Date | null;
}
