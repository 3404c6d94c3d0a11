import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Storefront cart and wishlist (issue 6). Both belong to an owner: an anonymous visitor (`visitor_id`, the cookie)
 * or a signed-in shopper (`customer_id`); sign-in moves a visitor's rows to the shopper. A visitor row has
 * `customer_id` NULL, so each kind of owner has its own partial unique index (and the cart upsert its conflict target).
 */
export class CartWishlist1764000005000 implements MigrationInterface {
  name = 'CartWishlist1764000005000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE carts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        visitor_id text,
        customer_id uuid REFERENCES customers(id) ON DELETE CASCADE,
        currency_id uuid REFERENCES currencies(id) ON DELETE SET NULL,
        discount_code text,
        discount_code_error text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3),
        CONSTRAINT carts_owner_check CHECK (visitor_id IS NOT NULL OR customer_id IS NOT NULL)
      )`);
    await q.query(`CREATE UNIQUE INDEX carts_tenant_visitor_key ON carts (tenant_id, visitor_id) WHERE customer_id IS NULL`);
    await q.query(`CREATE UNIQUE INDEX carts_tenant_customer_key ON carts (tenant_id, customer_id) WHERE customer_id IS NOT NULL`);

    await q.query(`
      CREATE TABLE cart_items (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        cart_id uuid NOT NULL REFERENCES carts(id) ON DELETE CASCADE,
        variant_id uuid NOT NULL REFERENCES variants(id) ON DELETE CASCADE,
        quantity numeric(14,3) NOT NULL CHECK (quantity > 0),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3),
        CONSTRAINT cart_items_cart_variant_key UNIQUE (cart_id, variant_id)
      )`);
    await q.query(`CREATE INDEX cart_items_tenant_variant_idx ON cart_items (tenant_id, variant_id)`);

    await q.query(`
      CREATE TABLE wishlist_items (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        visitor_id text,
        customer_id uuid REFERENCES customers(id) ON DELETE CASCADE,
        product_id uuid NOT NULL REFERENCES products(id) ON DELETE CASCADE,
        added_at timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3),
        CONSTRAINT wishlist_items_owner_check CHECK (visitor_id IS NOT NULL OR customer_id IS NOT NULL)
      )`);
    await q.query(
      `CREATE UNIQUE INDEX wishlist_items_tenant_visitor_product_key ON wishlist_items (tenant_id, visitor_id, product_id) WHERE customer_id IS NULL`,
    );
    await q.query(
      `CREATE UNIQUE INDEX wishlist_items_tenant_customer_product_key ON wishlist_items (tenant_id, customer_id, product_id) WHERE customer_id IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX wishlist_items_tenant_visitor_added_idx ON wishlist_items (tenant_id, visitor_id, added_at DESC, id DESC) WHERE customer_id IS NULL`,
    );
    await q.query(
      `CREATE INDEX wishlist_items_tenant_customer_added_idx ON wishlist_items (tenant_id, customer_id, added_at DESC, id DESC) WHERE customer_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS wishlist_items`);
    await q.query(`DROP TABLE IF EXISTS cart_items`);
    await q.query(`DROP TABLE IF EXISTS carts`);
  }
}
