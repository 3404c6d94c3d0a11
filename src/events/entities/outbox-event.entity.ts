import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A recorded domain event, written in the transaction of the change it describes (the transactional outbox). */
@Entity('outbox_events')
export class OutboxEvent {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'text' })
  topic: string;

  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  @Column({ type: 'timestamptz', precision: 3 })
  occurredAt: Date;
}
