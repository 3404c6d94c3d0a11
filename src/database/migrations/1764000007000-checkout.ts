import { MigrationInterface, QueryRunner } from 'typeorm';

const base = `
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3)`;

/**
 * Checkout and orders (issue 7): checkouts with their own lines (priced at every read), orders with lines priced as
 * charged (never rewritten), the per-shop order counter (one row per shop, locked by the placing transaction, so
 * numbers are gapless), and the idempotency keys of retried POSTs.
 */
export class Checkout1764000007000 implements MigrationInterface {
  name = 'Checkout1764000007000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE checkouts (${base},
      visitor_id text,
      customer_id uuid REFERENCES customers(id) ON DELETE SET NULL,
      currency_id uuid NOT NULL REFERENCES currencies(id) ON DELETE CASCADE,
      language text NOT NULL DEFAULT 'en',
      status text NOT NULL DEFAULT 'Checkout',
      email text,
      note text,
      comments text,
      shipping_address jsonb,
      billing_address jsonb,
      billing_same_as_shipping boolean NOT NULL DEFAULT true,
      shipping_method_id uuid REFERENCES shipping_methods(id) ON DELETE SET NULL,
      payment_type_id uuid REFERENCES payment_types(id) ON DELETE SET NULL,
      discount_code text,
      order_id uuid,
      completed_at timestamptz(3))`);
    await q.query(`CREATE INDEX checkouts_tenant_created_idx ON checkouts (tenant_id, created_at DESC, id DESC)`);

    await q.query(`CREATE TABLE checkout_lines (${base},
      checkout_id uuid NOT NULL REFERENCES checkouts(id) ON DELETE CASCADE,
      variant_id uuid REFERENCES variants(id) ON DELETE SET NULL,
      product_id uuid REFERENCES products(id) ON DELETE SET NULL,
      quantity numeric(14,3) NOT NULL CHECK (quantity > 0),
      position int NOT NULL)`);
    await q.query(`CREATE INDEX checkout_lines_tenant_checkout_idx ON checkout_lines (tenant_id, checkout_id, position)`);

    // money: decimals in the order's own currency, exactly as charged
    await q.query(`CREATE TABLE orders (${base},
      checkout_id uuid UNIQUE REFERENCES checkouts(id) ON DELETE SET NULL,
      customer_id uuid REFERENCES customers(id) ON DELETE SET NULL,
      number bigint NOT NULL,
      hash text NOT NULL,
      status text NOT NULL DEFAULT 'Open',
      payment_status text NOT NULL DEFAULT 'pending',
      payment_type_id uuid,
      payment_type_name text,
      payment_kind text,
      payment_provider text,
      payment_reference text,
      return_url text,
      currency_code text NOT NULL,
      currency_precision smallint NOT NULL DEFAULT 2,
      price_includes_tax boolean NOT NULL,
      subtotal numeric(18,4) NOT NULL,
      discount numeric(18,4) NOT NULL DEFAULT 0,
      discount_code text,
      coupon_text text,
      shipping_amount numeric(18,4) NOT NULL DEFAULT 0,
      shipping_tax_rate numeric(6,3) NOT NULL DEFAULT 0,
      shipping_method_name text,
      tax_amount numeric(18,4) NOT NULL DEFAULT 0,
      tax_lines jsonb NOT NULL DEFAULT '[]',
      total numeric(18,4) NOT NULL,
      email text,
      comments text,
      language text NOT NULL DEFAULT 'en',
      shipping_address jsonb,
      billing_address jsonb,
      tracking_url text,
      shipped_at timestamptz(3),
      paid_at timestamptz(3),
      placed_at timestamptz(3) NOT NULL DEFAULT now())`);
    await q.query(`CREATE UNIQUE INDEX orders_tenant_number_key ON orders (tenant_id, number)`);
    await q.query(`CREATE INDEX orders_tenant_customer_idx ON orders (tenant_id, customer_id, placed_at DESC, id DESC) WHERE customer_id IS NOT NULL`);

    await q.query(`CREATE TABLE order_lines (${base},
      order_id uuid NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
      position int NOT NULL,
      variant_id uuid REFERENCES variants(id) ON DELETE SET NULL,
      product_id uuid REFERENCES products(id) ON DELETE SET NULL,
      title text,
      sku text,
      description text,
      image_url text,
      quantity numeric(14,3) NOT NULL,
      tax_rate numeric(6,3) NOT NULL DEFAULT 0,
      unit_price numeric(18,4) NOT NULL,
      unit_price_with_tax numeric(18,4) NOT NULL,
      line_total numeric(18,4) NOT NULL,
      line_total_with_tax numeric(18,4) NOT NULL)`);
    await q.query(`CREATE INDEX order_lines_tenant_order_idx ON order_lines (tenant_id, order_id, position)`);

    // one row per shop; the placing transaction increments it under its row lock, so a rolled-back order frees its number
    await q.query(`CREATE TABLE order_counters (
      tenant_id uuid PRIMARY KEY REFERENCES tenants(id) ON DELETE CASCADE,
      last_number bigint NOT NULL)`);

    // Idempotency-Key of retried POSTs: per tenant and caller, kept 24 h
    await q.query(`CREATE TABLE idempotency_keys (
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      caller text NOT NULL,
      key text NOT NULL,
      request_hash text NOT NULL,
      state text NOT NULL CHECK (state IN ('in_progress', 'done')),
      response jsonb,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, caller, key))`);
    await q.query(`CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['idempotency_keys', 'order_counters', 'order_lines', 'orders', 'checkout_lines', 'checkouts']) await q.query(`DROP TABLE IF EXISTS ${t}`);
  }
}
