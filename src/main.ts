import 'reflect-metadata';
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import { availableParallelism } from 'node:os';
import { createShopApp } from './app.js';
import { ConfigError, loadConfig } from './config/app-config.js';
import { StartError, startEmbeddedPostgres } from './database/embedded-postgres.js';
import { refuseBusyPort } from './port-check.js';
import { installGracefulShutdown } from './shutdown.js';
import { runPrimary, WORKER_SLOT_ENV, workerCount } from './workers/index.js';

async function main(): Promise<void> {
  const config = loadConfig();
  // before the database, the migrations and any fork (src/port-check.ts); workers share the primary's port
  if (cluster.isPrimary) await refuseBusyPort(config.HOST, config.PORT);
  const workers = workerCount(config.WORKERS, availableParallelism());
  // WORKERS > 1: this process is the primary (database, migrations, forks); each worker runs the code below
  if (workers > 1 && cluster.isPrimary) return runPrimary(config, workers);
  // first, so that a signal at any point of the start closes what has been started (src/shutdown.ts)
  const stop = installGracefulShutdown(config.SHUTDOWN_GRACE_MS);
  // a worker is given the primary's database (DATABASE_URL), already migrated
  const embedded = config.DATABASE_URL ? null : await startEmbeddedPostgres({ dataDir: config.DATA_DIR, port: config.EMBEDDED_PG_PORT });
  if (embedded) stop.finally = () => embedded.stop();
  const databaseUrl = config.DATABASE_URL ?? embedded!.url;
  let app;
  try {
    app = await createShopApp({ config, databaseUrl, migrate: !cluster.isWorker });
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
  stop.app = app;
  stop.server = app.getHttpServer() as Server;
  await app.listen(config.PORT, config.HOST);
  const worker = cluster.isWorker ? ` (worker ${process.env[WORKER_SLOT_ENV]} of ${workers}, pid ${process.pid})` : '';
  process.stdout.write(`commerce service listening on http://${config.HOST}:${config.PORT} (docs: /api/docs)${worker}\n`);
}

void main().catch((err: unknown) => {
  // a configuration or start problem the operator can fix: its one line, no stack
  if (err instanceof ConfigError || err instanceof StartError) process.stderr.write(`${err.message}\n`);
  else if (err instanceof Error) process.stderr.write(`failed to start: ${err.message || err.name}\n${err.stack ?? ''}\n`);
  else process.stderr.write(`failed to start: ${String(err)}\n`);
  process.exit(1);
});
