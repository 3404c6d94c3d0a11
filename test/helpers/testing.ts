/**
 * The test helpers of the public surface (package entry `./testing`): the whole service on a database of its own,
 * with supertest clients per shop. Extension tests (`examples/`) import only from here and from `src/index.ts`.
 */
import type { Type } from '@nestjs/common';
import type { RequestContext } from '../../src/common/context/request-context.js';
import type { DomainEvent } from '../../src/events/domain-event.js';
import { DomainEvents as TypedDomainEvents } from '../../src/events/domain-events.service.js';
import type { EventTopic } from '../../src/events/event-map.js';

export { API, createTestApp, ShopClient } from './test-app.js';
export type { TestApp, TestShop } from './test-app.js';

/**
 * The app's `DomainEvents` (the same provider: `t.get(DomainEvents)`), with an emitter that accepts any object as
 * payload, for tests of the outbox and webhook mechanics that emit synthetic, partial payloads. Production code and
 * extensions use the typed `DomainEvents` of the main entry.
 */
export interface SyntheticDomainEvents extends Omit<TypedDomainEvents, 'emit'> {
  emit(ctx: RequestContext, topic: EventTopic, payload: object): Promise<DomainEvent>;
}
export const DomainEvents = TypedDomainEvents as unknown as Type<SyntheticDomainEvents>;
export type DomainEvents = SyntheticDomainEvents;

/** Polls `probe` until `ok` holds or `ms` pass; returns the last value. */
export async function waitFor<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
}
