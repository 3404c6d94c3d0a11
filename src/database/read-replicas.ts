import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor, OnApplicationShutdown, OnModuleInit, UseInterceptors } from '@nestjs/common';
import type { Request } from 'express';
import pg from 'pg';
import { catchError, defer, finalize, Observable, throwError } from 'rxjs';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { parseLsn, replicaMayServe } from './lsn.js';
import { AppConfig } from '../config/app-config.js';
import { replicaPickerOf, replicaUrls } from './replication.js';
import { contextOf, RequestContext } from '../common/context/request-context.js';

export interface ReplicaHealth {
  url: string;
  healthy: boolean;
  /** Replay lag behind the primary in ms at the last check (0 when caught up), null when unknown. */
  lagMs: number | null;
  /** WAL position replayed at the last check (`pg_last_wal_replay_lsn()` as a number; 0: unknown). */
  replayLsn: number;
  checkedAt: number;
  error: string | null;
}

interface ReplicaState extends ReplicaHealth {
  index: number;
  client: pg.Client | null;
}

/** Errors that mean "this replica cannot answer now" (not "the query is wrong"): retried on the primary. */
export function isReplicaFailure(err: unknown): boolean {
  const e = err as { code?: string; message?: string; driverError?: { code?: string; message?: string } };
  const code = e?.driverError?.code ?? e?.code ?? '';
  const message = `${e?.message ?? ''} ${e?.driverError?.message ?? ''}`;
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN'].includes(code)) return true;
  // connection exceptions, admin/crash shutdown, cannot connect now, conflict with recovery, read-only transaction, too many connections
  if (code.startsWith('08') || ['57P01', '57P02', '57P03', '40001', '25006', '53300'].includes(code)) return true;
  return /Connection terminated|connection error|timeout exceeded when trying to connect|Connection is closed|the database system is/i.test(message);
}

/**
 * Storefront catalogue reads on streaming replicas (`DATABASE_REPLICA_URLS`), degrading to the primary.
 *
 * Every `REPLICA_CHECK_MS` (2 s) each replica is asked, on a connection of its own, whether it is a standby and how
 * far it is behind: 0 when its replay position has reached the primary's current WAL position (read just before),
 * otherwise `now() - pg_last_xact_replay_timestamp()`. A replica that does not answer, is not a standby, or lags more
 * than `REPLICA_MAX_LAG_MS` (5 s) is skipped until a later check finds it fine again; a replica failing during a
 * request is skipped at once and the request is answered from the primary. Without healthy replicas everything
 * reads from the primary: never an error because of a replica.
 */
@Injectable()
export class ReadReplicas implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ReadReplicas');
  private readonly states: ReplicaState[];
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private closed = false;
  /** The replica (state index) each replica-bound manager reads from. */
  private readonly managers = new WeakMap<EntityManager, number>();
  /** Reads answered by a replica, by the primary (no healthy replica), and retried on the primary after a failure. */
  readonly stats = { replica: 0, primary: 0, fallbacks: 0 };

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {
    const urls = replicaPickerOf(dataSource) ? replicaUrls(config.DATABASE_REPLICA_URLS) : [];
    this.states = urls.map((url, index) => ({ index, url, healthy: false, lagMs: null, replayLsn: 0, checkedAt: 0, error: 'not checked yet', client: null }));
  }

  get enabled(): boolean {
    return this.states.length > 0;
  }

  /** The replicas as last measured (credentials removed from the URLs). */
  health(): ReplicaHealth[] {
    return this.states.map((s) => ({ url: redact(s.url), healthy: s.healthy, lagMs: s.lagMs, replayLsn: s.replayLsn, checkedAt: s.checkedAt, error: s.error }));
  }

  async onModuleInit(): Promise<void> {
    if (!this.enabled) return;
    await this.check();
    this.timer = setInterval(() => void this.check(), this.config.REPLICA_CHECK_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.checking;
    await Promise.all(this.states.flatMap((s) => (s.client ? [s.client.end().catch(() => undefined)] : [])));
  }

  /**
   * A connected query runner on a healthy replica (release it when done), or null: read from the primary then.
   * A replica whose connection fails here is marked unhealthy and the next healthy one is tried.
   */
  async acquire(): Promise<{ runner: QueryRunner; replica: number } | null> {
    const picker = replicaPickerOf(this.dataSource);
    if (!picker) return null;
    for (let attempt = 0; attempt < this.states.length; attempt++) {
      const healthy = this.states.filter((s) => s.healthy);
      if (healthy.length === 0) return null;
      const state = healthy[Math.floor(Math.random() * healthy.length)];
      const runner = this.dataSource.createQueryRunner('slave');
      picker.pick = state.index;
      let connecting: Promise<unknown>;
      try {
        connecting = runner.connect();
      } finally {
        picker.pick = null;
      }
      try {
        await connecting;
        this.managers.set(runner.manager, state.index);
        return { runner, replica: state.index };
      } catch (err) {
        await runner.release().catch(() => undefined);
        this.markFailed(state.index, err);
      }
    }
    return null;
  }

  /**
   * A query runner on a healthy replica that connects on its first query (a request answered from memory never
   * takes a replica connection), or null: read from the primary then. A connection failure surfaces from that
   * query (`isReplicaFailure`); release with `releaseLazy`.
   */
  acquireLazy(): { runner: QueryRunner; replica: number } | null {
    const picker = replicaPickerOf(this.dataSource);
    if (!picker) return null;
    const healthy = this.states.filter((s) => s.healthy);
    if (healthy.length === 0) return null;
    const state = healthy[Math.floor(Math.random() * healthy.length)];
    const runner = this.dataSource.createQueryRunner('slave');
    const connect = runner.connect.bind(runner);
    runner.connect = () => {
      // the pool is chosen synchronously inside connect()
      picker.pick = state.index;
      try {
        return connect();
      } finally {
        picker.pick = null;
      }
    };
    this.managers.set(runner.manager, state.index);
    return { runner, replica: state.index };
  }

  /** Releases a runner of `acquireLazy`, after a connection still being made (never left checked out). */
  async releaseLazy(runner: QueryRunner): Promise<boolean> {
    const r = runner as unknown as { databaseConnection?: unknown; databaseConnectionPromise?: Promise<unknown> };
    const used = !!(r.databaseConnection || r.databaseConnectionPromise);
    if (r.databaseConnectionPromise && !r.databaseConnection) await r.databaseConnectionPromise.catch(() => undefined);
    await runner.release().catch(() => undefined);
    return used;
  }

  /**
   * Whether the context may read rows last changed at WAL position `changeLsn` (a number, see `parseLsn`; null:
   * unknown) where it reads now: always on the primary (no replica manager bound); on a replica only when its
   * replay position, as last measured, is at or past it (`replicaMayServe`).
   */
  mayServe(manager: EntityManager | null, changeLsn: number | null): boolean {
    const i = manager ? this.managers.get(manager) : undefined;
    if (i === undefined) return true;
    return replicaMayServe(this.states[i]?.replayLsn ?? null, changeLsn);
  }

  /**
   * Runs `work` with a context bound to a replica's manager when one is healthy, else to the primary; when the
   * replica fails mid-way, `work` runs again on the primary. Only for reads that may be slightly stale.
   */
  async read<R>(ctx: RequestContext, work: (ctx: RequestContext) => Promise<R>): Promise<R> {
    if (ctx.manager) return work(ctx);
    const got = await this.acquire();
    if (!got) {
      this.stats.primary += 1;
      return work(ctx);
    }
    try {
      const result = await work(ctx.withManager(got.runner.manager));
      this.stats.replica += 1;
      return result;
    } catch (err) {
      if (!isReplicaFailure(err)) throw err;
      this.markFailed(got.replica, err);
      this.stats.fallbacks += 1;
      return await work(ctx);
    } finally {
      await got.runner.release().catch(() => undefined);
    }
  }

  /** A replica failed during a request: skip it until a check finds it fine. */
  markFailed(index: number, err: unknown): void {
    const s = this.states[index];
    if (!s) return;
    if (s.healthy) this.logger.warn(`replica ${redact(s.url)} failed (${(err as Error)?.message}); reading from the primary`);
    s.healthy = false;
    s.error = (err as Error)?.message ?? String(err);
  }

  /** Measures every replica now (also every REPLICA_CHECK_MS); concurrent calls share one round. */
  check(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.checking ??= this.checkAll().finally(() => (this.checking = null));
    return this.checking;
  }

  private async checkAll(): Promise<void> {
    let primaryLsn: string | null = null;
    try {
      // eslint-disable-next-line no-restricted-syntax -- infrastructure, no table: the primary's WAL position
      const [row] = (await this.dataSource.query(`SELECT pg_current_wal_lsn()::text AS lsn`)) as Array<{ lsn: string | null }>;
      primaryLsn = row?.lsn ?? null;
    } catch {
      primaryLsn = null; // the primary's own trouble is not the replicas' business: measure by time only
    }
    await Promise.all(this.states.map((s) => this.checkOne(s, primaryLsn)));
  }

  private async checkOne(s: ReplicaState, primaryLsn: string | null): Promise<void> {
    const wasHealthy = s.healthy;
    try {
      if (!s.client) {
        const client = new pg.Client({
          connectionString: s.url,
          application_name: 'vinoshop-replica-check',
          connectionTimeoutMillis: 1_000,
          query_timeout: 1_000,
        });
        client.on('error', () => undefined);
        await client.connect();
        s.client = client;
      }
      // eslint-disable-next-line no-restricted-syntax -- infrastructure, no table: a replica's replay position and lag
      const { rows } = await s.client.query(
        `SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replay,
                CASE WHEN $1::pg_lsn IS NOT NULL AND pg_last_wal_replay_lsn() >= $1::pg_lsn THEN 0
                     ELSE (extract(epoch FROM now() - pg_last_xact_replay_timestamp()) * 1000)::float8 END AS lag_ms`,
        [primaryLsn],
      );
      const row = rows[0] as { standby: boolean; replay: string | null; lag_ms: number | null };
      s.checkedAt = Date.now();
      s.replayLsn = Math.max(s.replayLsn, parseLsn(row.replay));
      s.lagMs = row.lag_ms === null ? null : Math.max(0, Math.round(row.lag_ms));
      if (!row.standby) {
        s.healthy = false;
        s.error = 'not a standby (promoted?)';
      } else if (s.lagMs === null || s.lagMs > this.config.REPLICA_MAX_LAG_MS) {
        s.healthy = false;
        s.error = `lagging ${s.lagMs === null ? 'unknown' : `${s.lagMs} ms`} (max ${this.config.REPLICA_MAX_LAG_MS} ms)`;
      } else {
        s.healthy = true;
        s.error = null;
      }
    } catch (err) {
      s.healthy = false;
      s.checkedAt = Date.now();
      s.error = (err as Error).message;
      const c = s.client;
      s.client = null;
      await c?.end().catch(() => undefined);
    }
    if (wasHealthy !== s.healthy && !this.closed) {
      if (s.healthy) this.logger.log(`replica ${redact(s.url)} in use (lag ${s.lagMs} ms)`);
      else this.logger.warn(`replica ${redact(s.url)} skipped: ${s.error}`);
    }
  }
}

/**
 * On a controller of read-only storefront routes: the handler's `@Ctx()` is bound to a replica's manager when one
 * is healthy (released after the response), and a replica failure re-runs the handler on the primary.
 */
@Injectable()
export class ReplicaReadsInterceptor implements NestInterceptor {
  constructor(private readonly replicas: ReadReplicas) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (!this.replicas.enabled || context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<Request>();
    const ctx = contextOf(req);
    if (ctx.manager) return next.handle();
    // the replica connection is taken by the handler's first query, not here: a read answered from memory takes none
    return defer(() => {
      const got = this.replicas.acquireLazy();
      if (!got) {
        this.replicas.stats.primary += 1;
        return next.handle();
      }
      let released = false;
      const release = (failed: boolean) => {
        if (released) return;
        released = true;
        req.ctx = ctx;
        void this.replicas.releaseLazy(got.runner).then((used) => {
          if (!failed && used) this.replicas.stats.replica += 1;
        });
      };
      req.ctx = ctx.withManager(got.runner.manager);
      return next.handle().pipe(
        catchError((err: unknown) => {
          release(true);
          if (!isReplicaFailure(err)) return throwError(() => err);
          this.replicas.markFailed(got.replica, err);
          this.replicas.stats.fallbacks += 1;
          return defer(() => next.handle());
        }),
        finalize(() => release(false)),
      );
    });
  }
}

/** `@ReadFromReplica()` on a controller (or a route) of read-only routes that may be slightly stale. */
export const ReadFromReplica = () => UseInterceptors(ReplicaReadsInterceptor);

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(invalid url)';
  }
}
