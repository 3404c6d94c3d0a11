/**
 * The catalogue module's domain events: their payload is the module's admin representation, so the module declares it
 * and adds the topics to `DomainEventMap` by declaration merging (src/events/ imports nothing from the modules).
 * Their published descriptions stay in `DOMAIN_EVENT_PAYLOADS` (events/event-map.ts).
 */
import type { AdminProductDto } from './dto/admin-product.dto.js';

export interface ProductPayload {
  product: AdminProductDto;
}

declare module '../events/event-map.js' {
  interface DomainEventMap {
    'product.created': ProductPayload;
    'product.updated': ProductPayload;
  }
}
