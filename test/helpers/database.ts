import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { runMigrations } from '../../src/database/data-source.js';

/**
 * The template every test file's database is cloned from (Immich's "medium" tests); migrated once per run. Each run
 * has its own (global-setup.mjs names it in TEST_TEMPLATE_DB), so runs sharing a DATABASE_URL server do not collide.
 */
export const templateDb = (): string => process.env.TEST_TEMPLATE_DB ?? 'shop_test_template';
const LOCK = 74_210_001;

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Set on the template once it is migrated (global-setup.mjs creates it afresh, without it, for every run). */
const MIGRATED = 'migrated by the test run';

/**
 * A fresh database for one test file: under an advisory lock, migrate the template (the first file only: later ones
 * find it marked and skip building a data source for it) and clone it, which takes a fraction of a second.
 */
export async function createTestDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `shop_test_${randomBytes(6).toString('hex')}`;
  const TEMPLATE_DB = templateDb();
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK]);
    const [mark] = (await client.query(`SELECT shobj_description(oid, 'pg_database') AS note FROM pg_database WHERE datname = $1`, [TEMPLATE_DB])).rows;
    if (mark?.note !== MIGRATED) {
      await runMigrations(withDatabase(serverUrl, TEMPLATE_DB));
      await client.query(`COMMENT ON DATABASE ${TEMPLATE_DB} IS '${MIGRATED}'`);
    }
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK]).catch(() => undefined);
    await client.end();
  }
  return {
    url: withDatabase(serverUrl, name),
    drop: async () => {
      const c = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
