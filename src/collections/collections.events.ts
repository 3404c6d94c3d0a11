/**
 * The collections module's domain events: their payload is the module's admin representation, so the module declares it
 * and adds the topics to `DomainEventMap` by declaration merging (src/events/ imports nothing from the modules).
 * Their published descriptions stay in `DOMAIN_EVENT_PAYLOADS` (events/event-map.ts).
 */
import type { CollectionDto } from './dto/collection.dto.js';

export interface CollectionPayload {
  collection: CollectionDto;
}

declare module '../events/event-map.js' {
  interface DomainEventMap {
    'collection.created': CollectionPayload;
    'collection.updated': CollectionPayload;
  }
}
