import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { HttpAdapterHost } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeepPartial, EntityManager } from 'typeorm';
import { RequestContext } from '../common/context/request-context.js';
import { AppError } from '../common/http/app-error.js';
import { Page } from '../common/paging/page.js';
import type { PageRequest } from '../common/paging/pager.service.js';
import { AppConfig } from '../config/app-config.js';
import { Metrics } from '../observability/index.js';
import { WebhookSubscription } from './entities/webhook-subscription.entity.js';
import { deliveryVerdict, WebhookDeliveryWorker, type Outcome } from './webhook-delivery.worker.js';
import { WebhooksRepository, type AttemptRecord, type ClaimedDelivery, type DeliverySettlement } from './webhooks.repository.js';
import { WebhooksService } from './webhooks.service.js';

const TENANT = '00000000-0000-0000-0000-000000000001';
const ctx = RequestContext.forTenant(TENANT);
const config = {
  APP_SECRET: 'x'.repeat(32),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: false,
  WEBHOOK_TIMEOUT_MS: 2000,
  WEBHOOK_RETRY_WINDOW_MS: 60_000,
  WEBHOOK_RETRY_BASE_MS: 1000,
  WEBHOOK_POLL_MS: 60_000,
} as AppConfig;

/** Subscriptions and the worker's statements in memory, recording what the rules asked for. */
class FakeWebhooksRepository {
  subs: WebhookSubscription[] = [];
  dropped: Array<{ subscriptionId: string; reason: string }> = [];
  claimable: ClaimedDelivery[] = [];
  attempts: AttemptRecord[] = [];
  settlements: DeliverySettlement[] = [];
  failing: string[] = [];
  /** What `settleDelivery` answers: false when a newer claim took the delivery meanwhile. */
  stillPending = true;
  private seq = 0;

  transaction<R>(c: RequestContext, work: (tx: RequestContext) => Promise<R>): Promise<R> {
    return work(c);
  }
  transactionOf<R>(work: (m: EntityManager) => Promise<R>): Promise<R> {
    return work({} as EntityManager);
  }
  page(_c: RequestContext, page: PageRequest, topic?: string): Promise<Page<WebhookSubscription>> {
    return Promise.resolve(new Page(this.subs.filter((s) => !topic || s.topic === topic).slice(0, page.limit), page.limit, null));
  }
  getOrThrow(_c: RequestContext, id: string): Promise<WebhookSubscription> {
    const s = this.subs.find((r) => r.id === id);
    return s ? Promise.resolve(s) : Promise.reject(AppError.notFound('webhook'));
  }
  build(_c: RequestContext, fields: DeepPartial<WebhookSubscription>): WebhookSubscription {
    return Object.assign(new WebhookSubscription(), fields);
  }
  save(_c: RequestContext, s: WebhookSubscription): Promise<WebhookSubscription> {
    if (this.subs.some((r) => r !== s && r.topic === s.topic && r.address === s.address))
      return Promise.reject(Object.assign(new Error('duplicate key'), { code: '23505' }));
    if (!s.id) {
      s.id = `w${++this.seq}`;
      s.createdAt = new Date(Date.UTC(2026, 0, 1));
      s.updatedAt = null;
      this.subs.push(s);
    }
    return Promise.resolve(s);
  }
  delete(_c: RequestContext, id: string): Promise<boolean> {
    const before = this.subs.length;
    this.subs = this.subs.filter((s) => s.id !== id);
    return Promise.resolve(this.subs.length < before);
  }
  dropPending(_m: EntityManager | null, subscriptionId: string, reason: string): Promise<void> {
    this.dropped.push({ subscriptionId, reason });
    return Promise.resolve();
  }
  claimDue(): Promise<ClaimedDelivery[]> {
    const due = this.claimable;
    this.claimable = [];
    return Promise.resolve(due);
  }
  insertAttempt(_m: EntityManager, _d: ClaimedDelivery, a: AttemptRecord): Promise<void> {
    this.attempts.push(a);
    return Promise.resolve();
  }
  settleDelivery(_m: EntityManager, _d: ClaimedDelivery, s: DeliverySettlement): Promise<boolean> {
    this.settlements.push(s);
    return Promise.resolve(this.stillPending);
  }
  markFailing(_m: EntityManager, subscriptionId: string): Promise<void> {
    this.failing.push(subscriptionId);
    return Promise.resolve();
  }
}

async function setup(cfg: AppConfig = config) {
  const repo = new FakeWebhooksRepository();
  const counted: string[] = [];
  const module = await Test.createTestingModule({
    providers: [
      WebhooksService,
      WebhookDeliveryWorker,
      { provide: WebhooksRepository, useValue: repo },
      { provide: AppConfig, useValue: cfg },
      { provide: HttpAdapterHost, useValue: { httpAdapter: null } },
      { provide: Metrics, useValue: { webhookDeliveries: { inc: (l: { outcome: string }) => counted.push(l.outcome) } } },
    ],
  }).compile();
  const worker = module.get(WebhookDeliveryWorker);
  return { service: module.get(WebhooksService), worker, tick: () => (worker as unknown as { tick(): Promise<boolean> }).tick(), repo, counted };
}

async function failure(p: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, message: err.message };
    throw err;
  }
  throw new Error('expected a failure');
}

const outcome = (statusCode: number | null, aborted = false): Outcome => ({ statusCode, error: statusCode === null ? 'x' : null, durationMs: 1, aborted });

describe('deliveryVerdict (the retry rule)', () => {
  const created = new Date(Date.UTC(2026, 0, 1));
  const start = created.getTime();
  const cfg = { retryWindowMs: 60_000, retryBaseMs: 1000 };

  it('a 2xx delivers; 1xx, 3xx, 4xx, 5xx and no answer are retried', () => {
    expect(deliveryVerdict({ attempts: 1, created_at: created }, outcome(204), start, cfg)).toMatchObject({
      status: 'delivered',
      gaveUp: false,
      counted: 'delivered',
    });
    for (const code of [101, 301, 404, 500, null])
      expect(deliveryVerdict({ attempts: 1, created_at: created }, outcome(code), start, cfg)).toMatchObject({
        status: 'pending',
        gaveUp: false,
        counted: 'retry',
      });
  });

  it('backs off exponentially with jitter (half to all of base * 2^(attempt-1)), never past the window', () => {
    const at = (attempts: number, random: number, now = start) =>
      deliveryVerdict({ attempts, created_at: created }, outcome(500), now, cfg, () => random).nextAttemptAt.getTime() - now;
    expect([at(1, 0), at(1, 1), at(3, 0), at(3, 1)]).toEqual([500, 1000, 2000, 4000]);
    expect(at(10, 1, start + 59_000)).toBe(1000);
  });

  it('a failure at or after the end of the window gives up; an aborted attempt is retried at once, even then', () => {
    expect(deliveryVerdict({ attempts: 9, created_at: created }, outcome(500), start + 60_000, cfg)).toMatchObject({
      status: 'failed',
      gaveUp: true,
      counted: 'failed',
    });
    const aborted = deliveryVerdict({ attempts: 9, created_at: created }, outcome(null, true), start + 70_000, cfg);
    expect(aborted).toEqual({ status: 'pending', gaveUp: false, counted: 'aborted', nextAttemptAt: new Date(start + 70_000) });
  });
});

describe('WebhooksService (repository faked)', () => {
  it('creates with a fresh secret returned once; an unknown topic, a non-http address or an internal host is 422', async () => {
    const { service, repo } = await setup();
    const created = await service.create(ctx, { topic: 'order.placed', address: ' https://93.184.216.34/hook ' });
    expect(created).toMatchObject({ topic: 'order.placed', address: 'https://93.184.216.34/hook', is_active: true, failing_since: null });
    expect(service.secrets.open(repo.subs[0].secretBox)).toBe(created.secret);
    expect(await failure(service.create(ctx, { topic: 'order.nope', address: 'https://93.184.216.34/' }))).toEqual({
      status: 422,
      message: 'topic is not a known event topic',
    });
    expect(await failure(service.create(ctx, { topic: 'order.placed', address: 'ftp://93.184.216.34/' }))).toEqual({
      status: 422,
      message: 'address must be an http(s) URL',
    });
    expect((await failure(service.create(ctx, { topic: 'order.placed', address: 'http://127.0.0.1:9/' }))).status).toBe(422);
    expect(await failure(service.create(ctx, { topic: 'order.placed', address: 'https://93.184.216.34/hook' }))).toEqual({
      status: 422,
      message: 'address is already subscribed to this topic',
    });
  });

  it('deactivating drops the pending deliveries; reactivating clears failing_since; is_active null is 422', async () => {
    const { service, repo } = await setup();
    const { id } = await service.create(ctx, { topic: 'order.placed', address: 'https://93.184.216.34/' });
    await service.update(ctx, id, { is_active: false });
    expect(repo.dropped).toEqual([{ subscriptionId: id, reason: 'subscription deactivated' }]);
    repo.subs[0].failingSince = new Date();
    expect(await service.update(ctx, id, { is_active: true })).toMatchObject({ is_active: true, failing_since: null });
    expect(await failure(service.update(ctx, id, { is_active: null }))).toEqual({ status: 422, message: 'is_active must be a boolean' });
    expect(repo.dropped).toHaveLength(1);
  });

  it('deleting an unknown subscription is 404', async () => {
    const { service } = await setup();
    const { id } = await service.create(ctx, { topic: 'order.placed', address: 'https://93.184.216.34/' });
    await service.delete(ctx, id);
    expect(await failure(service.delete(ctx, id))).toEqual({ status: 404, message: 'webhook not found' });
  });
});

describe('WebhookDeliveryWorker (repository faked, a local receiver)', () => {
  let server: Server;
  let url: string;
  let answer = 200;
  const received: Array<{ headers: Record<string, unknown>; body: string }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.statusCode = answer;
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function claimed(service: WebhooksService, createdAt: Date): ClaimedDelivery {
    return {
      id: 'd1',
      tenant_id: TENANT,
      subscription_id: 'w1',
      event_id: 'e1',
      topic: 'order.placed',
      attempts: 1,
      created_at: createdAt,
      address: url,
      secret_box: service.secrets.seal('whsec_test'),
      payload: { order: { id: 'o1' } } as unknown as ClaimedDelivery['payload'],
      occurred_at: createdAt,
      trace_context: null,
    };
  }

  it('POSTs the signed body and settles a 2xx as delivered', async () => {
    const { service, tick, repo, counted } = await setup({ ...config, WEBHOOK_ALLOW_PRIVATE_TARGETS: true } as AppConfig);
    answer = 200;
    repo.claimable = [claimed(service, new Date())];
    expect(await tick()).toBe(false);
    expect(JSON.parse(received.at(-1)!.body)).toMatchObject({ id: 'e1', topic: 'order.placed', shop_id: TENANT, data: { order: { id: 'o1' } } });
    expect(received.at(-1)!.headers['x-webhook-signature']).toEqual(expect.any(String));
    expect(repo.attempts).toEqual([{ statusCode: 200, error: null, durationMs: expect.any(Number) }]);
    expect(repo.settlements).toMatchObject([{ status: 'delivered', statusCode: 200 }]);
    expect(counted).toEqual(['delivered']);
    expect(repo.failing).toEqual([]);
  });

  it('a failure past the retry window marks the subscription failing and drops its pending deliveries', async () => {
    const { service, tick, repo, counted } = await setup({ ...config, WEBHOOK_ALLOW_PRIVATE_TARGETS: true } as AppConfig);
    answer = 503;
    repo.claimable = [claimed(service, new Date(Date.now() - 120_000))];
    await tick();
    expect(repo.settlements).toMatchObject([{ status: 'failed', statusCode: 503 }]);
    expect(counted).toEqual(['failed']);
    expect(repo.failing).toEqual(['w1']);
    expect(repo.dropped).toEqual([{ subscriptionId: 'w1', reason: 'subscription marked failing' }]);
  });

  it('does not mark failing when a newer claim settled the delivery first', async () => {
    const { service, tick, repo } = await setup({ ...config, WEBHOOK_ALLOW_PRIVATE_TARGETS: true } as AppConfig);
    answer = 500;
    repo.stillPending = false;
    repo.claimable = [claimed(service, new Date(Date.now() - 120_000))];
    await tick();
    expect(repo.settlements).toHaveLength(1);
    expect(repo.failing).toEqual([]);
    expect(repo.dropped).toEqual([]);
  });

  it('refuses an internal address without WEBHOOK_ALLOW_PRIVATE_TARGETS: logged as not allowed, retried later', async () => {
    const { service, tick, repo, counted } = await setup();
    const before = received.length;
    repo.claimable = [claimed(service, new Date())];
    await tick();
    expect(received.length).toBe(before);
    expect(repo.attempts).toEqual([{ statusCode: null, error: 'connection failed: the address is not allowed', durationMs: expect.any(Number) }]);
    expect(repo.settlements).toMatchObject([{ status: 'pending' }]);
    expect(counted).toEqual(['retry']);
  });
});
