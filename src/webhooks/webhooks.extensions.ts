import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { queueBacklog, type QueueBacklog } from '../common/db/queue-backlog.js';
import { QueueBacklogSource } from '../extensions/index.js';

/** The webhooks module's queue for the backlog metrics: pending deliveries. */
@Injectable()
export class DeliveriesBacklog extends QueueBacklogSource {
  readonly queue = 'webhooks';

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  backlog(): Promise<QueueBacklog> {
    return queueBacklog(this.dataSource.manager, 'webhook_deliveries');
  }
}
