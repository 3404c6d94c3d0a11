import type { RequestContext } from '../common/context/request-context.js';
import type { EventTopic } from './event-topics.js';

/** One recorded domain event (a row of `outbox_events`). */
export interface DomainEvent<P = Record<string, unknown>> {
  id: string;
  tenantId: string;
  topic: EventTopic;
  payload: P;
  occurredAt: Date;
}

/**
 * An in-process handler. It runs after the emitting transaction committed, in a transaction of its own bound to
 * `ctx` (tenant of the event, `ctx.manager` open): what it writes through `ctx.manager` commits together with the
 * handler's completion mark, so database effects happen exactly once; other side effects are at-least-once.
 * Throwing rolls its writes back and schedules a retry with backoff.
 */
export type DomainEventHandler<P = Record<string, unknown>> = (event: DomainEvent<P>, ctx: RequestContext) => Promise<void> | void;
