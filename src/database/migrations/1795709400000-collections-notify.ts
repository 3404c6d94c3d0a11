import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 35: `GET /search/suggest` reuses, per instance and per tenant, the shop's published collections (they were
 * read from PostgreSQL on every keystroke). Every write to `collections` and `collection_products` notifies every
 * instance at commit from the database itself, through `tenant_rows_changed` (migration ReadPathNotify1795707000000)
 * with the topic `collections`, so no write path (the import, the admin API, plain SQL; a TRUNCATE: every tenant)
 * leaves a stale copy.
 */
export class CollectionsNotify1795709400000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    for (const table of WATCHED) {
      await q.query(`CREATE TRIGGER ${table}_read_notify AFTER INSERT OR UPDATE OR DELETE ON ${table}
        FOR EACH ROW EXECUTE FUNCTION tenant_rows_changed('collections')`);
      await q.query(`CREATE TRIGGER ${table}_read_notify_truncate AFTER TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION tenant_rows_changed('collections')`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of WATCHED) {
      await q.query(`DROP TRIGGER IF EXISTS ${table}_read_notify ON ${table}`);
      await q.query(`DROP TRIGGER IF EXISTS ${table}_read_notify_truncate ON ${table}`);
    }
  }
}

/** The tables whose rows the suggestions reuse (topic `collections`, `COLLECTIONS_CACHE_TOPIC`). */
const WATCHED = ['collections', 'collection_products'];
