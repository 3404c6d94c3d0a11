import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Shopper accounts (issue 8) on the admin's `customers` table: one customer, one email, whichever tier created it.
 * - `customers.password_hash`: scrypt (`scrypt$N$r$p$salt$hash`), null until the shopper registers or resets it.
 * - `customer_tokens`: the shoppers' `vnscat_` access tokens, hash only (HMAC keyed by APP_SECRET), 30 days, revocable.
 * - `customer_one_time_tokens`: email confirmation and password reset codes, hash only, expiring, single use.
 * Token lookups go by hash before the tenant is known (as for access_tokens), hence the global unique hash indexes.
 */
export class CustomerAccounts1764000006000 implements MigrationInterface {
  name = 'CustomerAccounts1764000006000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE customers ADD COLUMN password_hash text`);

    await q.query(`
      CREATE TABLE customer_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        customer_id uuid NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
        token_hash bytea NOT NULL,
        expires_at timestamptz(3) NOT NULL,
        revoked_at timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3)
      )`);
    await q.query(`CREATE UNIQUE INDEX customer_tokens_hash_key ON customer_tokens (token_hash)`);
    await q.query(`CREATE INDEX customer_tokens_tenant_customer_idx ON customer_tokens (tenant_id, customer_id) WHERE revoked_at IS NULL`);

    await q.query(`
      CREATE TABLE customer_one_time_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        customer_id uuid NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
        purpose text NOT NULL CHECK (purpose IN ('confirm_email', 'reset_password')),
        token_hash bytea NOT NULL,
        expires_at timestamptz(3) NOT NULL,
        used_at timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3)
      )`);
    await q.query(`CREATE UNIQUE INDEX customer_one_time_tokens_hash_key ON customer_one_time_tokens (token_hash)`);
    await q.query(
      `CREATE INDEX customer_one_time_tokens_tenant_customer_idx ON customer_one_time_tokens (tenant_id, customer_id, purpose) WHERE used_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS customer_one_time_tokens`);
    await q.query(`DROP TABLE IF EXISTS customer_tokens`);
    await q.query(`ALTER TABLE customers DROP COLUMN IF EXISTS password_hash`);
  }
}
