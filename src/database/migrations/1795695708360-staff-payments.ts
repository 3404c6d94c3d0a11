import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payments after placement (issue 33): staff record money received (`manual`) or capture an authorization in parts, so
 * an order can be `partially_paid`; each payment transaction names the staff user who recorded it and a note. A
 * database check keeps what was paid within the order's total.
 */
export class StaffPayments1795695708360 implements MigrationInterface {
  name = 'StaffPayments1795695708360';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_financial_status_check`);
    await q.query(`ALTER TABLE orders
      ADD CONSTRAINT orders_financial_status_check
        CHECK (financial_status IN ('pending', 'partially_paid', 'paid', 'partially_refunded', 'refunded', 'voided')),
      ADD CONSTRAINT orders_paid_within_total CHECK (paid_amount >= 0 AND paid_amount <= total)`);
    await q.query(`ALTER TABLE order_transactions DROP CONSTRAINT IF EXISTS order_transactions_kind_check`);
    await q.query(`ALTER TABLE order_transactions
      ADD CONSTRAINT order_transactions_kind_check CHECK (kind IN ('authorization', 'capture', 'manual', 'refund', 'void')),
      ADD COLUMN recorded_by uuid,
      ADD COLUMN note text`);
    // overdue invoices: unpaid orders of a payment kind, oldest first
    await q.query(
      `CREATE INDEX orders_unpaid_kind_idx ON orders (tenant_id, payment_kind, placed_at) WHERE financial_status IN ('pending', 'partially_paid') AND cancelled_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS orders_unpaid_kind_idx`);
    await q.query(`DELETE FROM order_transactions WHERE kind = 'manual'`);
    await q.query(`ALTER TABLE order_transactions DROP CONSTRAINT order_transactions_kind_check, DROP COLUMN recorded_by, DROP COLUMN note`);
    await q.query(`ALTER TABLE order_transactions ADD CONSTRAINT order_transactions_kind_check CHECK (kind IN ('authorization', 'capture', 'refund', 'void'))`);
    await q.query(`UPDATE orders SET financial_status = 'pending' WHERE financial_status = 'partially_paid'`);
    await q.query(`ALTER TABLE orders DROP CONSTRAINT orders_paid_within_total, DROP CONSTRAINT orders_financial_status_check`);
    await q.query(
      `ALTER TABLE orders ADD CONSTRAINT orders_financial_status_check CHECK (financial_status IN ('pending', 'paid', 'partially_refunded', 'refunded', 'voided'))`,
    );
  }
}
