import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event to deliver to one subscription; recorded in the emitting transaction. */
@Entity('webhook_deliveries')
export class WebhookDelivery extends TenantEntity {
  @Column({ type: 'uuid' })
  eventId: string;

  @Column({ type: 'uuid' })
  subscriptionId: string;

  @Column({ type: 'text' })
  topic: string;

  @Column({ type: 'text', default: 'pending' })
  status: DeliveryStatus;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ type: 'timestamptz', precision: 3 })
  nextAttemptAt: Date;

  @Column({ type: 'integer', nullable: true })
  lastStatusCode: number | null;

  @Column({ type: 'text', nullable: true })
  lastError: string | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  deliveredAt: Date | null;
}
