import type { EntityManager } from 'typeorm';
import type { CleanupSweep } from '../common/db/sweep.js';
import type { AppConfig } from '../config/app-config.js';

/**
 * The one statement of the cleanup job: a bounded batch of a sweep's rows, deleted in the caller's (exclusive)
 * transaction. The tables are their owners'; each owner declares its sweep (`select`, `age`), this runs it.
 */

/** Deletes up to `batchSize` rows the sweep selects as old enough; how many went. */
export async function deleteSweepBatch(m: EntityManager, sweep: CleanupSweep, config: AppConfig, batchSize: number): Promise<number> {
  const sql = `DELETE FROM ${sweep.table} WHERE ${sweep.key} IN (${sweep.select} LIMIT $1) RETURNING ${sweep.key === 'ctid' ? 'key' : 'id'}`;
  const result: unknown = await m.query(sql, [batchSize, `${sweep.age(config)} milliseconds`]);
  const rows: unknown = Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result;
  return Array.isArray(rows) ? rows.length : 0;
}
