import { describe, expect, it } from '@jest/globals';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { DataSource, type EntityManager, type QueryRunner } from 'typeorm';
import { RequestContext } from '../common/context/request-context.js';
import { transactionSubscriber } from '../database/transaction-listeners.js';
import { Extensions, OutboxCommitListener, type OutboxWork } from '../extensions/index.js';
import { DomainEvents } from './domain-events.service.js';
import type { DomainEventMap, EventTopic } from './event-map.js';
import { EventsRepository } from './events.repository.js';
import { OutboxSink } from './outbox-sink.js';

const TENANT = '00000000-0000-0000-0000-000000000001';

/** The outbox statement's parameters as the repository receives them, and the rows it answers (id, time). */
class FakeEventsRepository {
  writes: Array<{ runner: QueryRunner; sql: string; parameters: unknown[] }> = [];
  /** The sinks' row count the statement answers (undefined: not given). */
  sinkRows: number | undefined = undefined;

  writeOutbox(runner: QueryRunner, sql: string, parameters: unknown[]): Promise<Array<{ id: string; occurred_at: Date; sink_rows?: number }>> {
    this.writes.push({ runner, sql, parameters });
    const ids = parameters[0] as string[];
    return Promise.resolve(ids.map((id) => ({ id, occurred_at: new Date(Date.UTC(2026, 0, 1)), sink_rows: this.sinkRows })));
  }
}

/** A sink whose statement names the relation of the events being written. */
class RecordingSink extends OutboxSink {
  record(events: string): string {
    return `INSERT INTO sink_rows (event_id) SELECT id FROM ${events}`;
  }
}

async function setUp(listeners: OutboxCommitListener[] = []) {
  const repo = new FakeEventsRepository();
  const moduleRef = await Test.createTestingModule({
    providers: [
      DomainEvents,
      { provide: EventsRepository, useValue: repo },
      { provide: DataSource, useValue: {} },
      { provide: DiscoveryService, useValue: {} },
      { provide: MetadataScanner, useValue: {} },
      {
        provide: Extensions,
        useValue: { all: (point: unknown) => (point === OutboxSink ? [new RecordingSink()] : point === OutboxCommitListener ? listeners : []) },
      },
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

  it('writeWith: the events so far are written by the caller’s statement, their fill paths set by it; none at the commit', async () => {
    const { events, repo, hooks } = await setUp();
    const { ctx, runner } = inTx();
    const placed = await events.emit(ctx, 'order.shipped', { order: { ...shipped.order, number: '' } }, { fill: ['order', 'number'] });
    let given: { ctes: string; parameters: unknown[] } | null = null;
    const result = await events.writeWith(
      ctx,
      { offset: 66, fillValue: '(SELECT n FROM c)' },
      (outbox) => {
        given = outbox;
        return Promise.resolve({ result: '1001', written: [{ id: placed.id, occurred_at: '2026-01-01T00:00:00Z' }], sinkRows: 0 });
      },
      (n) => n,
    );
    expect(result).toBe('1001');
    expect(given!.ctes).toMatch(/^ev AS \(.*jsonb_set\(x\.payload, x\.fill::text\[\], to_jsonb\(\(SELECT n FROM c\)\)\).*unnest\(\$67::uuid\[\]/s);
    expect(given!.ctes).toContain('INSERT INTO sink_rows (event_id) SELECT id FROM ev');
    expect(given!.parameters[5]).toEqual(['{order,number}']);
    expect(placed.occurredAt).toEqual(new Date(Date.UTC(2026, 0, 1)));
    await hooks.beforeTransactionCommit!({ queryRunner: runner } as never);
    expect(repo.writes).toEqual([]);
  });

  it('writeWith in a savepoint leaves the events to the commit, their fill paths set from the result', async () => {
    const { events, repo, hooks } = await setUp();
    const { ctx, runner } = inTx();
    (runner as unknown as { transactionDepth: number }).transactionDepth = 2;
    await events.emit(ctx, 'order.shipped', { order: { ...shipped.order, number: '' } }, { fill: ['order', 'number'] });
    let given: unknown = 'unset';
    await events.writeWith(
      ctx,
      { offset: 66, fillValue: '(SELECT n FROM c)' },
      (outbox) => {
        given = outbox;
        return Promise.resolve({ result: '1002', written: [], sinkRows: 0 });
      },
      (n) => n,
    );
    expect(given).toBeNull();
    (runner as unknown as { transactionDepth: number }).transactionDepth = 1;
    await hooks.beforeTransactionCommit!({ queryRunner: runner } as never);
    expect(JSON.parse((repo.writes[0].parameters[3] as string[])[0])).toEqual({ order: { ...shipped.order, number: '1002' } });
    // an event whose fill no statement computes is refused rather than written with a blank
    const other = inTx();
    await events.emit(other.ctx, 'order.shipped', shipped, { fill: ['order', 'number'] });
    await expect(hooks.beforeTransactionCommit!({ queryRunner: other.runner } as never)).rejects.toThrow('fill path');
  });

  it('after the commit, wakes the listeners only when handler jobs or sink rows were written, and tells which', async () => {
    const told: OutboxWork[] = [];
    const listener = new (class extends OutboxCommitListener {
      outboxCommitted(work: OutboxWork): void {
        told.push(work);
      }
    })();
    const { events, repo, hooks } = await setUp([listener]);
    const commit = async (handler: boolean, sinkRows: number) => {
      const { ctx, runner } = inTx();
      if (handler) events.subscribe('order.shipped', () => Promise.resolve(), { name: 'mailer' });
      repo.sinkRows = sinkRows;
      await events.emit(ctx, 'order.shipped', shipped);
      await hooks.beforeTransactionCommit!({ queryRunner: runner } as never);
      (runner as unknown as { isTransactionActive: boolean }).isTransactionActive = false;
      void hooks.afterTransactionCommit!({ queryRunner: runner } as never);
    };
    await commit(false, 0); // no handler, no delivery: nobody to wake
    expect(told).toEqual([]);
    await commit(false, 2);
    await commit(true, 0);
    expect(told).toEqual([
      { jobs: false, sinkRows: true },
      { jobs: true, sinkRows: false },
    ]);
  });
});
