/** The public surface of domain events, for feature and extension modules. */
export type { DomainEvent, DomainEventHandler } from './domain-event.js';
export { DomainEvents } from './domain-events.service.js';
export type { RegisteredHandler } from './domain-events.service.js';
export { OutboxSink } from './outbox-sink.js';
export { EventHandlerWorker } from './event-handler.worker.js';
export { EVENT_TOPICS, isEventTopic } from './event-topics.js';
export { DOMAIN_EVENT_PAYLOADS } from './event-map.js';
export type * from './event-map.js';
export { EventsModule } from './events.module.js';
export { OnDomainEvent } from './on-domain-event.decorator.js';
export { PollingWorker } from './polling-worker.js';
export { retryDelayMs } from './backoff.js';
export { joinOutboxEvent, outboxEventSweeps } from './events.repository.js';
export type { OutboxEventWaiter } from './events.repository.js';
