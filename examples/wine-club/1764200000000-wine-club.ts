import { MigrationInterface, QueryRunner } from 'typeorm';

/** The wine-club extension's own tables; it runs after the service's migrations (a later timestamp). */
export class WineClub1764200000000 implements MigrationInterface {
  name = 'WineClub1764200000000';

  async up(q: QueryRunner): Promise<void> {
    // club prices: one per variant, gross in the shop's default currency
    await q.query(`
      CREATE TABLE wine_club_prices (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        variant_id uuid NOT NULL,
        product_id uuid NOT NULL,
        price numeric(14,4) NOT NULL CHECK (price >= 0),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3),
        PRIMARY KEY (tenant_id, id),
        FOREIGN KEY (tenant_id, variant_id) REFERENCES variants(tenant_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE UNIQUE INDEX wine_club_prices_tenant_variant_key ON wine_club_prices (tenant_id, variant_id)`);
    await q.query(`CREATE INDEX wine_club_prices_tenant_list_idx ON wine_club_prices (tenant_id, created_at, id)`);
    // members: customers of the shop, with the bottles of their monthly allocation
    await q.query(`
      CREATE TABLE wine_club_members (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        customer_id uuid NOT NULL,
        bottles_per_month integer NOT NULL CHECK (bottles_per_month BETWEEN 1 AND 24),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3),
        PRIMARY KEY (tenant_id, id),
        FOREIGN KEY (tenant_id, customer_id) REFERENCES customers(tenant_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE UNIQUE INDEX wine_club_members_tenant_customer_key ON wine_club_members (tenant_id, customer_id)`);
    await q.query(`CREATE INDEX wine_club_members_tenant_list_idx ON wine_club_members (tenant_id, created_at, id)`);
    // one allocation per member and month (the job is idempotent by this key)
    await q.query(`
      CREATE TABLE wine_club_allocations (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        customer_id uuid NOT NULL,
        month text NOT NULL CHECK (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
        bottles integer NOT NULL CHECK (bottles > 0),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3),
        PRIMARY KEY (tenant_id, id),
        FOREIGN KEY (tenant_id, customer_id) REFERENCES customers(tenant_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE UNIQUE INDEX wine_club_allocations_tenant_customer_month_key ON wine_club_allocations (tenant_id, customer_id, month)`);
    await q.query(`CREATE INDEX wine_club_allocations_tenant_month_idx ON wine_club_allocations (tenant_id, month, created_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS wine_club_allocations`);
    await q.query(`DROP TABLE IF EXISTS wine_club_members`);
    await q.query(`DROP TABLE IF EXISTS wine_club_prices`);
  }
}
