import 'reflect-metadata';
import { createShopApp } from './app.js';
import { ConfigError, loadConfig } from './config/app-config.js';
import { startEmbeddedPostgres } from './database/embedded-postgres.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const embedded = config.DATABASE_URL ? null : await startEmbeddedPostgres({ dataDir: config.DATA_DIR, port: config.EMBEDDED_PG_PORT });
  const databaseUrl = config.DATABASE_URL ?? embedded!.url;
  const app = await createShopApp({ config, databaseUrl });
  const server = await app.listen(config.PORT, config.HOST);
  process.stdout.write(`commerce service listening on http://${config.HOST}:${config.PORT} (docs: /api/docs)\n`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    process.stdout.write(`${signal}: finishing requests and shutting down\n`);
    server.closeIdleConnections?.();
    await app.close();
    await embedded?.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

void main().catch((err: unknown) => {
  process.stderr.write(`failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
