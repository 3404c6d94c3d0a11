import { describe, expect, it } from '@jest/globals';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { DataSource, type EntityManager, type QueryRunner } from 'typeorm';
import { RequestContext } from '../common/context/request-context.js';
import { transactionSubscriber } from '../database/transaction-listeners.js';
import { Extensions } from '../extensions/index.js';
import { DomainEvents } from './domain-events.service.js';
import type { DomainEventMap, EventTopic } from './event-map.js';
import { EventsRepository } from './events.repository.js';
import { OutboxSink } from './outbox-sink.js';

const TENANT = '00000000-0000-0000-0000-000000000001';

/** The outbox statement's parameters as the repository receives them, and the rows it answers (id, time). */
class FakeEventsRepository {
  writes: Array<{ runner: QueryRunner; sql: string; parameters: unknown[] }> = [];

  writeOutbox(runner: QueryRunner, sql: string, parameters: unknown[]): Promise<Array<{ id: string; occurred_at: Date }>> {
    this.writes.push({ runner, sql, parameters });
    const ids = parameters[0] as string[];
    return Promise.resolve(ids.map((id) => ({ id, occurred_at: new Date(Date.UTC(2026, 0, 1)) })));
  }
}

/** A sink whose statement names the relation of the events being written. */
class RecordingSink extends OutboxSink {
  record(events: string): string {
    return `INSERT INTO sink_rows (event_id) SELECT id FROM ${events}`;
  }
}

async function setUp() {
  const repo = new FakeEventsRepository();
  const moduleRef = await Test.createTestingModule({
    providers: [
      DomainEvents,
      { provide: EventsRepository, useValue: repo },
      { provide: DataSource, useValue: {} },
      { provide: DiscoveryService, useValue: {} },
      { provide: MetadataScanner, useValue: {} },
      { provide: Extensions, useValue: { all: (point: unknown) => (point === OutboxSink ? [new RecordingSink()] : []) } },
    ],
  }).compile();
  const events = moduleRef.get(DomainEvents);
  /** What TypeORM calls around a commit or a rollback: the bridge to the transaction listeners, DomainEvents one of them. */
  const hooks = transactionSubscriber(() => [events]);
  return { events, repo, hooks };
}

/** A context inside an open transaction (what `emit` records into), with its query runner. */
function inTx(): { ctx: RequestContext; runner: QueryRunner } {
  const runner = { isTransactionActive: true, transactionDepth: 1 } as unknown as QueryRunner;
  const manager = { queryRunner: runner } as unknown as EntityManager;
  return { ctx: RequestContext.forTenant(TENANT).withManager(manager), runner };
}

const shipped: DomainEventMap['order.shipped'] = { order: { id: 'o1', number: '1001', tracking_url: null } };

describe('DomainEvents (repository faked)', () => {
  it("writes a transaction's events, one job per handler of its topic or of '*', and every sink's work in one statement before the commit", async () => {
    const { events, repo, hooks } = await setUp();
    events.subscribe('order.shipped', () => Promise.resolve(), { name: 'mailer' });
    events.subscribe('*', () => Promise.resolve(), { name: 'audit' });
    events.subscribe('order.placed', () => Promise.resolve(), { name: 'other' });
    const { ctx, runner } = inTx();
    const first = await events.emit(ctx, 'order.shipped', shipped);
    const second = await events.emit(ctx, 'order.shipped', { order: { ...shipped.order, id: 'o2' } });
    expect(repo.writes).toEqual([]); // nothing written until the commit
    await hooks.beforeTransactionCommit!({ queryRunner: runner } as never);
    expect(repo.writes).toHaveLength(1);
    const [{ runner: used, sql, parameters }] = repo.writes;
    expect(used).toBe(runner);
    const [ids, tenants, topics, payloads, , jobEvents, jobHandlers] = parameters as string[][];
    expect(ids).toEqual([first.id, second.id]); // in emit order
    expect(tenants).toEqual([TENANT, TENANT]);
    expect(topics).toEqual(['order.shipped', 'order.shipped']);
    expect(JSON.parse(payloads[0])).toEqual(shipped);
    expect(jobEvents).toEqual([first.id, first.id, second.id, second.id]);
    expect(jobHandlers).toEqual(['mailer', 'audit', 'mailer', 'audit']);
    expect(sql).toContain('INSERT INTO sink_rows (event_id) SELECT id FROM ev');
    expect(first.occurredAt).toEqual(new Date(Date.UTC(2026, 0, 1))); // the row's time once written
  });

  it('writes no job when no handler listens; a rolled-back transaction writes nothing; an unknown topic is refused', async () => {
    const { events, repo, hooks } = await setUp();
    events.subscribe('order.placed', () => Promise.resolve(), { name: 'other' });
    const a = inTx();
    await events.emit(a.ctx, 'order.shipped', shipped);
    await hooks.beforeTransactionCommit!({ queryRunner: a.runner } as never);
    expect(repo.writes[0].parameters).toHaveLength(5); // events only: no job parameters
    const b = inTx();
    await events.emit(b.ctx, 'order.shipped', shipped);
    (b.runner as unknown as { transactionDepth: number }).transactionDepth = 0; // as TypeORM leaves it after a ROLLBACK
    void hooks.afterTransactionRollback!({ queryRunner: b.runner } as never);
    await hooks.beforeTransactionCommit!({ queryRunner: b.runner } as never);
    expect(repo.writes).toHaveLength(1);
    await expect(events.emit(inTx().ctx, 'order.unknown' as EventTopic, shipped)).rejects.toThrow('unknown domain event topic');
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
