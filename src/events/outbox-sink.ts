import type { EntityManager } from 'typeorm';
import type { DomainEvent } from './domain-event.js';

/**
 * **Outbox sink** (several; an extension point gathered by `Extensions` like those of src/extensions/, declared
 * here because it takes a `DomainEvent` and src/extensions/ imports nothing above it). Work recorded in the emitting transaction beside each domain event (`manager` is that
 * transaction): a rolled-back change leaves neither. Built in: the webhooks module's pending deliveries.
 */
export abstract class OutboxSink {
  abstract record(manager: EntityManager, event: DomainEvent): Promise<void>;
}
