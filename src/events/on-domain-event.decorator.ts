import { SetMetadata } from '@nestjs/common';
import type { EventTopic } from './event-topics.js';

export const ON_DOMAIN_EVENT = 'events:on-domain-event';

/**
 * Marks a provider method as an in-process handler of a topic (or `'*'` for every topic); DomainEvents finds it at
 * start-up. The handler's durable name is `<ClassName>.<method>`: keep it stable, pending work is keyed by it.
 *
 * ```ts
 * @Injectable() class Loyalty { @OnDomainEvent('order.placed') async earn(event: DomainEvent, ctx: RequestContext) {...} }
 * ```
 */
export const OnDomainEvent = (topic: EventTopic | '*'): MethodDecorator => SetMetadata(ON_DOMAIN_EVENT, topic);
