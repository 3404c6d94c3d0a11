import { Injectable } from '@nestjs/common';
import { DataSource, type DeepPartial, type EntityManager } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { olderThan, type CleanupSweep } from '../common/db/sweep.js';
import { getOrThrow, inTransaction, repoOf } from '../common/db/tenant-scope.js';
import type { Page } from '../common/paging/page.js';
import { Pager, type PageRequest } from '../common/paging/pager.service.js';
import { joinOutboxEvent } from '../events/index.js';
import type { DomainEventMap, EventTopic, OutboxEventWaiter } from '../events/index.js';
import { WebhookDeliveryAttempt } from './entities/webhook-delivery-attempt.entity.js';
import { WebhookSubscription } from './entities/webhook-subscription.entity.js';

/** The webhooks module owns `webhook_subscriptions`, `webhook_deliveries` and `webhook_delivery_attempts`. */

/** An outbox event is kept while a delivery of it is pending (the events module's sweep asks). */
export const webhookDeliveryPending: OutboxEventWaiter = (eventId) =>
  `EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = ${eventId} AND d.status = 'pending')`;

/** Cleanup (maintenance job): old delivery attempts. */
export const WEBHOOK_SWEEPS: CleanupSweep[] = [
  {
    name: 'webhook_delivery_attempts',
    table: 'webhook_delivery_attempts',
    key: 'id',
    age: (c) => c.CLEANUP_EVENTS_AFTER_MS,
    select: olderThan('webhook_delivery_attempts', 'created_at'),
  },
];

/** A delivery leased by `claimDue`, with what it delivers: the subscription's address and secret, the event. */
export interface ClaimedDelivery {
  id: string;
  tenant_id: string;
  subscription_id: string;
  event_id: string;
  topic: EventTopic;
  attempts: number;
  created_at: Date;
  address: string;
  secret_box: Buffer;
  /** As emitted for `topic` (the emitter is typed by DomainEventMap). */
  payload: DomainEventMap[EventTopic];
  occurred_at: Date;
  trace_context: Record<string, string> | null;
}

/** One attempt's result, as logged in `webhook_delivery_attempts`. */
export interface AttemptRecord {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** Where a delivery goes after an attempt. */
export interface DeliverySettlement {
  status: 'delivered' | 'failed' | 'pending';
  statusCode: number | null;
  error: string | null;
  nextAttemptAt: Date;
}

/**
 * Every statement of the webhooks module: subscriptions (admin CRUD), deliveries recorded with each event, the
 * delivery worker's lease and its results. Services and the worker hold the rules and are unit-tested with it faked.
 */
@Injectable()
export class WebhooksRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pager: Pager,
  ) {}

  /** Runs `work` in one transaction (reusing an open one) with the context bound to it. */
  transaction<R>(ctx: RequestContext, work: (tx: RequestContext) => Promise<R>): Promise<R> {
    return inTransaction(ctx, this.dataSource, work);
  }

  /** Runs `work` in a new transaction outside any request (the delivery worker). */
  transactionOf<R>(work: (m: EntityManager) => Promise<R>): Promise<R> {
    return this.dataSource.transaction(work);
  }

  /**
   * The outbox sink's statement: one pending delivery per active subscription of each event's topic, the events read
   * from the relation `events` (id, tenant_id, topic) of the outbox's statement; none when no subscription matches.
   */
  deliveriesOf(events: string): string {
    return `INSERT INTO webhook_deliveries (tenant_id, event_id, subscription_id, topic)
       SELECT s.tenant_id, ev.id, s.id, s.topic FROM ${events} ev
         JOIN webhook_subscriptions s ON s.tenant_id = ev.tenant_id AND s.topic = ev.topic AND s.is_active
       ON CONFLICT (tenant_id, event_id, subscription_id) DO NOTHING`;
  }

  /** A page of the shop's subscriptions (of one topic, if given), oldest first. */
  page(ctx: RequestContext, page: PageRequest, topic?: string): Promise<Page<WebhookSubscription>> {
    const qb = repoOf(ctx, this.dataSource, WebhookSubscription).createQueryBuilder('w').where('w.tenant_id = :tenant', { tenant: ctx.tenantId });
    if (topic) qb.andWhere('w.topic = :topic', { topic });
    return this.pager.paginateByCreated(qb, page, 'ASC');
  }

  /** The shop's subscription `id` (row-locked with `lock`, inside a transaction), or 404 `webhook`. */
  getOrThrow(ctx: RequestContext, id: string, lock: boolean): Promise<WebhookSubscription> {
    return getOrThrow(ctx, this.dataSource, WebhookSubscription, id, 'webhook', lock ? { lock: 'pessimistic_write' } : {});
  }

  /** A new (unsaved) subscription entity. */
  build(ctx: RequestContext, fields: DeepPartial<WebhookSubscription>): WebhookSubscription {
    return repoOf(ctx, this.dataSource, WebhookSubscription).create(fields);
  }

  /** Inserts or updates the subscription; an address already subscribed to the topic fails with a unique violation. */
  save(ctx: RequestContext, s: WebhookSubscription): Promise<WebhookSubscription> {
    return repoOf(ctx, this.dataSource, WebhookSubscription).save(s);
  }

  /** Deletes the shop's subscription `id` (its deliveries and log go with it); false when there is none. */
  async delete(ctx: RequestContext, id: string): Promise<boolean> {
    const res = await repoOf(ctx, this.dataSource, WebhookSubscription)
      .createQueryBuilder()
      .delete()
      .where('id = :id AND tenant_id = :tenant', { id, tenant: ctx.tenantId })
      .execute();
    return Boolean(res.affected);
  }

  /** A page of a subscription's delivery attempts, newest first. */
  attemptsPage(ctx: RequestContext, subscriptionId: string, page: PageRequest): Promise<Page<WebhookDeliveryAttempt>> {
    const qb = repoOf(ctx, this.dataSource, WebhookDeliveryAttempt)
      .createQueryBuilder('a')
      .where('a.tenant_id = :tenant AND a.subscription_id = :id', { tenant: ctx.tenantId, id: subscriptionId });
    return this.pager.paginateByCreated(qb, page, 'DESC');
  }

  /** Gives up the subscription's pending deliveries with `reason`. */
  async dropPending(m: EntityManager, subscriptionId: string, reason: string): Promise<void> {
    await m.query(
      `UPDATE webhook_deliveries SET status = 'failed', last_error = $2, updated_at = clock_timestamp() WHERE subscription_id = $1 AND status = 'pending'`,
      [subscriptionId, reason],
    );
  }

  /**
   * Leases up to `batch` due deliveries of active subscriptions for `leaseMs` (one more attempt each) and reads what
   * they deliver in one statement (SKIP LOCKED: instances never take the same row). The event's payload comes through
   * the events module's `joinOutboxEvent`, the one place naming its table, because a second statement could find the
   * event gone or race the lease.
   */
  async claimDue(batch: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const [rows] = (await this.dataSource.query(
      `UPDATE webhook_deliveries d
          SET attempts = d.attempts + 1, next_attempt_at = clock_timestamp() + $2 * interval '1 millisecond', updated_at = clock_timestamp()
         FROM (SELECT d2.id, s.address, s.secret_box, e.payload, e.occurred_at, e.trace_context
                 FROM webhook_deliveries d2
                 JOIN webhook_subscriptions s ON s.id = d2.subscription_id
                 ${joinOutboxEvent('e', 'd2.event_id')}
                WHERE d2.status = 'pending' AND d2.next_attempt_at <= clock_timestamp() AND s.is_active
                ORDER BY d2.next_attempt_at
                LIMIT $1
                FOR UPDATE OF d2 SKIP LOCKED) c
        WHERE d.id = c.id
       RETURNING d.id, d.tenant_id, d.subscription_id, d.event_id, d.topic, d.attempts, d.created_at, c.address, c.secret_box, c.payload, c.occurred_at, c.trace_context`,
      [batch, leaseMs],
    )) as [ClaimedDelivery[], number];
    return rows;
  }

  /** Logs the attempt (once per attempt number). */
  async insertAttempt(m: EntityManager, d: ClaimedDelivery, a: AttemptRecord): Promise<void> {
    await m.query(
      `INSERT INTO webhook_delivery_attempts (tenant_id, delivery_id, subscription_id, event_id, topic, attempt, status_code, error, duration_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (tenant_id, delivery_id, attempt) DO NOTHING`,
      [d.tenant_id, d.id, d.subscription_id, d.event_id, d.topic, d.attempts, a.statusCode, a.error, a.durationMs],
    );
  }

  /** Settles the delivery if it is still pending at the claimed attempt; true when it was (a newer claim wins). */
  async settleDelivery(m: EntityManager, d: ClaimedDelivery, s: DeliverySettlement): Promise<boolean> {
    const [, updated] = (await m.query(
      `UPDATE webhook_deliveries
          SET status = $3, last_status_code = $4, last_error = $5, next_attempt_at = $6,
              delivered_at = CASE WHEN $3 = 'delivered' THEN clock_timestamp() END, updated_at = clock_timestamp()
        WHERE id = $1 AND attempts = $2 AND status = 'pending'`,
      [d.id, d.attempts, s.status, s.statusCode, s.error, s.nextAttemptAt],
    )) as [unknown, number];
    return updated > 0;
  }

  /** Marks an active subscription failing (inactive since now). */
  async markFailing(m: EntityManager, subscriptionId: string): Promise<void> {
    await m.query(
      `UPDATE webhook_subscriptions SET is_active = false, failing_since = clock_timestamp(), updated_at = clock_timestamp() WHERE id = $1 AND is_active`,
      [subscriptionId],
    );
  }
}
