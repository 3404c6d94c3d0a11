import { EventHandlerJob } from './event-handler-job.entity.js';
import { OutboxEvent } from './outbox-event.entity.js';

export const eventEntities = [OutboxEvent, EventHandlerJob];
