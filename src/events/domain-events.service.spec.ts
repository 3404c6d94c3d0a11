import { describe, expect, it } from '@jest/globals';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { DataSource, type EntityManager } from 'typeorm';
import { RequestContext } from '../common/context/request-context.js';
import { Extensions } from '../extensions/index.js';
import type { DomainEvent } from './domain-event.js';
import { DomainEvents } from './domain-events.service.js';
import type { DomainEventMap, EventTopic } from './event-map.js';
import { EventsRepository } from './events.repository.js';
import { OutboxSink } from './outbox-sink.js';

const TENANT = '00000000-0000-0000-0000-000000000001';

/** The outbox in memory: events and handler jobs as the repository's contract describes them. */
class FakeEventsRepository {
  events: Array<{ id: string; tenantId: string; topic: EventTopic; payload: unknown }> = [];
  jobs: Array<{ eventId: string; handler: string }> = [];

  insertEvent(_m: EntityManager, tenantId: string, topic: EventTopic, payloadJson: string): Promise<{ id: string; occurred_at: Date }> {
    const id = `e${this.events.length + 1}`;
    this.events.push({ id, tenantId, topic, payload: JSON.parse(payloadJson) as unknown });
    return Promise.resolve({ id, occurred_at: new Date(Date.UTC(2026, 0, 1)) });
  }
  insertHandlerJobs(_m: EntityManager, _tenantId: string, eventId: string, handlers: string[]): Promise<void> {
    for (const handler of handlers) if (!this.jobs.some((j) => j.eventId === eventId && j.handler === handler)) this.jobs.push({ eventId, handler });
    return Promise.resolve();
  }
}

/** A sink that records the events it is given, with the manager it got. */
class RecordingSink extends OutboxSink {
  seen: Array<{ manager: EntityManager; event: DomainEvent }> = [];
  record(manager: EntityManager, event: DomainEvent): Promise<void> {
    this.seen.push({ manager, event });
    return Promise.resolve();
  }
}

async function setUp() {
  const repo = new FakeEventsRepository();
  const sink = new RecordingSink();
  const moduleRef = await Test.createTestingModule({
    providers: [
      DomainEvents,
      { provide: EventsRepository, useValue: repo },
      { provide: DataSource, useValue: { subscribers: [] } },
      { provide: DiscoveryService, useValue: {} },
      { provide: MetadataScanner, useValue: {} },
      { provide: Extensions, useValue: { all: (point: unknown) => (point === OutboxSink ? [sink] : []) } },
    ],
  }).compile();
  return { events: moduleRef.get(DomainEvents), repo, sink };
}

/** A context inside an open transaction (what `emit` records into). */
function inTx(): { ctx: RequestContext; manager: EntityManager } {
  const manager = { queryRunner: { isTransactionActive: true } } as unknown as EntityManager;
  return { ctx: RequestContext.forTenant(TENANT).withManager(manager), manager };
}

const shipped: DomainEventMap['order.shipped'] = { order: { id: 'o1', number: '1001', tracking_url: null } };

describe('DomainEvents (repository faked)', () => {
  it("records the event in the caller's transaction, one job per handler of its topic or of '*', and hands it to every OutboxSink", async () => {
    const { events, repo, sink } = await setUp();
    events.subscribe('order.shipped', () => Promise.resolve(), { name: 'mailer' });
    events.subscribe('*', () => Promise.resolve(), { name: 'audit' });
    events.subscribe('order.placed', () => Promise.resolve(), { name: 'other' });
    const { ctx, manager } = inTx();
    const event = await events.emit(ctx, 'order.shipped', shipped);
    expect(repo.events).toEqual([{ id: event.id, tenantId: TENANT, topic: 'order.shipped', payload: shipped }]);
    expect(repo.jobs).toEqual([
      { eventId: event.id, handler: 'mailer' },
      { eventId: event.id, handler: 'audit' },
    ]);
    expect(sink.seen).toHaveLength(1);
    expect(sink.seen[0].manager).toBe(manager);
    expect(sink.seen[0].event).toMatchObject({ id: event.id, tenantId: TENANT, topic: 'order.shipped', payload: shipped });
  });

  it('records no job when no handler listens, and refuses an unknown topic before writing', async () => {
    const { events, repo } = await setUp();
    events.subscribe('order.placed', () => Promise.resolve(), { name: 'other' });
    await events.emit(inTx().ctx, 'order.shipped', shipped);
    expect(repo.jobs).toEqual([]);
    await expect(events.emit(inTx().ctx, 'order.unknown' as EventTopic, shipped)).rejects.toThrow('unknown domain event topic');
    expect(repo.events).toHaveLength(1);
  });

  it('refuses a handler without a stable name, a name taken twice and an unknown topic; unsubscribing frees the name', async () => {
    const { events } = await setUp();
    expect(() => events.subscribe('order.shipped', () => Promise.resolve())).toThrow('stable name');
    const off = events.subscribe('order.shipped', () => Promise.resolve(), { name: 'mailer' });
    expect(() => events.subscribe('order.placed', () => Promise.resolve(), { name: 'mailer' })).toThrow('already registered');
    expect(() => events.subscribe('nope' as EventTopic, () => Promise.resolve(), { name: 'x' })).toThrow('unknown domain event topic');
    off();
    expect(events.handlerNames()).toEqual([]);
    events.subscribe('order.placed', () => Promise.resolve(), { name: 'mailer' });
    expect(events.handlerNames()).toEqual(['mailer']);
  });
});
