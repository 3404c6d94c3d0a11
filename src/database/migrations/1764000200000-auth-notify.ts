import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Resolved tokens are reused for a few seconds per instance (`AuthService`, `CustomerAuthService`). Whatever changes
 * what a token may do — revoking it, a staff user's permissions, a shopper account disabled or deleted — notifies
 * every instance at commit from the database itself, so no write path (an admin call, a job, a migration, plain SQL)
 * can leave an instance trusting a stale principal: topic `auth` for staff tokens, `customer_auth` for shopper
 * tokens, payload `{t, id: tenant, o: 'db'}` on the cache bus's channel. PostgreSQL sends identical notifications of
 * one transaction once, so a bulk revocation is one message per tenant.
 */
export class AuthNotify1764000200000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE FUNCTION auth_principals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tenant uuid;
BEGIN
  IF TG_OP = 'DELETE' THEN tenant := OLD.tenant_id; ELSE tenant := NEW.tenant_id; END IF;
  PERFORM pg_notify('vinoshop_cache', json_build_object('t', TG_ARGV[0], 'id', tenant, 'o', 'db')::text);
  RETURN NULL;
END $$`);
    const watch: Array<[table: string, topic: string, columns: string[]]> = [
      ['access_tokens', 'auth', ['revoked_at', 'token_hash', 'prefix', 'tier', 'scopes', 'issuer_id']],
      ['staff_users', 'auth', ['permissions']],
      ['customer_tokens', 'customer_auth', ['revoked_at', 'expires_at', 'token_hash', 'customer_id']],
      ['customers', 'customer_auth', ['is_active']],
    ];
    for (const [table, topic, columns] of watch) {
      const changed = columns.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(' OR ');
      await q.query(`CREATE TRIGGER ${table}_auth_update AFTER UPDATE OF ${columns.join(', ')} ON ${table}
        FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION auth_principals_changed('${topic}')`);
      await q.query(`CREATE TRIGGER ${table}_auth_delete AFTER DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION auth_principals_changed('${topic}')`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['access_tokens', 'staff_users', 'customer_tokens', 'customers']) {
      await q.query(`DROP TRIGGER IF EXISTS ${table}_auth_update ON ${table}`);
      await q.query(`DROP TRIGGER IF EXISTS ${table}_auth_delete ON ${table}`);
    }
    await q.query(`DROP FUNCTION IF EXISTS auth_principals_changed()`);
  }
}
