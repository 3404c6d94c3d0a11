import { DataSource, DataSourceOptions } from 'typeorm';
import { entities } from './entities.js';
import { migrations } from './migrations/index.js';
import { SnakeNamingStrategy } from './naming-strategy.js';

export interface DataSourceExtras {
  /** Entities and migrations contributed by extension modules. */
  entities?: DataSourceOptions['entities'];
  migrations?: DataSourceOptions['migrations'];
}

export function dataSourceOptions(url: string, extras: DataSourceExtras = {}): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: [...entities, ...((extras.entities as unknown[]) ?? [])] as DataSourceOptions['entities'],
    migrations: [...migrations, ...((extras.migrations as unknown[]) ?? [])] as DataSourceOptions['migrations'],
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    migrationsRun: false,
    migrationsTransactionMode: 'each',
    extra: { max: 20, application_name: 'vinoshop' },
  } as DataSourceOptions;
}

export async function runMigrations(url: string, extras: DataSourceExtras = {}): Promise<void> {
  const ds = new DataSource(dataSourceOptions(url, extras));
  await ds.initialize();
  try {
    await ds.runMigrations({ transaction: 'each' });
  } finally {
    await ds.destroy();
  }
}
