import { mkdirSync } from 'node:fs';
import { EmbeddedPostgresError, startPostgres } from '#embedded-postgres';
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
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
    socket.once('timeout', () => {
      socket.destroy();
      done(false);
    });
    socket.connect(port, '127.0.0.1');
  });
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    // eslint-disable-next-line no-restricted-syntax -- infrastructure, no table: the catalog lookup before CREATE DATABASE
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    // eslint-disable-next-line no-restricted-syntax -- infrastructure, no table: creating the service's database
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/**
 * Runs a real PostgreSQL from the embedded-postgres package's binaries with its data under `dataDir`, kept across
 * restarts (bin/embedded-postgres.mjs: as root it runs as the `postgres` user and, when that user cannot reach the
 * checkout, keeps binaries and data where it can, saying where). When one already answers on the port (the server
 * while the CLI runs, say) it is reused, not started twice. It installs no signal handler: the caller stops it last.
 */
export async function startEmbeddedPostgres(opts: { dataDir: string; port: number; database?: string; quiet?: boolean }): Promise<EmbeddedDatabase> {
  const database = opts.database ?? 'shop';
  const adminUrl = `postgres://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/postgres`;
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/${database}`;
  if (await portAnswers(opts.port)) {
    await ensureDatabase(adminUrl, database);
    return { url, stop: async () => undefined };
  }
  mkdirSync(resolve(opts.dataDir), { recursive: true });
  let server;
  try {
    server = await startPostgres({
      dataDir: resolve(opts.dataDir, 'pg'),
      port: opts.port,
      user: USER,
      password: PASSWORD,
      flags: ['-c', 'max_connections=200', '-c', 'shared_buffers=256MB', '-c', 'fsync=on'],
      notice: (line) => process.stderr.write(`${line}\n`),
    });
  } catch (err) {
    if (err instanceof EmbeddedPostgresError) throw new StartError(`embedded PostgreSQL: ${err.message}`);
    throw err;
  }
  try {
    await ensureDatabase(adminUrl, database);
  } catch (err) {
    await server.stop();
    throw err;
  }
  return { url, stop: () => server.stop() };
}

/** A start that cannot succeed as configured: its message says what to do (printed as one line, no stack). */
export class StartError extends Error {}
