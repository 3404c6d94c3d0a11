import { MigrationInterface, QueryRunner } from 'typeorm';

export class Foundation1764000000000 implements MigrationInterface {
  name = 'Foundation1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await q.query(`CREATE EXTENSION IF NOT EXISTS unaccent`);
    await q.query(`
      CREATE TABLE tenants (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        handle text NOT NULL,
        name text NOT NULL,
        domain text,
        settings jsonb NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3)
      )`);
    await q.query(`CREATE UNIQUE INDEX tenants_handle_key ON tenants (lower(handle))`);
    await q.query(`CREATE UNIQUE INDEX tenants_domain_key ON tenants (lower(domain)) WHERE domain IS NOT NULL`);

    await q.query(`
      CREATE TABLE currencies (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        key text NOT NULL,
        code text NOT NULL,
        name text NOT NULL,
        symbol text,
        rate numeric(18,8) NOT NULL DEFAULT 1 CHECK (rate > 0),
        precision smallint NOT NULL DEFAULT 2,
        published boolean NOT NULL DEFAULT true,
        is_default boolean NOT NULL DEFAULT false,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3)
      )`);
    await q.query(`CREATE UNIQUE INDEX currencies_tenant_code_key ON currencies (tenant_id, code)`);
    await q.query(`CREATE UNIQUE INDEX currencies_tenant_key_key ON currencies (tenant_id, key)`);
    await q.query(`CREATE UNIQUE INDEX currencies_tenant_default_key ON currencies (tenant_id) WHERE is_default`);

    await q.query(`
      CREATE TABLE countries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        key text NOT NULL,
        code text NOT NULL,
        name jsonb NOT NULL DEFAULT '{}',
        shipping boolean NOT NULL DEFAULT true,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3)
      )`);
    await q.query(`CREATE UNIQUE INDEX countries_tenant_code_key ON countries (tenant_id, code)`);
    await q.query(`CREATE UNIQUE INDEX countries_tenant_key_key ON countries (tenant_id, key)`);

    await q.query(`
      CREATE TABLE staff_users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        email text NOT NULL,
        permissions text[] NOT NULL DEFAULT '{}',
        is_owner boolean NOT NULL DEFAULT false,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3)
      )`);
    await q.query(`CREATE UNIQUE INDEX staff_users_tenant_email_key ON staff_users (tenant_id, lower(email))`);

    await q.query(`
      CREATE TABLE access_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        issuer_id uuid NOT NULL REFERENCES staff_users(id) ON DELETE CASCADE,
        tier text NOT NULL CHECK (tier IN ('admin', 'storefront')),
        prefix text NOT NULL,
        label text NOT NULL,
        scopes text[] NOT NULL,
        token_hash bytea NOT NULL,
        last_used_at timestamptz(3),
        revoked_at timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3)
      )`);
    // Looked up before the tenant is known: the hash is the whole key.
    await q.query(`CREATE UNIQUE INDEX access_tokens_hash_key ON access_tokens (token_hash)`);
    await q.query(`CREATE INDEX access_tokens_tenant_active_idx ON access_tokens (tenant_id, created_at DESC, id DESC) WHERE revoked_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE access_tokens`);
    await q.query(`DROP TABLE staff_users`);
    await q.query(`DROP TABLE countries`);
    await q.query(`DROP TABLE currencies`);
    await q.query(`DROP TABLE tenants`);
  }
}
