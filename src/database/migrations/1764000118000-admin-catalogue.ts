import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The admin catalogue API (issue 18): products and variants kept as archived when deleted with order history
 * (`archived_at`), and the admin product list's orders (`created desc`, `updated desc`) as index walks per shop.
 */
export class AdminCatalogue1764000118000 implements MigrationInterface {
  name = 'AdminCatalogue1764000118000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE products ADD COLUMN archived_at timestamptz(3)`);
    await q.query(`ALTER TABLE variants ADD COLUMN archived_at timestamptz(3)`);
    await q.query(`CREATE INDEX products_tenant_created_idx ON products (tenant_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX products_tenant_updated_idx ON products (tenant_id, (coalesce(updated_at, created_at)) DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS products_tenant_updated_idx`);
    await q.query(`DROP INDEX IF EXISTS products_tenant_created_idx`);
    await q.query(`ALTER TABLE variants DROP COLUMN IF EXISTS archived_at`);
    await q.query(`ALTER TABLE products DROP COLUMN IF EXISTS archived_at`);
  }
}
