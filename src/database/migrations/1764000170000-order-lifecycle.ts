import { MigrationInterface, QueryRunner } from 'typeorm';

const base = `
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3),
  PRIMARY KEY (tenant_id, id)`;

/**
 * The order lifecycle for staff (issue 17): financial and fulfillment status, cancellation, notes and tags on orders;
 * per-line fulfilled, refunded and restocked quantities; refunds, fulfillments and payment transactions. Money is
 * numeric in the order's own currency, as charged. Keys and foreign keys go through `(tenant_id, id)` like every
 * table since the tenant-keys migration.
 */
export class OrderLifecycle1764000170000 implements MigrationInterface {
  name = 'OrderLifecycle1764000170000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders
      ADD COLUMN financial_status text NOT NULL DEFAULT 'pending'
        CHECK (financial_status IN ('pending', 'paid', 'partially_refunded', 'refunded', 'voided')),
      ADD COLUMN fulfillment_status text NOT NULL DEFAULT 'unfulfilled' CHECK (fulfillment_status IN ('unfulfilled', 'partial', 'fulfilled')),
      ADD COLUMN paid_amount numeric(18,4) NOT NULL DEFAULT 0,
      ADD COLUMN refunded_amount numeric(18,4) NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0),
      ADD COLUMN refunded_shipping numeric(18,4) NOT NULL DEFAULT 0,
      ADD COLUMN cancelled_at timestamptz(3),
      ADD COLUMN cancel_reason text,
      ADD COLUMN note text,
      ADD COLUMN tags text[] NOT NULL DEFAULT '{}',
      ADD COLUMN payment_expires_at timestamptz(3),
      ADD CONSTRAINT orders_refund_within_paid CHECK (refunded_amount <= paid_amount)`);
    // orders paid before this migration: their capture is the total
    await q.query(`UPDATE orders SET financial_status = 'paid', paid_amount = total WHERE payment_status = 'paid'`);
    await q.query(`UPDATE orders SET financial_status = 'voided' WHERE payment_status = 'cancelled'`);
    await q.query(`UPDATE orders SET fulfillment_status = 'fulfilled' WHERE status = 'Shipped'`);
    // the new scopes: owners hold every permission; staff who could read or write orders through checkouts keep that
    for (const action of ['read', 'write']) {
      await q.query(
        `UPDATE staff_users SET permissions = permissions || ARRAY['Shop/orders/${action}'] WHERE (is_owner OR 'Shop/checkouts/${action}' = ANY(permissions)) AND NOT ('Shop/orders/${action}' = ANY(permissions))`,
      );
    }

    // GET /admin/orders: newest first, and its filters
    await q.query(`CREATE INDEX orders_tenant_created_idx ON orders (tenant_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX orders_tenant_financial_idx ON orders (tenant_id, financial_status, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX orders_tenant_email_idx ON orders (tenant_id, lower(email) text_pattern_ops)`);
    // the payment-expiry job looks across shops for redirect payments past their deadline (a small partial index)
    await q.query(
      `CREATE INDEX orders_payment_expiry_idx ON orders (payment_expires_at, tenant_id) WHERE financial_status = 'pending' AND cancelled_at IS NULL AND payment_expires_at IS NOT NULL`,
    );

    await q.query(`ALTER TABLE order_lines
      ADD COLUMN fulfilled_quantity numeric(14,3) NOT NULL DEFAULT 0,
      ADD COLUMN refunded_quantity numeric(14,3) NOT NULL DEFAULT 0,
      ADD COLUMN restocked_quantity numeric(14,3) NOT NULL DEFAULT 0,
      ADD CONSTRAINT order_lines_fulfilled_within CHECK (fulfilled_quantity >= 0 AND fulfilled_quantity <= quantity),
      ADD CONSTRAINT order_lines_refunded_within CHECK (refunded_quantity >= 0 AND refunded_quantity <= quantity),
      ADD CONSTRAINT order_lines_restocked_within CHECK (restocked_quantity >= 0 AND restocked_quantity <= quantity)`);
    // orders shipped before this migration shipped every line
    await q.query(
      `UPDATE order_lines l SET fulfilled_quantity = l.quantity FROM orders o WHERE o.tenant_id = l.tenant_id AND o.id = l.order_id AND o.status = 'Shipped'`,
    );

    await q.query(`CREATE TABLE order_refunds (${base},
      order_id uuid NOT NULL,
      amount numeric(18,4) NOT NULL CHECK (amount > 0),
      shipping numeric(18,4) NOT NULL DEFAULT 0,
      lines jsonb NOT NULL DEFAULT '[]',
      note text,
      FOREIGN KEY (tenant_id, order_id) REFERENCES orders (tenant_id, id) ON DELETE CASCADE)`);
    await q.query(`CREATE INDEX order_refunds_tenant_order_idx ON order_refunds (tenant_id, order_id, created_at)`);

    await q.query(`CREATE TABLE order_fulfillments (${base},
      order_id uuid NOT NULL,
      lines jsonb NOT NULL DEFAULT '[]',
      tracking_number text,
      tracking_url text,
      carrier text,
      notify_customer boolean NOT NULL DEFAULT false,
      FOREIGN KEY (tenant_id, order_id) REFERENCES orders (tenant_id, id) ON DELETE CASCADE)`);
    await q.query(`CREATE INDEX order_fulfillments_tenant_order_idx ON order_fulfillments (tenant_id, order_id, created_at)`);

    await q.query(`CREATE TABLE order_transactions (${base},
      order_id uuid NOT NULL,
      kind text NOT NULL CHECK (kind IN ('authorization', 'capture', 'refund', 'void')),
      amount numeric(18,4) NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
      provider text,
      reference text,
      refund_id uuid,
      FOREIGN KEY (tenant_id, order_id) REFERENCES orders (tenant_id, id) ON DELETE CASCADE)`);
    await q.query(`CREATE INDEX order_transactions_tenant_order_idx ON order_transactions (tenant_id, order_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE staff_users SET permissions = array_remove(array_remove(permissions, 'Shop/orders/read'), 'Shop/orders/write')`);
    for (const t of ['order_transactions', 'order_fulfillments', 'order_refunds']) await q.query(`DROP TABLE IF EXISTS ${t}`);
    await q.query(`ALTER TABLE order_lines DROP CONSTRAINT order_lines_fulfilled_within, DROP CONSTRAINT order_lines_refunded_within, DROP CONSTRAINT order_lines_restocked_within,
      DROP COLUMN fulfilled_quantity, DROP COLUMN refunded_quantity, DROP COLUMN restocked_quantity`);
    for (const i of ['orders_tenant_created_idx', 'orders_tenant_financial_idx', 'orders_tenant_email_idx', 'orders_payment_expiry_idx'])
      await q.query(`DROP INDEX IF EXISTS ${i}`);
    await q.query(`ALTER TABLE orders DROP CONSTRAINT orders_refund_within_paid,
      DROP COLUMN financial_status, DROP COLUMN fulfillment_status, DROP COLUMN paid_amount, DROP COLUMN refunded_amount, DROP COLUMN refunded_shipping,
      DROP COLUMN cancelled_at, DROP COLUMN cancel_reason, DROP COLUMN note, DROP COLUMN tags, DROP COLUMN payment_expires_at`);
  }
}
