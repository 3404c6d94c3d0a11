import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { AppConfig } from '../config/app-config.js';
import { PollingWorker, retryDelayMs } from '../events/index.js';
import type { DomainEvent, DomainEventMap, EventTopic } from '../events/index.js';
import { OutboxCommitListener, type OutboxWork } from '../extensions/index.js';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Metrics } from '../observability/index.js';
import { continueTrace } from '../observability/index.js';
import { SpanKind } from '@opentelemetry/api';
import { signWebhook } from './signature.js';
import { BlockedTargetError, checkedLookup, checkLiteralHost } from './target-address.js';
import { WebhooksService } from './webhooks.service.js';
import { WebhooksRepository, type ClaimedDelivery, type DeliverySettlement } from './webhooks.repository.js';

const BATCH = 20;
/** Margin of a claim's lease beyond the request timeout before another instance may try the same delivery. */
const LEASE_MARGIN_MS = 30_000;

/** The JSON body of a webhook delivery of a topic: the event's envelope and its payload as `data`. */
export interface WebhookBody<T extends EventTopic = EventTopic> {
  id: string;
  topic: T;
  shop_id: string;
  occurred_at: string;
  data: DomainEventMap[T];
}

/** The webhook serializer: what a subscriber of the event's topic receives. */
export function webhookBody<T extends EventTopic>(event: DomainEvent<T>): WebhookBody<T> {
  return {
    id: event.id,
    topic: event.topic as T,
    shop_id: event.tenantId,
    occurred_at: event.occurredAt.toISOString(),
    data: event.payload as DomainEventMap[T],
  };
}

/** What one POST of a delivery came to. */
export interface Outcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  aborted: boolean;
}

/** How an attempt's outcome settles its delivery, and the label counted in `webhook_deliveries_total`. */
export interface Verdict {
  status: DeliverySettlement['status'];
  nextAttemptAt: Date;
  gaveUp: boolean;
  counted: 'delivered' | 'failed' | 'aborted' | 'retry';
}

/**
 * The retry rule: a 2xx delivers; an aborted attempt (shutdown) is retried at once; any other failure is retried after
 * an exponential backoff with jitter (`retryDelayMs`), never past the end of the retry window (`created_at` +
 * `retryWindowMs`); a failure at or after that end gives up.
 */
export function deliveryVerdict(
  d: Pick<ClaimedDelivery, 'attempts' | 'created_at'>,
  o: Outcome,
  now: number,
  cfg: { retryWindowMs: number; retryBaseMs: number },
  random: () => number = Math.random,
): Verdict {
  const ok = o.statusCode !== null && o.statusCode >= 200 && o.statusCode < 300;
  const deadline = d.created_at.getTime() + cfg.retryWindowMs;
  const gaveUp = !ok && !o.aborted && now >= deadline;
  const next = o.aborted ? now : Math.min(now + retryDelayMs(d.attempts, cfg.retryBaseMs, random), deadline);
  return {
    status: ok ? 'delivered' : gaveUp ? 'failed' : 'pending',
    nextAttemptAt: new Date(next),
    gaveUp,
    counted: ok ? 'delivered' : gaveUp ? 'failed' : o.aborted ? 'aborted' : 'retry',
  };
}

/**
 * Delivers `webhook_deliveries` (at-least-once). A tick claims due deliveries of active subscriptions in a short
 * transaction with `FOR UPDATE SKIP LOCKED`, incrementing `attempts` and moving `next_attempt_at` past the request
 * timeout (a lease): concurrent instances never claim the same attempt, and a crashed instance's claim is retried
 * when its lease ends. Each claimed delivery is POSTed outside any transaction; its result is recorded in
 * `webhook_delivery_attempts`, guarded by the claimed attempt number. A 2xx delivers; anything else (or a timeout,
 * WEBHOOK_TIMEOUT_MS) is retried with exponential backoff and jitter until WEBHOOK_RETRY_WINDOW_MS after the event;
 * a failure after that marks the subscription failing (inactive, `failing_since`) and drops its pending deliveries.
 */
@Injectable()
export class WebhookDeliveryWorker extends OutboxCommitListener implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('WebhookDelivery');
  private readonly worker: PollingWorker;
  private shutdown = new AbortController();

  constructor(
    private readonly repo: WebhooksRepository,
    private readonly webhooks: WebhooksService,
    private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
    private readonly metrics: Metrics,
  ) {
    super();
    this.worker = new PollingWorker('webhook delivery', config.WEBHOOK_POLL_MS, () => this.tick(), this.logger);
  }

  /** Events were committed: deliver now if they wrote deliveries (an `OutboxCommitListener`). */
  outboxCommitted(work: OutboxWork): void {
    if (work.sinkRows) this.worker.kick();
  }

  /** Starts with the HTTP service; a CLI context (no HTTP adapter) leaves delivery to the server, or calls start(). */
  onApplicationBootstrap(): void {
    if (this.adapterHost.httpAdapter) this.start();
  }

  /** Stops polling, aborts requests in flight (they are retried at once by the next worker) and waits for the tick. */
  async beforeApplicationShutdown(): Promise<void> {
    const stopping = this.worker.stop();
    this.shutdown.abort();
    await stopping;
  }

  /** Polling (for /health/ready). */
  get running(): boolean {
    return this.worker.isRunning;
  }

  start(): void {
    if (this.shutdown.signal.aborted) this.shutdown = new AbortController();
    this.worker.start();
  }

  /** Deliver promptly (DomainEvents calls it after each commit that recorded events). */
  kick(): void {
    this.worker.kick();
  }

  private async tick(): Promise<boolean> {
    const claimed = await this.claim();
    await Promise.all(claimed.map((d) => this.deliver(d)));
    return claimed.length === BATCH;
  }

  /** Leases a batch of due deliveries with what they deliver (`WebhooksRepository.claimDue`). */
  private claim(): Promise<ClaimedDelivery[]> {
    return this.repo.claimDue(BATCH, this.config.WEBHOOK_TIMEOUT_MS + LEASE_MARGIN_MS);
  }

  private deliver(d: ClaimedDelivery): Promise<void> {
    const attributes = {
      'tenant.id': d.tenant_id,
      'event.id': d.event_id,
      'event.topic': d.topic,
      'webhook.subscription_id': d.subscription_id,
      'webhook.attempt': d.attempts,
    };
    return continueTrace(d.trace_context, 'webhook.deliver', attributes, () => this.deliverNow(d), SpanKind.PRODUCER);
  }

  private async deliverNow(d: ClaimedDelivery): Promise<void> {
    const body = JSON.stringify(
      webhookBody({ id: d.event_id, tenantId: d.tenant_id, topic: d.topic, payload: d.payload, occurredAt: d.occurred_at } as DomainEvent),
    );
    const timestamp = String(Math.floor(Date.now() / 1000));
    let outcome: Outcome;
    try {
      const secret = this.webhooks.secrets.open(d.secret_box);
      outcome = await this.post(
        d.address,
        {
          'Content-Type': 'application/json',
          'User-Agent': 'vinoshop-webhooks/1',
          'X-Webhook-Topic': d.topic,
          'X-Webhook-Id': d.event_id,
          'X-Webhook-Timestamp': timestamp,
          'X-Webhook-Signature': signWebhook(secret, timestamp, body),
        },
        body,
      );
    } catch (err) {
      outcome = { statusCode: null, error: `cannot sign: ${(err as Error).message}`, durationMs: 0, aborted: false };
    }
    try {
      await this.record(d, outcome);
    } catch (err) {
      this.logger.error(`recording delivery ${d.id} failed: ${(err as Error).message}`);
    }
  }

  /**
   * POSTs with node:http(s): the host is resolved once by `checkedLookup`, which refuses internal addresses (unless
   * WEBHOOK_ALLOW_PRIVATE_TARGETS) and connects to the address it checked; redirects are not followed. The error kept
   * for the admin is "timeout after N ms" or "connection failed", never the OS's text.
   */
  private async post(address: string, headers: Record<string, string>, body: string): Promise<Outcome> {
    const started = performance.now();
    const allowPrivate = this.config.WEBHOOK_ALLOW_PRIVATE_TARGETS;
    let timedOut = false;
    try {
      const url = new URL(address);
      checkLiteralHost(url.hostname, allowPrivate);
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const statusCode = await new Promise<number>((resolve, reject) => {
        const req = send(url, {
          method: 'POST',
          headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
          lookup: checkedLookup(allowPrivate) as never,
        });
        // the timeout covers the answer's status line; the body that follows is drained and ignored
        const timer = setTimeout(() => {
          timedOut = true;
          req.destroy(new Error('timeout'));
        }, this.config.WEBHOOK_TIMEOUT_MS);
        const onShutdown = () => req.destroy(new Error('aborted'));
        this.shutdown.signal.addEventListener('abort', onShutdown, { once: true });
        const done = () => {
          clearTimeout(timer);
          this.shutdown.signal.removeEventListener('abort', onShutdown);
        };
        req.on('response', (res) => {
          done();
          res.on('error', () => undefined);
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', (err) => {
          done();
          reject(err);
        });
        if (this.shutdown.signal.aborted) onShutdown();
        req.end(body);
      });
      return { statusCode, error: null, durationMs: Math.round(performance.now() - started), aborted: false };
    } catch (err) {
      const durationMs = Math.round(performance.now() - started);
      if (this.shutdown.signal.aborted) return { statusCode: null, error: 'aborted: the service was shutting down', durationMs, aborted: true };
      if (timedOut) return { statusCode: null, error: `timeout after ${this.config.WEBHOOK_TIMEOUT_MS} ms`, durationMs, aborted: false };
      if (err instanceof BlockedTargetError) return { statusCode: null, error: 'connection failed: the address is not allowed', durationMs, aborted: false };
      return { statusCode: null, error: 'connection failed', durationMs, aborted: false };
    }
  }

  private async record(d: ClaimedDelivery, o: Outcome): Promise<void> {
    const v = deliveryVerdict(d, o, Date.now(), { retryWindowMs: this.config.WEBHOOK_RETRY_WINDOW_MS, retryBaseMs: this.config.WEBHOOK_RETRY_BASE_MS });
    const error = o.error?.slice(0, 1000) ?? null;
    await this.repo.transactionOf(async (m) => {
      await this.repo.insertAttempt(m, d, { statusCode: o.statusCode, error, durationMs: o.durationMs });
      this.metrics.webhookDeliveries.inc({ outcome: v.counted });
      const settled = await this.repo.settleDelivery(m, d, { status: v.status, statusCode: o.statusCode, error, nextAttemptAt: v.nextAttemptAt });
      if (v.gaveUp && settled) {
        this.logger.warn(`webhook ${d.subscription_id} (${d.topic}) failed for the whole retry window: marked failing`);
        await this.repo.markFailing(m, d.subscription_id);
        await this.repo.dropPending(m, d.subscription_id, 'subscription marked failing');
      }
    });
  }
}
