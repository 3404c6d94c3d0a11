import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Catalogue deltas (issue 14): the in-memory catalogue index of every instance is kept current by deltas published
 * through the cache bus (LISTEN/NOTIFY on `vinoshop_cache`) when a catalogue-changing transaction commits.
 *
 * - `catalogue_versions`: one row per tenant, its catalogue version, bumped once per published delta.
 * - `catalogue_changes`: what a transaction changed (`kind` `stock` with variant ids, `products` with product ids,
 *   `rebuild`), written by `SearchIndexService.refresh`/`refreshAvailability`. A deferred constraint trigger runs at
 *   commit (never on rollback): it bumps the tenant's version (the row lock taken at commit time orders commits, so
 *   notifications arrive in version order and a gap means a lost one), sends the delta with the change's id (the
 *   writer waits for that id before its next read), (stock: each variant's
 *   availability and on-hand as committed; products: their ids; too large a payload: `rebuild`) and deletes the row.
 */
export class CatalogueDeltas1764000140000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE catalogue_versions (
      tenant_id uuid PRIMARY KEY REFERENCES tenants(id) ON DELETE CASCADE,
      version bigint NOT NULL DEFAULT 0,
      changed_at timestamptz(3) NOT NULL DEFAULT now())`);
    await q.query(`CREATE TABLE catalogue_changes (
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      id bigserial NOT NULL,
      kind text NOT NULL CHECK (kind IN ('stock', 'products', 'rebuild')),
      ids uuid[] NOT NULL DEFAULT '{}',
      PRIMARY KEY (tenant_id, id))`);
    await q.query(`CREATE FUNCTION catalogue_change_publish() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v bigint;
  data jsonb;
  k text := NEW.kind;
  payload text;
  at bigint := (extract(epoch FROM clock_timestamp()) * 1000)::bigint;
BEGIN
  INSERT INTO catalogue_versions AS cv (tenant_id, version) VALUES (NEW.tenant_id, 1)
    ON CONFLICT (tenant_id) DO UPDATE SET version = cv.version + 1, changed_at = now()
    RETURNING cv.version INTO v;
  IF k = 'stock' THEN
    SELECT coalesce(jsonb_agg(jsonb_build_array(vs.variant_id, vs.available,
             coalesce((SELECT sum(sm.delta) FROM stock_movements sm WHERE sm.tenant_id = vs.tenant_id AND sm.variant_id = vs.variant_id), 0))), '[]'::jsonb)
      INTO data FROM variant_search vs WHERE vs.tenant_id = NEW.tenant_id AND vs.variant_id = ANY(NEW.ids);
  ELSIF k = 'products' THEN
    data := to_jsonb(NEW.ids);
  ELSE
    data := 'null'::jsonb;
  END IF;
  payload := json_build_object('t', 'catalogue.delta', 'id', NEW.tenant_id, 'o', 'db', 'v', v, 'c', NEW.id, 'k', k, 'd', data, 'at', at)::text;
  IF octet_length(payload) > 7900 THEN
    payload := json_build_object('t', 'catalogue.delta', 'id', NEW.tenant_id, 'o', 'db', 'v', v, 'c', NEW.id, 'k', 'rebuild', 'd', NULL, 'at', at)::text;
  END IF;
  PERFORM pg_notify('vinoshop_cache', payload);
  DELETE FROM catalogue_changes WHERE tenant_id = NEW.tenant_id AND id = NEW.id;
  RETURN NULL;
END $$`);
    await q.query(`CREATE CONSTRAINT TRIGGER catalogue_changes_publish AFTER INSERT ON catalogue_changes
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalogue_change_publish()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS catalogue_changes`);
    await q.query(`DROP FUNCTION IF EXISTS catalogue_change_publish()`);
    await q.query(`DROP TABLE IF EXISTS catalogue_versions`);
  }
}
