import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';

/** One HTTP attempt of a delivery (the log `GET /admin/webhooks/{id}/deliveries` shows). */
@Entity('webhook_delivery_attempts')
export class WebhookDeliveryAttempt extends TenantEntity {
  @Column({ type: 'uuid' })
  deliveryId: string;

  @Column({ type: 'uuid' })
  subscriptionId: string;

  @Column({ type: 'uuid' })
  eventId: string;

  @Column({ type: 'text' })
  topic: string;

  /** 1 for the first attempt of the delivery. */
  @Column({ type: 'integer' })
  attempt: number;

  /** The receiver's HTTP status; null when no response came (timeout, refused connection). */
  @Column({ type: 'integer', nullable: true })
  statusCode: number | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ type: 'integer' })
  durationMs: number;
}
