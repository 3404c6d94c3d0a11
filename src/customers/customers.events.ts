/**
 * The customers module's domain events: their payload is the module's admin representation, so the module declares it
 * and adds the topics to `DomainEventMap` by declaration merging (src/events/ imports nothing from the modules).
 * Their published descriptions stay in `DOMAIN_EVENT_PAYLOADS` (events/event-map.ts).
 */
import type { CustomerDto } from './dto/customer.dto.js';

/** The admin customer (a self-registration carries the members known then). */
export interface CustomerPayload {
  customer: Pick<CustomerDto, 'id' | 'email' | 'is_active' | 'is_email_confirmed' | 'type'> & Partial<CustomerDto>;
}

declare module '../events/event-map.js' {
  interface DomainEventMap {
    'customer.created': CustomerPayload;
    'customer.updated': CustomerPayload;
  }
}
