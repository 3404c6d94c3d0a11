import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable, Module } from '@nestjs/common';
import { RequestContext } from '../../src/common/context/request-context.js';
import { inTransaction } from '../../src/common/db/tenant-scope.js';
import { EVENT_TOPICS, OnDomainEvent } from '../../src/events/index.js';
import { DomainEvents } from '../helpers/testing.js';
import type { DomainEvent } from '../../src/events/index.js';
import { WebhookDeliveryWorker } from '../../src/webhooks/webhook-delivery.worker.js';
import { WebhooksService } from '../../src/webhooks/webhooks.service.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';

/** A provider of an "extension" whose decorated methods DomainEvents discovers at start-up. */
@Injectable()
class RecordingHandlers {
  readonly seen: Array<{ topic: string; id: string; tenant: string; hasManager: boolean }> = [];
  readonly all: string[] = [];

  @OnDomainEvent('collection.created')
  onCollectionCreated(event: DomainEvent, ctx: RequestContext): void {
    this.seen.push({ topic: event.topic, id: event.id, tenant: ctx.tenantId, hasManager: !!ctx.manager?.queryRunner?.isTransactionActive });
  }

  @OnDomainEvent('*')
  onAnything(event: DomainEvent): void {
    this.all.push(event.id);
  }
}

@Module({ providers: [RecordingHandlers] })
class RecordingModule {}

describe('domain events (transactional outbox, in-process handlers)', () => {
  let t: TestApp;
  let shop: TestShop;
  let events: DomainEvents;
  let handlers: RecordingHandlers;

  beforeAll(async () => {
    t = await createTestApp({ imports: [RecordingModule], config: { WEBHOOK_POLL_MS: 50, WEBHOOK_RETRY_BASE_MS: 20, WEBHOOK_RETRY_WINDOW_MS: 1000 } });
    shop = await t.createShop();
    events = t.get(DomainEvents);
    handlers = t.get(RecordingHandlers);
  });
  afterAll(() => t.close());

  const ctx = () => RequestContext.forTenant(shop.tenant.id);
  const eventRows = (topic: string) =>
    t.db.query('SELECT * FROM outbox_events WHERE tenant_id = $1 AND topic = $2', [shop.tenant.id, topic]) as Promise<Array<{ id: string; payload: unknown }>>;

  it('knows the topic list and refuses unknown topics', async () => {
    expect(EVENT_TOPICS).toEqual(
      expect.arrayContaining([
        'order.placed',
        'order.paid',
        'order.shipped',
        'checkout.completed',
        'customer.created',
        'customer.updated',
        'inventory_level.updated',
        'collection.created',
        'collection.updated',
        'collection.deleted',
        'discount_code.redeemed',
        'theme.published',
        'catalogue.imported',
      ]),
    );
    await expect(events.emit(ctx(), 'no.such' as never, {})).rejects.toThrow(/unknown domain event topic/);
    expect(() => events.subscribe('no.such' as never, async () => undefined, { name: 'x' })).toThrow(/unknown/);
  });

  it('records the event with its change in one transaction: a rollback leaves neither', async () => {
    const webhooks = t.get(WebhooksService);
    await expect(
      inTransaction(ctx(), t.db, async (tx) => {
        await webhooks.create(tx, { topic: 'order.paid', address: 'https://erp.example/rolled-back', is_active: false });
        await events.emit(tx, 'order.paid', { order: { id: 'rolled-back' } });
        throw new Error('forced rollback');
      }),
    ).rejects.toThrow('forced rollback');
    expect(await t.db.query(`SELECT 1 FROM webhook_subscriptions WHERE address = 'https://erp.example/rolled-back'`)).toHaveLength(0);
    expect(await eventRows('order.paid')).toHaveLength(0);

    const emitted = await inTransaction(ctx(), t.db, async (tx) => {
      await webhooks.create(tx, { topic: 'order.paid', address: 'https://erp.example/committed', is_active: false });
      return events.emit(tx, 'order.paid', { order: { id: 'committed', total: '12.50' } });
    });
    expect(await t.db.query(`SELECT 1 FROM webhook_subscriptions WHERE address = 'https://erp.example/committed'`)).toHaveLength(1);
    const rows = await eventRows('order.paid');
    expect(rows).toEqual([expect.objectContaining({ id: emitted.id, payload: { order: { id: 'committed', total: '12.50' } } })]);
  });

  it('writes a transaction’s events together at its commit, in emit order, with the payload as emitted; a rolled-back savepoint takes its own', async () => {
    const webhooks = t.get(WebhooksService);
    const payload = { customer: { id: 'first' } };
    const emitted = await inTransaction(ctx(), t.db, async (tx) => {
      await webhooks.create(tx, { topic: 'customer.updated', address: 'https://erp.example/batched', is_active: false });
      const first = await events.emit(tx, 'customer.updated', payload);
      payload.customer.id = 'changed after emit';
      // nothing is written before the commit (issue 34: one statement for all)
      expect(await tx.manager!.query(`SELECT 1 FROM outbox_events WHERE id = $1`, [first.id])).toHaveLength(0);
      await expect(
        tx.manager!.transaction(async (inner) => {
          await events.emit(ctx().withManager(inner), 'customer.updated', { customer: { id: 'savepoint rolled back' } });
          throw new Error('inner rollback');
        }),
      ).rejects.toThrow('inner rollback');
      await tx.manager!.transaction((inner) => events.emit(ctx().withManager(inner), 'customer.updated', { customer: { id: 'savepoint released' } }));
      const last = await events.emit(tx, 'customer.updated', { customer: { id: 'last' } });
      return [first.id, last.id];
    });
    const rows = (await t.db.query(
      `SELECT id, payload, occurred_at FROM outbox_events WHERE tenant_id = $1 AND topic = 'customer.updated' ORDER BY occurred_at, id`,
      [shop.tenant.id],
    )) as Array<{ id: string; payload: { customer: { id: string } } }>;
    expect(rows.map((r) => r.payload.customer.id)).toEqual(['first', 'savepoint released', 'last']);
    expect([rows[0].id, rows[2].id]).toEqual(emitted);
    // the inactive subscription's sink statement ran with them: no delivery (only active subscriptions get one)
    expect(await t.db.query(`SELECT 1 FROM webhook_deliveries WHERE event_id = ANY($1::uuid[])`, [rows.map((r) => r.id)])).toHaveLength(0);
  });

  it('runs discovered @OnDomainEvent handlers after commit, with the tenant and a transaction, never for a rollback', async () => {
    await expect(
      inTransaction(ctx(), t.db, async (tx) => {
        await events.emit(tx, 'collection.created', { collection: { id: 'nope' } });
        throw new Error('rollback');
      }),
    ).rejects.toThrow();
    const e = await inTransaction(ctx(), t.db, (tx) => events.emit(tx, 'collection.created', { collection: { id: 'c1' } }));
    const seen = await waitFor(
      () => handlers.seen,
      (s) => s.length > 0,
    );
    expect(seen).toEqual([{ topic: 'collection.created', id: e.id, tenant: shop.tenant.id, hasManager: true }]);
    await waitFor(
      () => handlers.all,
      (a) => a.includes(e.id),
    );
    expect(handlers.all).toContain(e.id);
    // a handler records the event inside its transaction; the job row is marked done when that transaction commits
    const jobs = await waitFor(
      () => t.db.query('SELECT handler, status, attempts FROM event_handler_jobs WHERE event_id = $1 ORDER BY handler', [e.id]),
      (rows: Array<{ status: string }>) => rows.length === 2 && rows.every((r) => r.status === 'done'),
    );
    expect(jobs).toEqual([
      { handler: 'RecordingHandlers.onAnything', status: 'done', attempts: 1 },
      { handler: 'RecordingHandlers.onCollectionCreated', status: 'done', attempts: 1 },
    ]);
  });

  it('emits in a transaction of its own when none is open', async () => {
    const e = await events.emit(ctx(), 'theme.published', { theme: { id: 't1' } });
    expect((await eventRows('theme.published')).map((r) => r.id)).toEqual([e.id]);
    await waitFor(
      () => handlers.all,
      (a) => a.includes(e.id),
    );
    expect(handlers.all).toContain(e.id);
  });

  it('retries a failing handler with backoff, rolling back its writes, until it succeeds (exactly-once effect)', async () => {
    let calls = 0;
    events.subscribe(
      'customer.created',
      async (event, hctx) => {
        calls += 1;
        // a write through the handler's transaction: kept only by the successful run
        await hctx.manager!.query(`INSERT INTO outbox_events (tenant_id, topic, payload) VALUES ($1, 'customer.updated', $2::jsonb)`, [
          hctx.tenantId,
          JSON.stringify({ from: event.id, call: calls }),
        ]);
        if (calls < 3) throw new Error(`flaky ${calls}`);
      },
      { name: 'test.flaky' },
    );
    const e = await events.emit(ctx(), 'customer.created', { customer: { id: 'x' } });
    const job = await waitFor(
      async () => (await t.db.query(`SELECT status, attempts, last_error FROM event_handler_jobs WHERE event_id = $1 AND handler = 'test.flaky'`, [e.id]))[0],
      (j) => j?.status === 'done',
    );
    expect(job).toEqual({ status: 'done', attempts: 3, last_error: null });
    expect(calls).toBe(3);
    const writes = await t.db.query(`SELECT payload FROM outbox_events WHERE topic = 'customer.updated' AND payload->>'from' = $1`, [e.id]);
    expect(writes).toEqual([{ payload: { from: e.id, call: 3 } }]);
  });

  it('gives a handler up after the retry window and never breaks the emitter', async () => {
    events.subscribe(
      'discount_code.redeemed',
      async () => {
        throw new Error('always down');
      },
      { name: 'test.down' },
    );
    const e = await events.emit(ctx(), 'discount_code.redeemed', { discount_code: { id: 'd' } });
    const job = await waitFor(
      async () => (await t.db.query(`SELECT status, attempts, last_error FROM event_handler_jobs WHERE event_id = $1 AND handler = 'test.down'`, [e.id]))[0],
      (j) => j?.status === 'failed',
      4000,
    );
    expect(job.status).toBe('failed');
    expect(job.attempts).toBeGreaterThan(1);
    expect(job.last_error).toBe('always down');
  });

  it('keeps tenants apart: an event carries its tenant to handlers', async () => {
    const other = await t.createShop();
    const before = handlers.seen.length;
    await events.emit(RequestContext.forTenant(other.tenant.id), 'collection.created', { collection: { id: 'c2' } });
    const seen = await waitFor(
      () => handlers.seen,
      (s) => s.length > before,
    );
    expect(seen[seen.length - 1].tenant).toBe(other.tenant.id);
  });

  it('stops the delivery worker promptly on shutdown, aborting a request in flight for a retry', async () => {
    const hits: string[] = [];
    const server = createServer((req) => void hits.push(String(req.headers['x-webhook-id']))); // never answers
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const address = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hang`;
      const w = await t.get(WebhooksService).create(ctx(), { topic: 'order.shipped', address });
      const e = await events.emit(ctx(), 'order.shipped', { order: { id: 'o-9' } });
      await waitFor(
        () => hits,
        (h) => h.includes(e.id),
      );
      const started = Date.now();
      await t.get(WebhookDeliveryWorker).beforeApplicationShutdown(); // what app.close() and SIGTERM run
      expect(Date.now() - started).toBeLessThan(1000); // not the 10 s request timeout
      const [d] = await t.db.query('SELECT status, attempts, next_attempt_at FROM webhook_deliveries WHERE event_id = $1', [e.id]);
      expect(d.status).toBe('pending'); // another instance (or the next start) retries it at once
      expect(d.attempts).toBe(1);
      expect(new Date(d.next_attempt_at).getTime()).toBeLessThanOrEqual(Date.now());
      const [a] = await t.db.query('SELECT error, status_code FROM webhook_delivery_attempts WHERE subscription_id = $1', [w.id]);
      expect(a).toEqual({ error: 'aborted: the service was shutting down', status_code: null });
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
