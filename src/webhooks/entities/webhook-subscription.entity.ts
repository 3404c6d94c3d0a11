import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';

@Entity('webhook_subscriptions')
export class WebhookSubscription extends TenantEntity {
  @Column({ type: 'text' })
  topic: string;

  /** http(s) URL the events are POSTed to. */
  @Column({ type: 'text' })
  address: string;

  /** The signing secret, encrypted with a key derived from APP_SECRET (AES-256-GCM: iv | tag | ciphertext). */
  @Column({ type: 'bytea', select: false })
  secretBox: Buffer;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;

  /** Set when deliveries kept failing for the whole retry window; the subscription is then inactive. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  failingSince: Date | null;
}
