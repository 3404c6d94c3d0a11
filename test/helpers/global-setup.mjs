// Starts a real embedded PostgreSQL for the run unless DATABASE_URL names a server, and creates the run's empty template
// database that the first test file migrates (test/helpers/database.ts). Plain ESM: it runs outside Jest's transform.
import { startPostgres } from '../../bin/embedded-postgres.mjs';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** This run's template: its own name, so that runs sharing one DATABASE_URL server never drop each other's. */
const TEMPLATE_DB = `shop_test_template_${randomBytes(4).toString('hex')}`;

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

export default async function globalSetup() {
  // files shared by the run's test files (the OpenAPI document of the built-in modules, test-app.ts); removed at the end
  process.env.TEST_RUN_DIR = mkdtempSync(join(tmpdir(), 'shop-test-run-'));
  // the run's start, for each file's start in file-cpu.ndjson (test/helpers/file-cpu.ts)
  process.env.TEST_RUN_STARTED_AT = String(Date.now());
  // password hashes at scrypt cost 10 instead of 15 (about 8 ms of CPU instead of 100–400): the run signs shoppers
  // in and up hundreds of times; the servers and CLI runs the tests start inherit it (README "Configuration")
  process.env.PASSWORD_SCRYPT_COST ??= '10';
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const dir = mkdtempSync(join(tmpdir(), 'shop-test-pg-'));
    chmodSync(dir, 0o755); // initdb runs as the postgres user when we are root
    const port = await freePort();
    // the same runner as `npm start`: as root it runs PostgreSQL as the postgres user, from binaries that user can reach
    const server = await startPostgres({
      dataDir: join(dir, 'pg'),
      port,
      user: 'postgres',
      password: 'postgres',
      persistent: false,
      // a throw-away server: no durability, and no autovacuum workers visiting each of the run's short-lived databases
      flags: ['-c', 'max_connections=300', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'autovacuum=off'],
    });
    globalThis.__EMBEDDED_PG__ = { server, dir };
    serverUrl = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  }
  process.env.TEST_DATABASE_SERVER = serverUrl;
  // read by test/helpers/database.ts in the workers, and dropped by global-teardown.mjs
  process.env.TEST_TEMPLATE_DB = TEMPLATE_DB;
  const u = new URL(serverUrl);
  u.pathname = '/postgres';
  const client = new pg.Client({ connectionString: u.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  } finally {
    await client.end();
  }
}
