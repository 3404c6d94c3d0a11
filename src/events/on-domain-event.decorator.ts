import { SetMetadata } from '@nestjs/common';
import type { DomainEventHandler } from './domain-event.js';
import type { EventTopic } from './event-map.js';

export const ON_DOMAIN_EVENT = 'events:on-domain-event';

type HandlerDecorator<T extends EventTopic> = <M extends DomainEventHandler<T>>(
  target: object,
  key: string | symbol,
  descriptor: TypedPropertyDescriptor<M>,
) => void;

/**
 * Marks a provider method as an in-process handler of a topic (or `'*'` for every topic); DomainEvents finds it at
 * start-up. The method's event parameter must accept that topic's payload (`DomainEvent<'order.placed'>`, see
 * `DomainEventMap`): a handler of another shape is a type error. The handler's durable name is
 * `<ClassName>.<method>`: keep it stable, pending work is keyed by it.
 *
 * ```ts
 * @Injectable() class Loyalty { @OnDomainEvent('order.placed') async earn(event: DomainEvent<'order.placed'>, ctx: RequestContext) {...} }
 * ```
 */
export function OnDomainEvent(topic: '*'): HandlerDecorator<EventTopic>;
export function OnDomainEvent<T extends EventTopic>(topic: T): HandlerDecorator<T>;
export function OnDomainEvent(topic: EventTopic | '*'): HandlerDecorator<EventTopic> {
  return (target, key, descriptor) => void SetMetadata(ON_DOMAIN_EVENT, topic)(target, key, descriptor);
}
