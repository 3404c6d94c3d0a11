import type { AppConfig } from '../config/app-config.js';

/** Internal: the slot (1..n) of a worker, set by the primary; a restarted worker keeps its slot (and metrics port). */
export const WORKER_SLOT_ENV = 'SHOP_WORKER_SLOT';

/** How many server processes `WORKERS` asks for on a machine with `cores` cores (`auto` = the cores, at least 1). */
export function workerCount(setting: AppConfig['WORKERS'], cores: number): number {
  if (setting === 'auto') return Math.max(1, Math.floor(cores));
  return setting;
}

/**
 * The environment the primary gives worker `slot` of `count` on top of its own: the database it started and migrated,
 * an equal share of the catalogue index budget (each worker builds its own index: README, "Workers"), and a metrics
 * port of its own when METRICS_PORT is set (slot 1 on METRICS_PORT, slot 2 on the next port, ...).
 */
export function workerEnv(
  config: Pick<AppConfig, 'CATALOGUE_INDEX_MEMORY_MB' | 'METRICS_PORT'>,
  count: number,
  slot: number,
  databaseUrl: string,
): Record<string, string> {
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    CATALOGUE_INDEX_MEMORY_MB: String(indexShareMb(config.CATALOGUE_INDEX_MEMORY_MB, count)),
    [WORKER_SLOT_ENV]: String(slot),
  };
  if (config.METRICS_PORT > 0) env.METRICS_PORT = String(config.METRICS_PORT + slot - 1);
  return env;
}

/** Each worker's share of CATALOGUE_INDEX_MEMORY_MB: the whole divided by the workers, rounded down, at least 1 MB. */
export function indexShareMb(totalMb: number, count: number): number {
  return Math.max(1, Math.floor(totalMb / count));
}

/**
 * How long to wait before restarting a worker that exited: at once after a worker that had run a while (a crash),
 * doubling from 1 s up to 30 s while workers die during their start (a database that is away, say), so a worker
 * that cannot start does not spin.
 */
export function restartDelayMs(ranMs: number, previousDelayMs: number): number {
  if (ranMs >= 10_000) return 0;
  return Math.min(30_000, previousDelayMs > 0 ? previousDelayMs * 2 : 1_000);
}
