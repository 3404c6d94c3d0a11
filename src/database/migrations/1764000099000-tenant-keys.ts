import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sharding path (issue 10): every key of a tenant-owned table includes `tenant_id`, as a distributed table
 * under Citus requires (distribution column `tenant_id`), and as separate per-tenant clusters make harmless.
 *
 * For every table of the public schema that has a `tenant_id` column (all but `tenants` and `migrations`):
 * - foreign keys between tenant tables become composite: `(tenant_id, x_id) REFERENCES t (tenant_id, id)`
 *   (`ON DELETE SET NULL (x_id)` keeps `tenant_id`); foreign keys to `tenants(id)` stay (a reference table);
 * - the primary key gets `tenant_id` in front: `(tenant_id, id)`, `(tenant_id, variant_id)`, …;
 * - every unique constraint and unique index without `tenant_id` gets it in front (token hashes, cart lines,
 *   outbox jobs and deliveries, orders' checkout).
 * Written over the catalogue (pg_constraint, pg_index) so it covers every table at this point; the definitions
 * before are kept in `tenant_keys_before`, which `down()` restores. Extensions reference tenant rows by
 * `(tenant_id, id)` from now on.
 */
export class TenantKeys1764000099000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE tenant_keys_before (seq serial PRIMARY KEY, kind text NOT NULL, table_name text NOT NULL, name text NOT NULL, def text NOT NULL)`,
    );
    await q.query(`
DO $$
DECLARE
  r record;
  cols text;
  refcols text;
  rest text;
  m text[];
BEGIN
  CREATE TEMP TABLE tk_tables ON COMMIT DROP AS
    SELECT c.oid AS oid, c.relname AS name FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind = 'r'
      AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped);

  -- 1. foreign keys between tenant tables: remember, drop (recreated composite in step 4)
  FOR r IN SELECT con.conname, con.conrelid::regclass::text AS tbl, pg_get_constraintdef(con.oid) AS def
           FROM pg_constraint con
           WHERE con.contype = 'f' AND con.conrelid IN (SELECT oid FROM tk_tables) AND con.confrelid IN (SELECT oid FROM tk_tables)
           ORDER BY 2, 1 LOOP
    INSERT INTO tenant_keys_before (kind, table_name, name, def) VALUES ('fk', r.tbl, r.conname, r.def);
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', r.tbl, r.conname);
  END LOOP;

  -- 2. primary keys without tenant_id: (tenant_id, <columns>)
  FOR r IN SELECT con.conname, con.conrelid::regclass::text AS tbl, pg_get_constraintdef(con.oid) AS def
           FROM pg_constraint con
           WHERE con.contype = 'p' AND con.conrelid IN (SELECT oid FROM tk_tables)
             AND NOT EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = con.conrelid AND a.attnum = ANY (con.conkey) AND a.attname = 'tenant_id')
           ORDER BY 2 LOOP
    INSERT INTO tenant_keys_before (kind, table_name, name, def) VALUES ('pk', r.tbl, r.conname, r.def);
    cols := substring(r.def FROM '^PRIMARY KEY \\((.*)\\)$');
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', r.tbl, r.conname);
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I PRIMARY KEY (tenant_id, %s)', r.tbl, r.conname, cols);
  END LOOP;

  -- 3a. unique constraints without tenant_id
  FOR r IN SELECT con.conname, con.conrelid::regclass::text AS tbl, pg_get_constraintdef(con.oid) AS def
           FROM pg_constraint con
           WHERE con.contype = 'u' AND con.conrelid IN (SELECT oid FROM tk_tables)
             AND NOT EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = con.conrelid AND a.attnum = ANY (con.conkey) AND a.attname = 'tenant_id')
           ORDER BY 2, 1 LOOP
    INSERT INTO tenant_keys_before (kind, table_name, name, def) VALUES ('unique', r.tbl, r.conname, r.def);
    cols := substring(r.def FROM '^UNIQUE \\((.*)\\)$');
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', r.tbl, r.conname);
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I UNIQUE (tenant_id, %s)', r.tbl, r.conname, cols);
  END LOOP;

  -- 3b. unique indexes (not constraints) without tenant_id among their key columns or expressions
  FOR r IN SELECT ic.relname AS idx, t.name AS tbl, pg_get_indexdef(i.indexrelid) AS def
           FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN tk_tables t ON t.oid = i.indrelid
           WHERE i.indisunique AND NOT i.indisprimary
             AND NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conindid = i.indexrelid)
             AND NOT EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey::int2[]) AND a.attname = 'tenant_id')
             AND pg_get_indexdef(i.indexrelid) !~ 'tenant_id'
           ORDER BY 2, 1 LOOP
    INSERT INTO tenant_keys_before (kind, table_name, name, def) VALUES ('index', r.tbl, r.idx, r.def);
    EXECUTE format('DROP INDEX %I', r.idx);
    EXECUTE regexp_replace(r.def, ' USING (\\w+) \\(', ' USING \\1 (tenant_id, ');
  END LOOP;

  -- 4. the foreign keys again, composite through tenant_id
  FOR r IN SELECT table_name, name, def FROM tenant_keys_before WHERE kind = 'fk' ORDER BY seq LOOP
    m := regexp_match(r.def, '^FOREIGN KEY \\((.*?)\\) REFERENCES (\\S+?)\\((.*?)\\)(.*)$');
    cols := m[1];
    refcols := m[3];
    rest := replace(m[4], 'ON DELETE SET NULL', format('ON DELETE SET NULL (%s)', cols));
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I FOREIGN KEY (tenant_id, %s) REFERENCES %s(tenant_id, %s)%s', r.table_name, r.name, cols, m[2], refcols, rest);
  END LOOP;
END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT table_name, name FROM tenant_keys_before WHERE kind = 'fk' ORDER BY seq DESC LOOP
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', r.table_name, r.name);
  END LOOP;
  FOR r IN SELECT table_name, name, def FROM tenant_keys_before WHERE kind = 'index' ORDER BY seq DESC LOOP
    EXECUTE format('DROP INDEX %I', r.name);
    EXECUTE r.def;
  END LOOP;
  FOR r IN SELECT table_name, name, def FROM tenant_keys_before WHERE kind IN ('unique', 'pk') ORDER BY seq DESC LOOP
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', r.table_name, r.name);
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I %s', r.table_name, r.name, r.def);
  END LOOP;
  FOR r IN SELECT table_name, name, def FROM tenant_keys_before WHERE kind = 'fk' ORDER BY seq LOOP
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I %s', r.table_name, r.name, r.def);
  END LOOP;
END $$`);
    await q.query(`DROP TABLE tenant_keys_before`);
  }
}
