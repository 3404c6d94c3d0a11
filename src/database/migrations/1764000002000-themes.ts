import { MigrationInterface, QueryRunner } from 'typeorm';

/** Themes, their text and binary assets, and the PostgreSQL store of binary asset bytes. */
export class Themes1764000002000 implements MigrationInterface {
  name = 'Themes1764000002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE themes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        name text,
        role text NOT NULL DEFAULT 'unpublished' CHECK (role IN ('main', 'unpublished')),
        theme_key text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3)
      )`);
    // exactly one main theme per shop: at most one by this index, at least one by the service (never demoted alone)
    await q.query(`CREATE UNIQUE INDEX themes_tenant_main_key ON themes (tenant_id) WHERE role = 'main'`);
    await q.query(`CREATE INDEX themes_tenant_created_idx ON themes (tenant_id, created_at, id)`);

    await q.query(`
      CREATE TABLE theme_assets (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        theme_id uuid NOT NULL REFERENCES themes(id) ON DELETE CASCADE,
        key text NOT NULL CHECK (char_length(key) BETWEEN 1 AND 255),
        kind text NOT NULL CHECK (kind IN ('text', 'binary')),
        value text,
        blob_ref text,
        size bigint NOT NULL CHECK (size >= 0),
        content_type text NOT NULL,
        etag text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3),
        CHECK ((kind = 'text' AND value IS NOT NULL AND blob_ref IS NULL) OR (kind = 'binary' AND blob_ref IS NOT NULL AND value IS NULL))
      )`);
    await q.query(`CREATE UNIQUE INDEX theme_assets_theme_key_key ON theme_assets (tenant_id, theme_id, key)`);
    await q.query(`CREATE INDEX theme_assets_theme_idx ON theme_assets (theme_id)`);

    // the bytes of the PostgreSQL asset store, in 256 KiB chunks so nothing is ever held whole in memory
    await q.query(`
      CREATE TABLE theme_asset_blob_chunks (
        blob_id uuid NOT NULL,
        seq integer NOT NULL CHECK (seq >= 0),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        data bytea NOT NULL,
        PRIMARY KEY (blob_id, seq)
      )`);
    // a replaced or deleted asset (also by cascade from its theme) takes its PostgreSQL bytes with it, in the same transaction
    await q.query(`
      CREATE FUNCTION theme_assets_drop_blob() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF OLD.blob_ref LIKE 'pg:%' AND (TG_OP = 'DELETE' OR NEW.blob_ref IS DISTINCT FROM OLD.blob_ref) THEN
          DELETE FROM theme_asset_blob_chunks WHERE blob_id = substr(OLD.blob_ref, 4)::uuid;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER theme_assets_drop_blob AFTER DELETE OR UPDATE OF blob_ref ON theme_assets
      FOR EACH ROW EXECUTE FUNCTION theme_assets_drop_blob()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS theme_asset_blob_chunks`);
    await q.query(`DROP TABLE IF EXISTS theme_assets`);
    await q.query(`DROP FUNCTION IF EXISTS theme_assets_drop_blob()`);
    await q.query(`DROP TABLE IF EXISTS themes`);
  }
}
