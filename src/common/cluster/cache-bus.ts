import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import type { ClusterEventMap, ClusterTopic } from './cluster-event-map.js';

export type { ClusterEventMap, ClusterTopic } from './cluster-event-map.js';

/** The one PostgreSQL channel every instance listens on. */
export const CACHE_CHANNEL = 'vinoshop_cache';

/**
 * Drops cached state: of one tenant, or of every tenant when `tenantId` is null (after the listener reconnected and
 * may have missed notifications).
 */
export type CacheDropHandler<T extends ClusterTopic = ClusterTopic> = (tenantId: string | null, message?: BusMessage & ClusterEventMap[T]) => void;

/** A received message: topic, tenant, origin and any further members the publisher (or a trigger) added. */
export interface BusMessage extends Record<string, unknown> {
  t: string;
  id: string | null;
  o: string;
}

interface Message {
  /** topic, e.g. `tenancy` or `catalogue` */
  t: string;
  /** tenant id, or null for every tenant */
  id: string | null;
  /** publishing instance (diagnostics only: the publisher drops its own caches too) */
  o: string;
}

/** The primary's URL of a data source (plain or replicated). */
export function primaryUrlOf(dataSource: DataSource): string {
  const o = dataSource.options as { url?: string; replication?: { master?: { url?: string } } };
  const url = o.replication?.master?.url ?? o.url;
  if (!url) throw new Error('the data source has no url');
  return url;
}

/**
 * Cross-instance cache invalidation over PostgreSQL LISTEN/NOTIFY: no infrastructure beyond the database.
 *
 * Each instance keeps one dedicated connection (`application_name` `vinoshop-cache-bus`) that LISTENs on
 * `vinoshop_cache`; it reconnects with backoff when the connection drops, and after a reconnect every subscriber
 * drops everything (notifications sent while it was away are lost by design of NOTIFY). `publish(topic, tenantId)`
 * drops the local cache at once and sends a NOTIFY: through the caller's transaction manager it is delivered only
 * when that transaction commits (PostgreSQL holds NOTIFYs until commit and drops them on rollback); without one it
 * is sent immediately. Every instance, the publisher included, runs the topic's handlers within milliseconds.
 */
@Injectable()
export class CacheBus implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  readonly instanceId = randomUUID();
  private readonly logger = new Logger('CacheBus');
  private readonly handlers = new Map<string, CacheDropHandler[]>();
  private readonly pending = new Set<Promise<unknown>>();
  private client: pg.Client | null = null;
  private closed = false;
  private retryMs = 250;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private connected: Promise<void> | null = null;
  /** Received messages (tests and diagnostics). */
  received = 0;
  reconnects = 0;

  constructor(private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    this.connected = this.connect();
    await this.connected;
  }

  /** Runs `handler` on every instance whenever `topic` is published (including the publishing instance). */
  subscribe<T extends ClusterTopic>(topic: T, handler: CacheDropHandler<T>): void {
    const list = this.handlers.get(topic) ?? [];
    list.push(handler as CacheDropHandler);
    this.handlers.set(topic, list);
  }

  /**
   * Drops `topic`'s caches of `tenantId` here and on every other instance. Pass the open transaction's manager when
   * the change is not committed yet: the other instances then hear of it exactly when it commits.
   */
  async publish(topic: ClusterTopic, tenantId: string | null, manager?: EntityManager | null): Promise<void> {
    this.dispatch(topic, tenantId);
    const payload = JSON.stringify({ t: topic, id: tenantId, o: this.instanceId } satisfies Message);
    const inTx = manager?.queryRunner?.isTransactionActive === true;
    const args = [CACHE_CHANNEL, payload];
    // outside a transaction: on the bus's own connection when it is up (independent of the pool and its shutdown)
    const via: { query(sql: string, params: unknown[]): Promise<unknown> } = inTx ? manager! : (this.client ?? this.dataSource.manager);
    // eslint-disable-next-line no-restricted-syntax -- infrastructure, no table: NOTIFY (held until the caller's commit in a transaction)
    const work: Promise<unknown> = via.query('SELECT pg_notify($1, $2)', args);
    this.pending.add(work);
    try {
      await work;
    } finally {
      this.pending.delete(work);
    }
  }

  /** `publish` without waiting (after a commit, from synchronous code); a failure is logged. */
  publishSoon(topic: ClusterTopic, tenantId: string | null): void {
    this.publish(topic, tenantId).catch((err: Error) => this.logger.warn(`publish ${topic} failed: ${err.message}`));
  }

  /** True while the listening connection is up. */
  get listening(): boolean {
    return this.client !== null;
  }

  /** Sends what is still being published before the data source closes (it closes in onApplicationShutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    await this.flush();
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => undefined);
  }

  /** Waits for publications in flight, at most 2 s. */
  private async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.pending]), new Promise((done) => (timer = setTimeout(done, 2_000)))]);
    clearTimeout(timer);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: primaryUrlOf(this.dataSource), application_name: 'vinoshop-cache-bus', keepAlive: true });
    let gone = false;
    const lost = (err?: Error) => {
      if (gone) return;
      gone = true;
      if (this.client === client) this.client = null;
      client.removeAllListeners('notification');
      void client.end().catch(() => undefined);
      if (!this.closed) {
        if (err) this.logger.warn(`listener connection lost (${err.message}); reconnecting`);
        this.scheduleReconnect();
      }
    };
    client.on('error', (err) => lost(err));
    client.on('end', () => lost());
    client.on('notification', (msg) => this.onNotification(msg.payload));
    try {
      await client.connect();
      // eslint-disable-next-line no-restricted-syntax -- infrastructure, no table: LISTEN on the bus's channel
      await client.query(`LISTEN ${CACHE_CHANNEL}`);
    } catch (err) {
      gone = true;
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
      if (this.closed) return;
      this.logger.warn(`cannot listen on ${CACHE_CHANNEL} (${(err as Error).message}); retrying in ${this.retryMs} ms`);
      this.scheduleReconnect();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    const wasReconnect = this.reconnects > 0 || this.retryMs > 250;
    this.client = client;
    this.retryMs = 250;
    if (wasReconnect) {
      // notifications sent while we were not listening are gone: forget everything once
      for (const topic of this.handlers.keys()) this.dispatch(topic, null);
      this.logger.log(`listening on ${CACHE_CHANNEL} again; every cache dropped`);
    }
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer || this.closed) return;
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, 5_000);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.reconnects += 1;
      void this.connect();
    }, delay);
    this.reconnectTimer.unref();
  }

  private onNotification(payload: string | undefined): void {
    let msg: Message;
    try {
      msg = JSON.parse(payload ?? '') as Message;
    } catch {
      return;
    }
    if (typeof msg?.t !== 'string') return;
    this.received += 1;
    this.dispatch(msg.t, typeof msg.id === 'string' ? msg.id : null, msg as BusMessage);
  }

  private dispatch(topic: string, tenantId: string | null, message?: BusMessage): void {
    for (const handler of this.handlers.get(topic) ?? []) {
      try {
        handler(tenantId, message);
      } catch (err) {
        this.logger.error(`cache handler of ${topic} failed: ${(err as Error).message}`);
      }
    }
  }
}
