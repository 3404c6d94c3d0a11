import { MigrationInterface, QueryRunner } from 'typeorm';

const base = `
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3),
  PRIMARY KEY (tenant_id, id)`;

/**
 * Returns (RMA) and claims (issue 33): a return moves requested → (approved) → received → refunded, or rejected;
 * its lines record what was asked back, received undamaged (restocked at a location) and damaged. A claim refunds
 * without a return, or ships a zero-priced replacement order linked to the original.
 */
export class Returns1795698104874 implements MigrationInterface {
  name = 'Returns1795698104874';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE order_returns (${base},
      order_id uuid NOT NULL,
      status text NOT NULL CHECK (status IN ('requested', 'approved', 'received', 'refunded', 'rejected')),
      requested_by text NOT NULL CHECK (requested_by IN ('staff', 'customer')),
      lines jsonb NOT NULL,
      note text,
      rejected_reason text,
      shipping_fee numeric(18,4) NOT NULL DEFAULT 0,
      refund_to text CHECK (refund_to IN ('original', 'store_credit')),
      refunded_amount numeric(18,4) NOT NULL DEFAULT 0,
      refund_id uuid,
      received_at timestamptz(3),
      refunded_at timestamptz(3),
      FOREIGN KEY (tenant_id, order_id) REFERENCES orders (tenant_id, id) ON DELETE CASCADE)`);
    await q.query(`CREATE INDEX order_returns_order_idx ON order_returns (tenant_id, order_id, created_at)`);
    await q.query(`CREATE TABLE order_claims (${base},
      order_id uuid NOT NULL,
      type text NOT NULL CHECK (type IN ('replace', 'refund')),
      lines jsonb NOT NULL,
      reason text,
      note text,
      refund_id uuid,
      replacement_order_id uuid,
      FOREIGN KEY (tenant_id, order_id) REFERENCES orders (tenant_id, id) ON DELETE CASCADE)`);
    await q.query(`CREATE INDEX order_claims_order_idx ON order_claims (tenant_id, order_id, created_at)`);
    // a claim's zero-priced replacement order names the order it replaces
    await q.query(`ALTER TABLE orders ADD COLUMN replacement_for uuid`);
    for (const action of ['read', 'write']) {
      await q.query(
        `UPDATE staff_users SET permissions = permissions || ARRAY['Shop/returns/${action}'] WHERE is_owner AND NOT ('Shop/returns/${action}' = ANY(permissions))`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE staff_users SET permissions = array_remove(array_remove(permissions, 'Shop/returns/read'), 'Shop/returns/write')`);
    await q.query(`ALTER TABLE orders DROP COLUMN replacement_for`);
    await q.query(`DROP TABLE IF EXISTS order_claims`);
    await q.query(`DROP TABLE IF EXISTS order_returns`);
  }
}
