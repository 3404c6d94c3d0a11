import { MigrationInterface, QueryRunner } from 'typeorm';

/** The loyalty-points extension's own table; it runs after the service's migrations (a later timestamp). */
export class LoyaltyPoints1764100000000 implements MigrationInterface {
  name = 'LoyaltyPoints1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE loyalty_point_entries (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        customer_id uuid NOT NULL,
        order_id text NOT NULL,
        points integer NOT NULL CHECK (points > 0),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3),
        PRIMARY KEY (tenant_id, id),
        FOREIGN KEY (tenant_id, customer_id) REFERENCES customers(tenant_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE UNIQUE INDEX loyalty_point_entries_tenant_order_key ON loyalty_point_entries (tenant_id, order_id)`);
    await q.query(`CREATE INDEX loyalty_point_entries_tenant_customer_idx ON loyalty_point_entries (tenant_id, customer_id, created_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS loyalty_point_entries`);
  }
}
