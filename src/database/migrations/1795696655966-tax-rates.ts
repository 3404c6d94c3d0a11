import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Taxes by destination (issue 31): tax categories (with their excise class), rates per category x zone with a
 * validity period and an excise amount per hectolitre, the shop's tax settings, each variant's category and volume,
 * and what an order line was charged (category, zone, excise).
 */
export class TaxRates1795696655966 implements MigrationInterface {
  name = 'TaxRates1795696655966';

  async up(q: QueryRunner): Promise<void> {
    // every key leads with tenant_id (the sharding path, migration 1764000099000), tax_zones' too
    await q.query(`ALTER TABLE tax_zones DROP CONSTRAINT tax_zones_pkey, ADD PRIMARY KEY (tenant_id, id)`);
    const base = `id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3),
        PRIMARY KEY (tenant_id, id)`;
    await q.query(`
      CREATE TABLE tax_categories (${base},
        key text NOT NULL,
        name text NOT NULL,
        excise_class text CHECK (excise_class IN ('still', 'sparkling', 'intermediate', 'spirits')))`);
    await q.query(`CREATE UNIQUE INDEX tax_categories_tenant_key_key ON tax_categories (tenant_id, key)`);
    await q.query(`CREATE INDEX tax_categories_tenant_created_idx ON tax_categories (tenant_id, created_at, id)`);

    await q.query(`
      CREATE TABLE tax_rates (${base},
        category_id uuid NOT NULL,
        zone_id uuid NOT NULL,
        rate numeric(6,3) NOT NULL CHECK (rate >= 0 AND rate <= 100),
        excise_per_hl numeric(14,4) NOT NULL DEFAULT 0 CHECK (excise_per_hl >= 0),
        valid_from date,
        valid_to date,
        CHECK (valid_from IS NULL OR valid_to IS NULL OR valid_from <= valid_to),
        FOREIGN KEY (tenant_id, category_id) REFERENCES tax_categories (tenant_id, id) ON DELETE CASCADE,
        FOREIGN KEY (tenant_id, zone_id) REFERENCES tax_zones (tenant_id, id) ON DELETE CASCADE)`);
    await q.query(`CREATE INDEX tax_rates_tenant_created_idx ON tax_rates (tenant_id, created_at, id)`);
    await q.query(`CREATE INDEX tax_rates_tenant_category_zone_idx ON tax_rates (tenant_id, category_id, zone_id)`);

    await q.query(`
      CREATE TABLE tax_settings (
        tenant_id uuid PRIMARY KEY REFERENCES tenants(id) ON DELETE CASCADE,
        mode text NOT NULL DEFAULT 'origin' CHECK (mode IN ('origin', 'destination')),
        gross_price_policy text NOT NULL DEFAULT 'constant' CHECK (gross_price_policy IN ('constant', 'recompute')),
        excise_display text NOT NULL DEFAULT 'included' CHECK (excise_display IN ('included', 'separate')),
        updated_at timestamptz(3))`);

    await q.query(`
      CREATE TABLE tax_variants (
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        variant_id uuid NOT NULL,
        category_id uuid,
        volume_ml numeric(10,1) CHECK (volume_ml IS NULL OR volume_ml > 0),
        PRIMARY KEY (tenant_id, variant_id),
        FOREIGN KEY (tenant_id, variant_id) REFERENCES variants (tenant_id, id) ON DELETE CASCADE,
        FOREIGN KEY (tenant_id, category_id) REFERENCES tax_categories (tenant_id, id) ON DELETE SET NULL (category_id))`);

    await q.query(`ALTER TABLE order_lines
      ADD COLUMN tax_category text,
      ADD COLUMN tax_zone text,
      ADD COLUMN excise_amount numeric(18,4) NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE order_lines DROP COLUMN tax_category, DROP COLUMN tax_zone, DROP COLUMN excise_amount`);
    for (const t of ['tax_variants', 'tax_settings', 'tax_rates', 'tax_categories']) await q.query(`DROP TABLE IF EXISTS ${t}`);
    await q.query(`ALTER TABLE tax_zones DROP CONSTRAINT tax_zones_pkey, ADD PRIMARY KEY (id)`);
  }
}
