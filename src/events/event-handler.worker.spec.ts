import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { HttpAdapterHost } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import type { EntityManager } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { AppConfig } from '../config/app-config.js';
import { Metrics } from '../observability/index.js';
import type { DomainEvent } from './domain-event.js';
import { DomainEvents, type RegisteredHandler } from './domain-events.service.js';
import { EventHandlerWorker } from './event-handler.worker.js';
import { EventsRepository, type ClaimedJob, type JobFailure } from './events.repository.js';
import { PollingWorker } from './polling-worker.js';

const TENANT = '00000000-0000-0000-0000-000000000001';
const WINDOW = 60_000;
const BASE = 1_000;
const config = { WEBHOOK_RETRY_WINDOW_MS: WINDOW, WEBHOOK_RETRY_BASE_MS: BASE, WEBHOOK_POLL_MS: 60_000 } as AppConfig;

/** Due jobs in memory; each `transaction` gets a manager of its own, and every statement is recorded in order. */
class FakeEventsRepository {
  due: ClaimedJob[] = [];
  /** `statement manager-number [detail]`, in the order the worker ran them. */
  log: string[] = [];
  claimedFor: string[][] = [];
  failures: Array<{ jobId: string } & JobFailure> = [];
  private managers = 0;

  async transaction<R>(work: (m: EntityManager) => Promise<R>): Promise<R> {
    const m = { n: ++this.managers } as unknown as EntityManager;
    this.log.push(`begin ${this.n(m)}`);
    const result = await work(m);
    this.log.push(`commit ${this.n(m)}`);
    return result;
  }
  claimJob(m: EntityManager, handlers: string[]): Promise<ClaimedJob | undefined> {
    this.claimedFor.push(handlers);
    const i = this.due.findIndex((j) => handlers.includes(j.handler));
    const job = i < 0 ? undefined : this.due.splice(i, 1)[0];
    this.log.push(`claim ${this.n(m)}${job ? ` ${job.id}` : ''}`);
    return Promise.resolve(job);
  }
  savepoint(m: EntityManager): Promise<void> {
    return this.record(`savepoint ${this.n(m)}`);
  }
  releaseSavepoint(m: EntityManager): Promise<void> {
    return this.record(`release ${this.n(m)}`);
  }
  rollbackToSavepoint(m: EntityManager): Promise<void> {
    return this.record(`rollback ${this.n(m)}`);
  }
  markJobDone(m: EntityManager, jobId: string): Promise<void> {
    return this.record(`done ${this.n(m)} ${jobId}`);
  }
  markJobFailed(m: EntityManager, jobId: string, f: JobFailure): Promise<void> {
    this.failures.push({ jobId, ...f });
    return this.record(`failed ${this.n(m)} ${jobId}`);
  }
  private n(m: EntityManager): number {
    return (m as unknown as { n: number }).n;
  }
  private record(line: string): Promise<void> {
    this.log.push(line);
    return Promise.resolve();
  }
}

/** The handlers DomainEvents would have found (`handlerNames`, `handler`). */
class FakeDomainEvents {
  handlers = new Map<string, RegisteredHandler>();
  on(name: string, fn: RegisteredHandler['fn']): void {
    this.handlers.set(name, { name, topic: 'order.shipped', fn });
  }
  handlerNames(): string[] {
    return [...this.handlers.keys()];
  }
  handler(name: string): RegisteredHandler | undefined {
    return this.handlers.get(name);
  }
}

function job(id: string, handler: string, attempts = 0, createdAt = new Date()): ClaimedJob {
  return {
    id,
    handler,
    attempts,
    created_at: createdAt,
    event_id: `e-${id}`,
    tenant_id: TENANT,
    topic: 'order.shipped',
    payload: { order: { id: 'o1', number: '1001', tracking_url: null } },
    occurred_at: new Date(Date.UTC(2026, 0, 1)),
    trace_context: null,
  };
}

async function setUp(httpAdapter: object | null = null) {
  const repo = new FakeEventsRepository();
  const events = new FakeDomainEvents();
  const outcomes: string[] = [];
  const moduleRef = await Test.createTestingModule({
    providers: [
      EventHandlerWorker,
      { provide: EventsRepository, useValue: repo },
      { provide: DomainEvents, useValue: events },
      { provide: AppConfig, useValue: config },
      { provide: HttpAdapterHost, useValue: { httpAdapter } },
      { provide: Metrics, useValue: { eventHandlerRuns: { inc: (l: { outcome: string }) => outcomes.push(l.outcome) } } },
    ],
  }).compile();
  const worker = moduleRef.get(EventHandlerWorker);
  /** One polling round, as the running loop calls it; true when it stopped with work possibly left. */
  const tick = () => (worker as unknown as { tick(): Promise<boolean> }).tick();
  return { worker, repo, events, outcomes, tick };
}

/** The loop counts as running (tick stops claiming once it is stopped). */
function running(on = true): void {
  jest.spyOn(PollingWorker.prototype, 'isRunning', 'get').mockReturnValue(on);
}

afterEach(() => {
  jest.restoreAllMocks();
});

describe('EventHandlerWorker (repository faked)', () => {
  it('runs a job in a transaction of its own, after a savepoint, with the event and a context on that transaction; marks it done there', async () => {
    running();
    const { repo, events, outcomes, tick } = await setUp();
    const seen: Array<{ event: DomainEvent; ctx: RequestContext }> = [];
    events.on('mailer', (event, ctx) => {
      seen.push({ event, ctx });
      return Promise.resolve();
    });
    repo.due = [job('j1', 'mailer'), job('j2', 'mailer')];
    expect(await tick()).toBe(false);
    expect(repo.log).toEqual([
      'begin 1',
      'claim 1 j1',
      'savepoint 1',
      'release 1',
      'done 1 j1',
      'commit 1',
      'begin 2',
      'claim 2 j2',
      'savepoint 2',
      'release 2',
      'done 2 j2',
      'commit 2',
      'begin 3',
      'claim 3',
      'commit 3',
    ]);
    expect(seen[0].event).toEqual({
      id: 'e-j1',
      tenantId: TENANT,
      topic: 'order.shipped',
      payload: { order: { id: 'o1', number: '1001', tracking_url: null } },
      occurredAt: new Date(Date.UTC(2026, 0, 1)),
    });
    expect(seen[0].ctx.tenantId).toBe(TENANT);
    expect((seen[0].ctx.manager as unknown as { n: number }).n).toBe(1);
    expect((seen[1].ctx.manager as unknown as { n: number }).n).toBe(2);
    expect(outcomes).toEqual(['done', 'done']);
  });

  it('claims only jobs of the handlers this instance has; with none it claims nothing', async () => {
    running();
    const { repo, events, tick } = await setUp();
    repo.due = [job('j1', 'elsewhere')];
    expect(await tick()).toBe(false);
    expect(repo.claimedFor).toEqual([]);
    events.on('mailer', () => Promise.resolve());
    events.on('audit', () => Promise.resolve());
    expect(await tick()).toBe(false);
    expect(repo.claimedFor).toEqual([['mailer', 'audit']]);
    expect(repo.due.map((j) => j.id)).toEqual(['j1']);
  });

  it('a failure is rolled back to the savepoint and retried with exponential backoff: attempts + 1, the error kept (2,000 characters)', async () => {
    running();
    jest.spyOn(Math, 'random').mockReturnValue(1); // the top of the jitter range: the full exponential delay
    const { repo, events, outcomes, tick } = await setUp();
    events.on('mailer', () => Promise.reject(new Error('smtp down '.repeat(300))));
    repo.due = [job('j1', 'mailer', 2)];
    const before = Date.now();
    await tick();
    const after = Date.now();
    expect(repo.log.slice(0, 5)).toEqual(['begin 1', 'claim 1 j1', 'savepoint 1', 'rollback 1', 'failed 1 j1']);
    const [f] = repo.failures;
    expect(f).toMatchObject({ jobId: 'j1', status: 'pending', attempts: 3, error: 'smtp down '.repeat(200) });
    // third attempt failed: BASE * 2^(3-1)
    expect(f.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + 4 * BASE);
    expect(f.nextAttemptAt.getTime()).toBeLessThanOrEqual(after + 4 * BASE);
    expect(outcomes).toEqual(['retry']);
  });

  it('the jitter takes the delay down to half, never below', async () => {
    running();
    jest.spyOn(Math, 'random').mockReturnValue(0);
    const { repo, events, tick } = await setUp();
    events.on('mailer', () => Promise.reject(new Error('no')));
    repo.due = [job('j1', 'mailer', 0)];
    const before = Date.now();
    await tick();
    const after = Date.now();
    const next = repo.failures[0].nextAttemptAt.getTime();
    expect(next).toBeGreaterThanOrEqual(before + BASE / 2);
    expect(next).toBeLessThanOrEqual(after + BASE / 2);
  });

  it('a retry is never scheduled past the retry window after the event', async () => {
    running();
    jest.spyOn(Math, 'random').mockReturnValue(1);
    const { repo, events, tick } = await setUp();
    events.on('mailer', () => Promise.reject(new Error('no')));
    const createdAt = new Date(Date.now() - WINDOW + 2_000); // 2 s left; the sixth attempt would wait 32 s
    repo.due = [job('j1', 'mailer', 5, createdAt)];
    await tick();
    expect(repo.failures[0]).toMatchObject({ status: 'pending', attempts: 6, nextAttemptAt: new Date(createdAt.getTime() + WINDOW) });
  });

  it('a failure once the retry window has passed gives up: the job is marked failed', async () => {
    running();
    const { repo, events, outcomes, tick } = await setUp();
    events.on('mailer', () => Promise.reject(new Error('still down')));
    const createdAt = new Date(Date.now() - WINDOW - 1);
    repo.due = [job('j1', 'mailer', 9, createdAt)];
    await tick();
    expect(repo.failures).toEqual([
      { jobId: 'j1', status: 'failed', attempts: 10, error: 'still down', nextAttemptAt: new Date(createdAt.getTime() + WINDOW) },
    ]);
    expect(outcomes).toEqual(['failed']);
  });

  it('a failing job does not stop the next one', async () => {
    running();
    const { repo, events, outcomes, tick } = await setUp();
    events.on('flaky', () => Promise.reject(new Error('no')));
    events.on('mailer', () => Promise.resolve());
    repo.due = [job('j1', 'flaky'), job('j2', 'mailer')];
    expect(await tick()).toBe(false);
    expect(repo.log.filter((l) => l.startsWith('failed') || l.startsWith('done'))).toEqual(['failed 1 j1', 'done 2 j2']);
    expect(outcomes).toEqual(['retry', 'done']);
  });

  it('a job whose handler was unsubscribed meanwhile is left as it is for an instance that has it', async () => {
    running();
    const { repo, events, tick } = await setUp();
    events.on('mailer', () => Promise.resolve());
    repo.due = [job('j1', 'mailer')];
    const claim = repo.claimJob.bind(repo);
    repo.claimJob = (m, handlers) => {
      events.handlers.delete('mailer');
      return claim(m, handlers);
    };
    expect(await tick()).toBe(false);
    expect(repo.log).toEqual(['begin 1', 'claim 1 j1', 'commit 1']);
  });

  it('runs at most 50 jobs per round, then reports that more may wait', async () => {
    running();
    const { repo, events, tick } = await setUp();
    events.on('mailer', () => Promise.resolve());
    repo.due = Array.from({ length: 60 }, (_, i) => job(`j${i}`, 'mailer'));
    expect(await tick()).toBe(true);
    expect(repo.due).toHaveLength(10);
    expect(await tick()).toBe(false);
    expect(repo.due).toHaveLength(0);
  });

  it('claims nothing once stopped', async () => {
    running(false);
    const { repo, events, tick } = await setUp();
    events.on('mailer', () => Promise.resolve());
    repo.due = [job('j1', 'mailer')];
    expect(await tick()).toBe(false);
    expect(repo.claimedFor).toEqual([]);
  });

  it('starts polling with the HTTP server only (a CLI context leaves the jobs to the server)', async () => {
    const cli = await setUp(null);
    cli.worker.onApplicationBootstrap();
    expect(cli.worker.running).toBe(false);
    const server = await setUp({});
    server.worker.onApplicationBootstrap();
    expect(server.worker.running).toBe(true);
    await server.worker.beforeApplicationShutdown();
    expect(server.worker.running).toBe(false);
  });
});
