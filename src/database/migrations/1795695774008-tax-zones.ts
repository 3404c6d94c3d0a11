import { MigrationInterface, QueryRunner } from 'typeorm';

/** Zones (issue 31): countries, regions and postcode patterns; shared by taxes and shipping. */
export class TaxZones1795695774008 implements MigrationInterface {
  name = 'TaxZones1795695774008';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tax_zones (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        key text,
        name text NOT NULL,
        countries text[] NOT NULL DEFAULT '{}',
        regions text[] NOT NULL DEFAULT '{}',
        postcodes jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3)
      )`);
    await q.query(`CREATE UNIQUE INDEX tax_zones_tenant_key_key ON tax_zones (tenant_id, key) WHERE key IS NOT NULL`);
    await q.query(`CREATE INDEX tax_zones_tenant_created_idx ON tax_zones (tenant_id, created_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE tax_zones`);
  }
}
