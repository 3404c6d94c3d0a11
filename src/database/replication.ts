import { DataSource, DataSourceOptions } from 'typeorm';

/** `DATABASE_REPLICA_URLS` as a list (comma-separated, blanks ignored). */
export function replicaUrls(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * The data source options with TypeORM replication when replicas are given: the primary is `master`, the replicas
 * are `slaves`, and `defaultMode: 'master'`, so every query, transaction and repository stays on the primary unless
 * a read explicitly asks for a replica (`ReadReplicas`, storefront catalogue reads only).
 */
export function withReplicas(options: DataSourceOptions, replicas: string[]): DataSourceOptions {
  const o = options as DataSourceOptions & { url?: string };
  if (replicas.length === 0 || !o.url) return options;
  const { url, ...rest } = o;
  return { ...rest, replication: { master: { url }, slaves: replicas.map((r) => ({ url: r })), defaultMode: 'master' } } as DataSourceOptions;
}

/** Which replica pool the next `createQueryRunner('slave').connect()` takes (set synchronously by ReadReplicas). */
export interface ReplicaPicker {
  pick: number | null;
}

const pickers = new WeakMap<DataSource, ReplicaPicker>();

/** The replica picker of a data source built by `initializeDataSource` (null without replicas). */
export function replicaPickerOf(dataSource: DataSource): ReplicaPicker | null {
  return pickers.get(dataSource) ?? null;
}

interface PoolLike {
  connect(cb: (err: Error | undefined, connection: unknown, release: (err?: unknown) => void) => void): void;
  end(cb?: (err?: Error) => void): void;
}

interface PostgresDriverLike {
  slaves: PoolLike[];
  options: DataSourceOptions & { replication?: { master: unknown; slaves: unknown[] } };
  createPool(options: unknown, credentials: unknown): Promise<PoolLike>;
  obtainMasterConnection(): Promise<[unknown, (err?: unknown) => void]>;
  obtainSlaveConnection(): Promise<[unknown, (err?: unknown) => void]>;
}

/** A replica that did not answer at start: its pool is made at the first use that finds it up. */
class LazyPool implements PoolLike {
  private pool: PoolLike | null = null;
  private creating: Promise<PoolLike> | null = null;
  constructor(private readonly create: () => Promise<PoolLike>) {}
  connect(cb: (err: Error | undefined, connection: unknown, release: (err?: unknown) => void) => void): void {
    if (this.pool) return this.pool.connect(cb);
    this.creating ??= this.create().finally(() => (this.creating = null));
    this.creating.then(
      (pool) => {
        this.pool = pool;
        pool.connect(cb);
      },
      (err: Error) => cb(err, undefined, () => undefined),
    );
  }
  end(cb?: (err?: Error) => void): void {
    if (this.pool) this.pool.end(cb);
    else cb?.();
  }
}

/**
 * Builds and initialises the application's data source (TypeOrmModule's `dataSourceFactory`). With replicas, two
 * adjustments to TypeORM's PostgreSQL driver keep a dead replica from being an error:
 * - a replica that does not answer at start does not stop the service (TypeORM would fail `initialize()`): its pool
 *   is created at first use;
 * - replica pools get a short connect timeout (2 s), and `obtainSlaveConnection` takes the pool chosen by
 *   `ReadReplicas` (a healthy one) instead of a random one.
 */
export async function initializeDataSource(options: DataSourceOptions): Promise<DataSource> {
  const ds = new DataSource(options);
  const picker: ReplicaPicker = { pick: null };
  const driver = ds.driver as unknown as PostgresDriverLike;
  const master = driver.options.replication?.master;
  if (master) {
    const createPool = driver.createPool.bind(driver);
    driver.createPool = async (opts: unknown, credentials: unknown) => {
      if (credentials === master) return createPool(opts, credentials);
      const replicaOpts = { ...(opts as object), connectTimeoutMS: 2_000, extra: { ...((opts as { extra?: object }).extra ?? {}), max: 10 } };
      return createPool(replicaOpts, credentials).catch(() => new LazyPool(() => createPool(replicaOpts, credentials)));
    };
    driver.obtainSlaveConnection = () => {
      const i = picker.pick ?? Math.floor(Math.random() * driver.slaves.length);
      const pool = driver.slaves[i];
      if (!pool) return driver.obtainMasterConnection();
      return new Promise((ok, fail) => pool.connect((err, connection, release) => (err ? fail(err) : ok([connection, release]))));
    };
    pickers.set(ds, picker);
  }
  return ds.initialize();
}
