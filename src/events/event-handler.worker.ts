import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { RequestContext } from '../common/context/request-context.js';
import { AppConfig } from '../config/app-config.js';
import { retryDelayMs } from './backoff.js';
import type { DomainEvent } from './domain-event.js';
import { DomainEvents } from './domain-events.service.js';
import { OutboxCommitListener, type OutboxWork } from '../extensions/index.js';
import { EventsRepository } from './events.repository.js';
import { PollingWorker } from './polling-worker.js';
import { Metrics } from '../observability/index.js';
import { continueTrace } from '../observability/index.js';

/**
 * Runs in-process handlers from `event_handler_jobs`. Each job runs in a transaction of its own that holds the job's
 * row lock (`FOR UPDATE SKIP LOCKED`, so instances never run one job twice at once): the handler's writes through
 * `ctx.manager` and the `done` mark commit together. A failure is rolled back to a savepoint, logged, and retried
 * with exponential backoff and jitter until WEBHOOK_RETRY_WINDOW_MS (24 h) after the event, then marked `failed`.
 * The request that emitted the event never sees a handler's failure. Instances only claim jobs of handlers they have.
 */
@Injectable()
export class EventHandlerWorker extends OutboxCommitListener implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('DomainEventHandlers');
  private readonly worker: PollingWorker;

  constructor(
    private readonly repo: EventsRepository,
    private readonly events: DomainEvents,
    private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
    private readonly metrics: Metrics,
  ) {
    super();
    this.worker = new PollingWorker('domain event handlers', config.WEBHOOK_POLL_MS, () => this.tick(), this.logger);
  }

  /** Events were committed: run now if they wrote handler jobs (an `OutboxCommitListener`). */
  outboxCommitted(work: OutboxWork): void {
    if (work.jobs) this.worker.kick();
  }

  /** Starts with the HTTP service; a CLI context (no HTTP adapter) leaves the work to the server, or calls start(). */
  onApplicationBootstrap(): void {
    if (this.adapterHost.httpAdapter) this.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker.stop();
  }

  /** Polling (for /health/ready). */
  get running(): boolean {
    return this.worker.isRunning;
  }

  start(): void {
    this.worker.start();
  }

  kick(): void {
    this.worker.kick();
  }

  /** Runs due jobs one at a time until none is left (or 50 ran); true when there may be more. */
  private async tick(): Promise<boolean> {
    const names = this.events.handlerNames();
    if (names.length === 0) return false;
    for (let i = 0; i < 50; i++) {
      if (!this.worker.isRunning) return false;
      if (!(await this.runOne(names))) return false;
    }
    return true;
  }

  private runOne(names: string[]): Promise<boolean> {
    return this.repo.transaction(async (manager) => {
      const job = await this.repo.claimJob(manager, names);
      if (!job) return false;
      const handler = this.events.handler(job.handler);
      if (!handler) return false; // unsubscribed meanwhile: leave the job for an instance that has it
      const event = { id: job.event_id, tenantId: job.tenant_id, topic: job.topic, payload: job.payload, occurredAt: job.occurred_at } as DomainEvent;
      const ctx = RequestContext.forTenant(job.tenant_id, `event:${job.event_id}`).withManager(manager);
      await this.repo.savepoint(manager);
      try {
        const attributes = { 'tenant.id': job.tenant_id, 'event.id': job.event_id, 'event.topic': job.topic, 'event.handler': job.handler };
        await continueTrace(job.trace_context, `event.handle ${job.handler}`, attributes, async () => {
          await handler.fn(event, ctx);
        });
        await this.repo.releaseSavepoint(manager);
        this.metrics.eventHandlerRuns.inc({ outcome: 'done' });
        await this.repo.markJobDone(manager, job.id);
      } catch (err) {
        await this.repo.rollbackToSavepoint(manager);
        const attempts = job.attempts + 1;
        const message = (err as Error)?.message ?? String(err);
        const deadline = job.created_at.getTime() + this.config.WEBHOOK_RETRY_WINDOW_MS;
        const next = Date.now() + retryDelayMs(attempts, this.config.WEBHOOK_RETRY_BASE_MS);
        const gaveUp = Date.now() >= deadline;
        this.metrics.eventHandlerRuns.inc({ outcome: gaveUp ? 'failed' : 'retry' });
        this.logger[gaveUp ? 'error' : 'warn'](
          `handler ${job.handler} failed on ${job.topic} event ${job.event_id} (attempt ${attempts}${gaveUp ? ', giving up' : ''}): ${message}`,
        );
        await this.repo.markJobFailed(manager, job.id, {
          status: gaveUp ? 'failed' : 'pending',
          attempts,
          error: message.slice(0, 2000),
          nextAttemptAt: new Date(Math.min(next, deadline)),
        });
      }
      return true;
    });
  }
}
