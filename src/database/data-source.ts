import { DataSource, DataSourceOptions } from 'typeorm';
import { entities } from './entities.js';
import { migrations } from './migrations/index.js';
import { SnakeNamingStrategy } from './naming-strategy.js';
import { SlowQueryLogger } from '../observability/index.js';
import { PreparingClient } from './prepared-statements.js';

export interface DataSourceExtras {
  /** Entities and migrations contributed by extension modules. */
  entities?: DataSourceOptions['entities'];
  migrations?: DataSourceOptions['migrations'];
}

/** How the service's sessions behave (AppConfig); all optional so migrations and the CLI's ormconfig need none. */
export interface SessionSettings {
  /** Queries slower than this write one `slow query` log line (SlowQueryLogger); 0 = none (migrations). */
  slowQueryMs?: number;
  /** Connections in the pool (20). */
  poolSize?: number;
  /** Waiting longer than this for a pool connection fails (`isPoolTimeout` in common/db: 503 with Retry-After); 0 = wait forever. */
  acquireTimeoutMs?: number;
  /** PostgreSQL ends a session idle inside a transaction this long (ms); 0 = the server's default. */
  idleInTransactionMs?: number;
}

export function dataSourceOptions(url: string, extras: DataSourceExtras = {}, session: SessionSettings = {}): DataSourceOptions {
  const { slowQueryMs = 0, poolSize = 20, acquireTimeoutMs = 0, idleInTransactionMs = 0 } = session;
  return {
    type: 'postgres',
    url,
    entities: [...entities, ...((extras.entities as unknown[]) ?? [])] as DataSourceOptions['entities'],
    migrations: [...migrations, ...((extras.migrations as unknown[]) ?? [])] as DataSourceOptions['migrations'],
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    migrationsRun: false,
    migrationsTransactionMode: 'each',
    logger: new SlowQueryLogger(),
    maxQueryExecutionTime: slowQueryMs || undefined,
    extra: {
      // marked statements sent as named prepared statements (src/database/prepared-statements.ts)
      Client: PreparingClient,
      max: poolSize,
      application_name: 'vinoshop',
      ...(acquireTimeoutMs > 0 ? { connectionTimeoutMillis: acquireTimeoutMs } : {}),
      ...(idleInTransactionMs > 0 ? { idle_in_transaction_session_timeout: idleInTransactionMs } : {}),
    },
  } as DataSourceOptions;
}

/** Advisory lock held while migrating, so instances starting together migrate one after the other. */
const MIGRATION_LOCK = 74_210_099;

export async function runMigrations(url: string, extras: DataSourceExtras = {}): Promise<void> {
  const ds = new DataSource(dataSourceOptions(url, extras));
  await ds.initialize();
  const lock = ds.createQueryRunner();
  try {
    // eslint-disable-next-line no-restricted-syntax -- infrastructure, no table: the migration lock
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await ds.runMigrations({ transaction: 'each' });
  } finally {
    // eslint-disable-next-line no-restricted-syntax -- infrastructure, no table: the migration lock
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await lock.release();
    await ds.destroy();
  }
}
