import type { RequestContext } from '../common/context/request-context.js';
import type { DomainEventMap, EventTopic } from './event-map.js';

/** One recorded domain event (a row of `outbox_events`); `DomainEvent` alone is any topic (narrow on `topic`). */
export type DomainEvent<T extends EventTopic = EventTopic> = {
  [K in T]: { id: string; tenantId: string; topic: K; payload: DomainEventMap[K]; occurredAt: Date };
}[T];

/**
 * An in-process handler. It runs after the emitting transaction committed, in a transaction of its own bound to
 * `ctx` (tenant of the event, `ctx.manager` open): what it writes through `ctx.manager` commits together with the
 * handler's completion mark, so database effects happen exactly once; other side effects are at-least-once.
 * Throwing rolls its writes back and schedules a retry with backoff.
 */
export type DomainEventHandler<T extends EventTopic = EventTopic> = (event: DomainEvent<T>, ctx: RequestContext) => Promise<void> | void;
