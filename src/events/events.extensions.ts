import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { queueBacklog, type QueueBacklog } from '../common/db/queue-backlog.js';
import { QueueBacklogSource } from '../extensions/index.js';

/** The events module's queue for the backlog metrics: pending in-process handler jobs. */
@Injectable()
export class HandlerJobsBacklog extends QueueBacklogSource {
  readonly queue = 'handlers';

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  backlog(): Promise<QueueBacklog> {
    return queueBacklog(this.dataSource.manager, 'event_handler_jobs');
  }
}
