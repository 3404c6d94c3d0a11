import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';

export type JobStatus = 'pending' | 'done' | 'failed';

/** One in-process handler's work on one event: created with the event, done once the handler succeeded. */
@Entity('event_handler_jobs')
export class EventHandlerJob extends TenantEntity {
  @Column({ type: 'uuid' })
  eventId: string;

  /** The handler's durable name (`Class.method` or the name given to `subscribe`). */
  @Column({ type: 'text' })
  handler: string;

  @Column({ type: 'text', default: 'pending' })
  status: JobStatus;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ type: 'timestamptz', precision: 3 })
  nextAttemptAt: Date;

  @Column({ type: 'text', nullable: true })
  lastError: string | null;
}
