import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Shipping rates and destination rules (issue 31, README "Shipping"): a shipping method's rate table (by bottle
 * count, weight or order value), its zones (per zone: a table, free_over, delivery_days, postcode exclusions) and
 * the name of a carrier rate provider; per zone of the shop, the destination rules for alcohol. Zones are named by
 * their key. Every existing method keeps its flat price (no table, no zones, no provider).
 */
export class ShippingRates1795696097429 implements MigrationInterface {
  name = 'ShippingRates1795696097429';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE shipping_methods ADD COLUMN rate_table jsonb, ADD COLUMN zones jsonb NOT NULL DEFAULT '[]', ADD COLUMN rate_provider text`);
    await q.query(`CREATE TABLE destination_rules (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3),
      key text NOT NULL,
      alcohol_shipping boolean NOT NULL DEFAULT true,
      max_litres_per_order numeric(12,3),
      max_litres_per_year numeric(12,3),
      min_age int,
      import_hash text)`);
    await q.query(`CREATE UNIQUE INDEX destination_rules_tenant_key_key ON destination_rules (tenant_id, key)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE destination_rules`);
    await q.query(`ALTER TABLE shipping_methods DROP COLUMN rate_table, DROP COLUMN zones, DROP COLUMN rate_provider`);
  }
}
