import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Promotions on orders (issue 32): what each order and line got from promotions (kept as charged, for the receipt,
 * the admin order and refunds), and one usage row per order and promotion (`usage_limit_per_customer` counts them
 * by buyer: the customer id, else the lower-cased email). Cart lines look up their product's manual collections.
 */
export class PromotionUsages1795701000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders ADD COLUMN promotions jsonb NOT NULL DEFAULT '[]', ADD COLUMN promotion_discount numeric(18,4) NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE order_lines ADD COLUMN promotions jsonb NOT NULL DEFAULT '[]', ADD COLUMN promotion_discount numeric(18,4) NOT NULL DEFAULT 0`);
    await q.query(`
      CREATE TABLE promotion_usages (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        promotion_id uuid NOT NULL,
        order_id uuid NOT NULL,
        buyer text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, id)
      )`);
    await q.query(`CREATE INDEX promotion_usages_buyer_idx ON promotion_usages (tenant_id, promotion_id, buyer)`);
    await q.query(`CREATE INDEX promotion_usages_order_idx ON promotion_usages (tenant_id, order_id)`);
    await q.query(`CREATE INDEX IF NOT EXISTS collection_products_tenant_product_idx ON collection_products (tenant_id, product_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS collection_products_tenant_product_idx`);
    await q.query(`DROP TABLE promotion_usages`);
    await q.query(`ALTER TABLE order_lines DROP COLUMN promotions, DROP COLUMN promotion_discount`);
    await q.query(`ALTER TABLE orders DROP COLUMN promotions, DROP COLUMN promotion_discount`);
  }
}
