import type { AppConfig } from '../../config/app-config.js';

/**
 * One cleanup sweep of a table, declared by the module that owns the table (the maintenance job only runs them):
 * deletes at most `$1` rows (the batch size) of `table`, those whose `key` the `select` finds (`$2` is the age from
 * the sweep's setting). Every sweep is cross-tenant by age and deletes by key through `LIMIT $1`.
 */
export interface CleanupSweep {
  name: string;
  table: string;
  key: 'id' | 'ctid';
  age: (config: AppConfig) => number;
  select: string;
}

/** `SELECT id FROM table WHERE column < now() - $2` (the age). */
export const olderThan = (table: string, column: string): string => `SELECT id FROM ${table} WHERE ${column} < now() - $2::interval`;
