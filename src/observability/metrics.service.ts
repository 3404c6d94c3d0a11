import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { Extensions, QueueBacklogSource, type QueueBacklog } from '../extensions/index.js';
import { CatalogueIndexStats } from './catalogue-index-stats.js';
import { SlowQueryLogger } from './slow-query-logger.js';

interface PoolLike {
  totalCount?: number;
  idleCount?: number;
  waitingCount?: number;
}

/** Status class label of an HTTP status: `2xx` … `5xx`. */
export function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other';
}

/**
 * The service's Prometheus metrics (prom-client), one registry per application instance. Every label value comes
 * from a closed set (method, route template, tier, status class, outcome, error code): never an id or a raw path.
 * Gauges of state (pools, catalogue index, outbox) are read when scraped.
 */
@Injectable()
export class Metrics implements OnModuleInit, OnModuleDestroy {
  readonly registry = new Registry();
  private readonly logger = new Logger('Metrics');
  private catalogueIndex: CatalogueIndexStats | null = null;
  private unsubscribeSlowQueries: (() => void) | null = null;

  readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template, API tier and status class',
    labelNames: ['method', 'route', 'tier', 'status_class'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency in seconds, by method, route template, API tier and status class',
    labelNames: ['method', 'route', 'tier', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly rateLimitRefusals = new Counter({
    name: 'rate_limit_refusals_total',
    help: 'Requests refused with 429 by the rate limit',
    registers: [this.registry],
  });

  readonly taxProviderFallbacks = new Counter({
    name: 'tax_provider_fallbacks_total',
    help: "Checkout pricings where the TaxProvider failed or timed out and the shop's own tax tables answered",
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly ordersPlaced = new Counter({
    name: 'orders_placed_total',
    help: 'Orders placed (checkout completions that committed)',
    registers: [this.registry],
  });

  readonly checkoutFailures = new Counter({
    name: 'checkout_completion_failures_total',
    help: 'Checkout completions refused or failed, by error code',
    labelNames: ['code'] as const,
    registers: [this.registry],
  });

  readonly webhookDeliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered, retry (failed, will be retried), failed (gave up), aborted (shutdown)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly eventHandlerRuns = new Counter({
    name: 'event_handler_runs_total',
    help: 'In-process domain event handler runs by outcome: done, retry, failed',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly shippingRateFallbacks = new Counter({
    name: 'shipping_rate_provider_fallbacks_total',
    help: "Carrier rate requests not used (error, timeout, invalid answer): the method's own table applied instead",
    labelNames: ['provider', 'reason'] as const,
    registers: [this.registry],
  });

  readonly slowQueries = new Counter({
    name: 'db_slow_queries_total',
    help: 'Queries slower than SLOW_QUERY_MS',
    registers: [this.registry],
  });

  constructor(
    private readonly dataSource: DataSource,
    private readonly extensions: Extensions,
  ) {
    collectDefaultMetrics({ register: this.registry });
    const metrics = this;

    new Gauge({
      name: 'db_pool_connections',
      help: 'PostgreSQL pool connections by data source (primary, replica_N) and state (in_use, idle, waiting = callers waiting for one)',
      labelNames: ['data_source', 'state'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [name, pool] of metrics.pools()) {
          const total = pool.totalCount ?? 0;
          const idle = pool.idleCount ?? 0;
          this.set({ data_source: name, state: 'in_use' }, total - idle);
          this.set({ data_source: name, state: 'idle' }, idle);
          this.set({ data_source: name, state: 'waiting' }, pool.waitingCount ?? 0);
        }
      },
    });

    const index = (name: string, help: string, pick: (s: ReturnType<CatalogueIndexStats['stats']>) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          const stats = metrics.catalogueIndex?.stats();
          this.set(stats ? pick(stats) : 0);
        },
      });
    index('catalogue_index_tenants', 'Tenants whose storefront catalogue is loaded in this process', (s) => s.tenants);
    index('catalogue_index_bytes', 'Approximate memory held by the storefront catalogue index (bytes)', (s) => s.bytes + s.reservedBytes);
    index('catalogue_index_rebuilds', 'Catalogue index (re)builds since start', (s) => s.rebuilds);
    index(
      'catalogue_index_over_budget_refusals',
      'Catalogue reads refused (503) since start because the shop index alone does not fit CATALOGUE_INDEX_MEMORY_MB',
      (s) => s.overBudgetRefusals,
    );
    index('catalogue_index_answer_hits', 'Catalogue questions answered from the answer memo since start (repeated, provably current)', (s) => s.answerHits);
    index('catalogue_index_answer_misses', 'Catalogue questions computed by the index since start', (s) => s.answerMisses);
    index('catalogue_index_delta_lag_seconds', 'How far the catalogue index is behind committed changes (seconds)', (s) => s.deltaLagMs / 1000);

    // one query per scrape, shared by both gauges (prom-client collects them concurrently)
    let shared: { at: number; rows: ReturnType<Metrics['outboxBacklog']> } | null = null;
    const backlogOnce = () => {
      if (!shared || Date.now() - shared.at > 500) shared = { at: Date.now(), rows: metrics.outboxBacklog() };
      return shared.rows;
    };
    new Gauge({
      name: 'outbox_backlog',
      help: 'Pending outbox work by queue (handlers: in-process event handlers, webhooks: webhook deliveries)',
      labelNames: ['queue'] as const,
      registers: [this.registry],
      async collect() {
        for (const row of await backlogOnce()) this.set({ queue: row.queue }, row.pending);
      },
    });
    new Gauge({
      name: 'outbox_oldest_age_seconds',
      help: 'Age of the oldest pending outbox item by queue (0 when none)',
      labelNames: ['queue'] as const,
      registers: [this.registry],
      async collect() {
        for (const row of await backlogOnce()) this.set({ queue: row.queue }, row.oldestAgeSeconds);
      },
    });
  }

  onModuleInit(): void {
    // the data source's own slow-query hook (the logger is built with the data source, outside Nest)
    this.unsubscribeSlowQueries = SlowQueryLogger.of(this.dataSource)?.subscribe(() => this.slowQueries.inc()) ?? null;
    // the `CatalogueIndexStats` extension provider (the catalogue module's), if any
    this.catalogueIndex = this.extensions.one(CatalogueIndexStats);
  }

  onModuleDestroy(): void {
    this.unsubscribeSlowQueries?.();
    this.unsubscribeSlowQueries = null;
  }

  /** The catalogue index's statistics, or null when no index is bound. */
  catalogueIndexStats(): ReturnType<CatalogueIndexStats['stats']> | null {
    return this.catalogueIndex?.stats() ?? null;
  }

  /** Pending work per outbox queue; on a database error the queues read as unknown (not listed). */
  async outboxBacklog(): Promise<Array<{ queue: string } & QueueBacklog>> {
    if (!this.dataSource.isInitialized) return [];
    try {
      // each queue's owner measures its own table (QueueBacklogSource extension providers)
      return await Promise.all(this.extensions.all(QueueBacklogSource).map(async (s) => ({ queue: s.queue, ...(await s.backlog()) })));
    } catch (err) {
      this.logger.warn(`outbox backlog unavailable: ${(err as Error).message}`);
      return [];
    }
  }

  /** The pg pools of the data source: the primary, then each replica. */
  private pools(): Array<[string, PoolLike]> {
    const driver = this.dataSource.driver as unknown as { master?: PoolLike; slaves?: PoolLike[] };
    const out: Array<[string, PoolLike]> = [];
    if (driver.master) out.push(['primary', driver.master]);
    (driver.slaves ?? []).forEach((p, i) => out.push([`replica_${i}`, (p as { pool?: PoolLike }).pool ?? p]));
    return out;
  }

  /** One answered HTTP request. */
  observeRequest(method: string, route: string, tier: string, status: number, seconds: number): void {
    const labels = { method: KNOWN_METHODS.has(method) ? method : 'OTHER', route, tier, status_class: statusClass(status) };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
    if (status === 429) this.rateLimitRefusals.inc();
  }

  /** A checkout completion that did not place an order, by its API error code (bounded: codes are fixed in the source). */
  checkoutFailed(err: unknown): void {
    const e = err as { code?: unknown; status?: unknown };
    const code = typeof e?.code === 'string' && /^[a-z_]{1,60}$/.test(e.code) ? e.code : typeof e?.status === 'number' ? `http_${e.status}` : 'internal';
    this.checkoutFailures.inc({ code });
  }

  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
