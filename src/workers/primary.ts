import cluster, { Worker } from 'node:cluster';
import type { AppConfig } from '../config/app-config.js';
import { runMigrations } from '../database/data-source.js';
import { startEmbeddedPostgres } from '../database/embedded-postgres.js';
import { restartDelayMs, workerEnv } from './worker-plan.js';

interface Slot {
  worker: Worker | null;
  startedAt: number;
  delayMs: number;
  timer: NodeJS.Timeout | null;
}

/**
 * The primary of `WORKERS` > 1 (node:cluster). It serves no request: it starts the embedded PostgreSQL (unless
 * DATABASE_URL is set) and runs the migrations once, then forks `count` workers that each build the whole app on the
 * shared port (the cluster module hands them the connections in turn), each an instance like any other (its own pool,
 * cache-bus listener and catalogue index). A worker that exits is restarted in the same slot (restartDelayMs).
 * SIGTERM / SIGINT: every worker gets SIGTERM and drains as a single server does (src/shutdown.ts); when all have
 * exited the embedded PostgreSQL stops and the primary exits 0 (1 if a worker did not stop cleanly). A second SIGINT
 * kills the workers and exits at once (130).
 */
export async function runPrimary(config: AppConfig, count: number, log: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Promise<void> {
  const slots: Slot[] = Array.from({ length: count }, () => ({ worker: null, startedAt: 0, delayMs: 0, timer: null }));
  let stopping = false;
  let failed = false;
  let stopEmbedded: () => Promise<void> = async () => undefined;
  let allExited: () => void = () => undefined;
  const exitedAll = new Promise<void>((resolve) => (allExited = resolve));
  const live = () => slots.filter((s) => s.worker !== null).length;

  const finish = async (code: number) => {
    try {
      await stopEmbedded();
    } catch (err) {
      code = 1;
      process.stderr.write(`shutdown: ${err instanceof Error ? err.message : String(err)}\n`);
    }
    process.exit(code);
  };
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      if (signal === 'SIGINT') {
        for (const s of slots) s.worker?.process.kill('SIGKILL');
        process.exit(130);
      }
      return;
    }
    stopping = true;
    log(`${signal}: stopping ${live()} worker(s)`);
    for (const s of slots) {
      if (s.timer) clearTimeout(s.timer);
      // SIGTERM even on SIGINT: a worker's second SIGINT (the terminal's own, then ours) would exit it at once
      s.worker?.process.kill('SIGTERM');
    }
    // a worker drains within SHUTDOWN_GRACE_MS and then closes its pools; one that hangs beyond is killed
    setTimeout(() => {
      for (const s of slots) {
        if (!s.worker) continue;
        failed = true;
        process.stderr.write(`worker ${slots.indexOf(s) + 1} (pid ${s.worker.process.pid}) did not stop in time: killed\n`);
        s.worker.process.kill('SIGKILL');
      }
    }, config.SHUTDOWN_GRACE_MS + 15_000).unref();
    if (live() === 0) allExited();
    void exitedAll.then(() => finish(failed ? 1 : 0));
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    const embedded = await startEmbeddedPostgres({ dataDir: config.DATA_DIR, port: config.EMBEDDED_PG_PORT });
    stopEmbedded = () => embedded.stop();
    databaseUrl = embedded.url;
  }
  if (stopping) return finish(0);
  try {
    await runMigrations(databaseUrl);
  } catch (err) {
    await stopEmbedded();
    throw err;
  }
  if (stopping) return finish(0);

  const fork = (index: number) => {
    const slot = slots[index];
    slot.timer = null;
    if (stopping) return;
    slot.startedAt = Date.now();
    const worker = cluster.fork(workerEnv(config, count, index + 1, databaseUrl));
    slot.worker = worker;
    log(`worker ${index + 1} (pid ${worker.process.pid}) starting`);
    worker.once('exit', (code, signal) => {
      slot.worker = null;
      if (stopping) {
        if (code !== 0) failed = true;
        log(`worker ${index + 1} (pid ${worker.process.pid}) stopped${code === 0 ? '' : ` (${signal ?? `exit ${code}`})`}`);
        if (live() === 0) allExited();
        return;
      }
      slot.delayMs = restartDelayMs(Date.now() - slot.startedAt, slot.delayMs);
      process.stderr.write(`worker ${index + 1} (pid ${worker.process.pid}) exited (${signal ?? `exit ${code}`}): restarting in ${slot.delayMs} ms\n`);
      slot.timer = setTimeout(() => fork(index), slot.delayMs);
    });
  };
  for (let i = 0; i < count; i++) fork(i);
  log(`commerce service: ${count} workers on http://${config.HOST}:${config.PORT} (primary pid ${process.pid})`);
}
