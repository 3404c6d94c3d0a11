import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { runExclusive } from '../common/cluster/exclusive-job.js';
import { AppConfig } from '../config/app-config.js';

/**
 * One sweep: deletes at most `$1` rows (the batch size) of `table`, those whose `key` the `select` finds (`$2` is the
 * age from the sweep's setting), and returns the deleted keys.
 */
interface Sweep {
  name: string;
  table: string;
  key: 'id' | 'ctid';
  age: (config: AppConfig) => number;
  select: string;
}

const olderThan = (table: string, column: string) => `SELECT id FROM ${table} WHERE ${column} < now() - $2::interval`;

/**
 * What the service stops needing, removed in bounded batches. Every sweep is cross-tenant by age (indexes of
 * migration 1764000113000) and deletes by id through `LIMIT $1`, so one statement never holds many locks.
 */
const SWEEPS: Sweep[] = [
  {
    name: 'customer_tokens',
    table: 'customer_tokens',
    key: 'id',
    age: (c) => c.CLEANUP_EXPIRED_TOKENS_AFTER_MS,
    select: `${olderThan('customer_tokens', 'expires_at')} OR revoked_at < now() - $2::interval`,
  },
  { name: 'customer_one_time_tokens', table: 'customer_one_time_tokens', key: 'id', age: (c) => c.CLEANUP_EXPIRED_TOKENS_AFTER_MS, select: olderThan('customer_one_time_tokens', 'expires_at') },
  {
    name: 'idempotency_keys',
    table: 'idempotency_keys',
    key: 'ctid',
    age: (c) => c.CLEANUP_IDEMPOTENCY_KEYS_AFTER_MS,
    select: `SELECT ctid FROM idempotency_keys WHERE created_at < now() - $2::interval`,
  },
  { name: 'webhook_delivery_attempts', table: 'webhook_delivery_attempts', key: 'id', age: (c) => c.CLEANUP_EVENTS_AFTER_MS, select: olderThan('webhook_delivery_attempts', 'created_at') },
  {
    // an event goes once nothing waits on it: no pending webhook delivery, no pending handler job (they cascade with it)
    name: 'outbox_events',
    table: 'outbox_events',
    key: 'id',
    age: (c) => c.CLEANUP_EVENTS_AFTER_MS,
    select: `SELECT e.id FROM outbox_events e
               WHERE e.occurred_at < now() - $2::interval
                 AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
                 AND NOT EXISTS (SELECT 1 FROM event_handler_jobs j WHERE j.event_id = e.id AND j.status = 'pending')`,
  },
  {
    name: 'anonymous_carts',
    table: 'carts',
    key: 'id',
    age: (c) => c.CLEANUP_ANONYMOUS_CARTS_AFTER_MS,
    select: `SELECT k.id FROM carts k
               WHERE k.customer_id IS NULL AND coalesce(k.updated_at, k.created_at) < now() - $2::interval
                 AND NOT EXISTS (SELECT 1 FROM cart_items i WHERE i.cart_id = k.id AND coalesce(i.updated_at, i.created_at) >= now() - $2::interval)`,
  },
];

/** The batch statement of a sweep. */
function sweepSql(sweep: Sweep, config: AppConfig): { sql: string; params: unknown[] } {
  return {
    sql: `DELETE FROM ${sweep.table} WHERE ${sweep.key} IN (${sweep.select} LIMIT $1) RETURNING ${sweep.key === 'ctid' ? 'key' : 'id'}`,
    params: [`${sweep.age(config)} milliseconds`],
  };
}

/**
 * Periodic cleanup (issue 13): expired shopper tokens and one-time codes, idempotency keys (24 h), delivered outbox
 * events and webhook attempts (30 days), anonymous carts untouched for 90 days. Ages and the interval come from
 * AppConfig (`CLEANUP_*`); each batch runs under `runExclusive`, so of many instances one sweeps at a time.
 */
@Injectable()
export class CleanupService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Cleanup');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.CLEANUP_INTERVAL_MS <= 0) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.runOnce()
        .catch((err: unknown) => this.logger.warn(`cleanup failed: ${(err as Error).message}`))
        .finally(() => (this.running = null));
    }, this.config.CLEANUP_INTERVAL_MS).unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One full round: every sweep, batch after batch until a batch comes back short. Rows deleted per sweep. */
  async runOnce(): Promise<Record<string, number>> {
    const deleted: Record<string, number> = {};
    for (const sweep of SWEEPS) {
      deleted[sweep.name] = 0;
      for (;;) {
        const { ran, result } = await runExclusive(this.dataSource, `cleanup:${sweep.name}`, (m) => this.batch(m, sweep));
        if (!ran || result === undefined) break;
        deleted[sweep.name] += result;
        if (result < this.config.CLEANUP_BATCH_SIZE) break;
      }
    }
    return deleted;
  }

  private async batch(manager: EntityManager, sweep: Sweep): Promise<number> {
    const { sql, params } = sweepSql(sweep, this.config);
    const result: unknown = await manager.query(sql, [this.config.CLEANUP_BATCH_SIZE, ...params]);
    const rows = Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result;
    return Array.isArray(rows) ? rows.length : 0;
  }
}

