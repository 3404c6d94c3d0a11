import { DOMAIN_EVENT_PAYLOADS, type EventTopic } from './event-map.js';

export type { EventTopic } from './event-map.js';

/** Every topic of `DomainEventMap` (src/events/event-map.ts), in its order. */
export const EVENT_TOPICS = Object.keys(DOMAIN_EVENT_PAYLOADS) as readonly EventTopic[];

export function isEventTopic(topic: unknown): topic is EventTopic {
  return typeof topic === 'string' && (EVENT_TOPICS as readonly string[]).includes(topic);
}
