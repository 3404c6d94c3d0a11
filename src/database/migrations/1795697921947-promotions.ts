import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Promotions (issue 32): offers without a code or with one, their conditions and actions as JSON in the wire form
 * (README "Promotions"), checked by the service. `times_used` counts completed orders that applied one (for
 * `usage_limit`). A promotion's code is unique per shop, whatever its case.
 */
export class Promotions1795697921947 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE promotions (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        name text NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        starts_at timestamptz(3),
        ends_at timestamptz(3),
        priority integer NOT NULL DEFAULT 0,
        combines_with jsonb NOT NULL,
        usage_limit integer CHECK (usage_limit > 0),
        usage_limit_per_customer integer CHECK (usage_limit_per_customer > 0),
        times_used integer NOT NULL DEFAULT 0 CHECK (times_used >= 0),
        code text,
        conditions jsonb NOT NULL DEFAULT '[]',
        actions jsonb NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3),
        PRIMARY KEY (tenant_id, id),
        CHECK (starts_at IS NULL OR ends_at IS NULL OR ends_at > starts_at)
      )`);
    await q.query(`CREATE UNIQUE INDEX promotions_tenant_code_key ON promotions (tenant_id, upper(code)) WHERE code IS NOT NULL`);
    await q.query(`CREATE INDEX promotions_tenant_created_idx ON promotions (tenant_id, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE promotions`);
  }
}
