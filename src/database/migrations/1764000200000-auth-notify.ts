import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Resolved tokens are reused for a few seconds per instance (`AuthService`, `CustomerAuthService`). Whatever changes
 * what a token may do — revoking it, a staff user's permissions, a shopper account disabled or deleted — notifies
 * every instance at commit from the database itself, so no write path (an admin call, a job, a migration, plain SQL)
 * (a TRUNCATE included: then for every tenant) can leave an instance trusting a stale principal: topic `auth` for
 * staff tokens, `customer_auth` for shopper tokens, payload `{t, id: tenant, o: 'db'}` on the cache bus's channel.
 * A row moved to another tenant notifies both. PostgreSQL sends identical notifications of one transaction once, so
 * a bulk revocation is one message per tenant.
 */
export class AuthNotify1764000200000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE FUNCTION auth_principals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tenant uuid;
BEGIN
  -- TRUNCATE (statement level): no row, every tenant (a null id drops every tenant's resolved tokens)
  IF TG_OP = 'TRUNCATE' THEN tenant := NULL; ELSIF TG_OP = 'DELETE' THEN tenant := OLD.tenant_id; ELSE tenant := NEW.tenant_id; END IF;
  PERFORM pg_notify('vinoshop_cache', json_build_object('t', TG_ARGV[0], 'id', tenant, 'o', 'db')::text);
  IF TG_OP = 'UPDATE' AND OLD.tenant_id IS DISTINCT FROM NEW.tenant_id THEN
    PERFORM pg_notify('vinoshop_cache', json_build_object('t', TG_ARGV[0], 'id', OLD.tenant_id, 'o', 'db')::text);
  END IF;
  RETURN NULL;
END $$`);
    // [table, topic, the columns a resolved principal depends on, which deleted rows matter (a dead token does not:
    // the cleanup job's hourly deletes of expired and revoked tokens notify nothing)]
    const watch: Array<[table: string, topic: string, columns: string[], deleted: string]> = [
      ['access_tokens', 'auth', ['tenant_id', 'revoked_at', 'token_hash', 'prefix', 'tier', 'scopes', 'issuer_id'], 'OLD.revoked_at IS NULL'],
      ['staff_users', 'auth', ['tenant_id', 'permissions'], 'true'],
      [
        'customer_tokens',
        'customer_auth',
        ['tenant_id', 'revoked_at', 'expires_at', 'token_hash', 'customer_id'],
        'OLD.revoked_at IS NULL AND OLD.expires_at > now()',
      ],
      ['customers', 'customer_auth', ['tenant_id', 'is_active'], 'true'],
    ];
    for (const [table, topic, columns, deleted] of watch) {
      const changed = columns.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(' OR ');
      await q.query(`CREATE TRIGGER ${table}_auth_update AFTER UPDATE OF ${columns.join(', ')} ON ${table}
        FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION auth_principals_changed('${topic}')`);
      await q.query(`CREATE TRIGGER ${table}_auth_delete AFTER DELETE ON ${table}
        FOR EACH ROW WHEN (${deleted}) EXECUTE FUNCTION auth_principals_changed('${topic}')`);
      await q.query(`CREATE TRIGGER ${table}_auth_truncate AFTER TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION auth_principals_changed('${topic}')`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['access_tokens', 'staff_users', 'customer_tokens', 'customers']) {
      await q.query(`DROP TRIGGER IF EXISTS ${table}_auth_update ON ${table}`);
      await q.query(`DROP TRIGGER IF EXISTS ${table}_auth_delete ON ${table}`);
      await q.query(`DROP TRIGGER IF EXISTS ${table}_auth_truncate ON ${table}`);
    }
    await q.query(`DROP FUNCTION IF EXISTS auth_principals_changed()`);
  }
}
