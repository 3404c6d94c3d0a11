import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The checkout read (issue 31) reuses per instance, per tenant: the shop's tax settings (`TaxService`), its
 * destination rules (`ShippingQuotes`) and whether any checkout of the shop has a gift card or store credit applied
 * (`BalancePaymentsService`). Every write to those tables notifies every instance at commit from the database
 * itself (payload `{t: topic, id: tenant, o: 'db'}` on the cache bus's channel, as `auth_principals_changed`), so
 * no write path (admin API, import, CLI `tax load-eu`, plain SQL; a TRUNCATE: every tenant) leaves a stale copy.
 */
export class ReadPathNotify1795707000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE FUNCTION tenant_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tenant uuid;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN tenant := NULL; ELSIF TG_OP = 'DELETE' THEN tenant := OLD.tenant_id; ELSE tenant := NEW.tenant_id; END IF;
  PERFORM pg_notify('vinoshop_cache', json_build_object('t', TG_ARGV[0], 'id', tenant, 'o', 'db')::text);
  IF TG_OP = 'UPDATE' AND OLD.tenant_id IS DISTINCT FROM NEW.tenant_id THEN
    PERFORM pg_notify('vinoshop_cache', json_build_object('t', TG_ARGV[0], 'id', OLD.tenant_id, 'o', 'db')::text);
  END IF;
  RETURN NULL;
END $$`);
    for (const [table, topic] of WATCHED) {
      await q.query(`CREATE TRIGGER ${table}_read_notify AFTER INSERT OR UPDATE OR DELETE ON ${table}
        FOR EACH ROW EXECUTE FUNCTION tenant_rows_changed('${topic}')`);
      await q.query(`CREATE TRIGGER ${table}_read_notify_truncate AFTER TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION tenant_rows_changed('${topic}')`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [table] of WATCHED) {
      await q.query(`DROP TRIGGER IF EXISTS ${table}_read_notify ON ${table}`);
      await q.query(`DROP TRIGGER IF EXISTS ${table}_read_notify_truncate ON ${table}`);
    }
    await q.query(`DROP FUNCTION IF EXISTS tenant_rows_changed()`);
  }
}

/** [table, cache-bus topic]: the topics are the ones `TaxService`, `ShippingQuotes` and `BalancePaymentsService` subscribe to. */
const WATCHED: Array<[table: string, topic: string]> = [
  ['tax_settings', 'tax_settings'],
  ['destination_rules', 'destination_rules'],
  ['checkout_balance_accounts', 'checkout_balances'],
];
