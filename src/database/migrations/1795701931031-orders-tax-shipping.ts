import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Orders keep what was applied (issue 31): the tax zone and the gross price policy of a destination-taxed order, the
 * shipping zone, method and rate row that priced its shipping; the currency of a zone's excise amounts; and an index serving the destination rules' yearly
 * litres query (the buyer's orders of the calendar year by email: tenant, lower(email), placed_at; not cancelled).
 */
export class OrdersTaxShipping1795701931031 implements MigrationInterface {
  name = 'OrdersTaxShipping1795701931031';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders
      ADD COLUMN tax_zone text,
      ADD COLUMN gross_price_policy text CHECK (gross_price_policy IN ('constant', 'recompute')),
      ADD COLUMN shipping_method_id uuid,
      ADD COLUMN shipping_zone text,
      ADD COLUMN shipping_rate jsonb`);
    // the currency a zone's excise amounts are written in (issue 31: "in the zone's currency"); null: the default
    // and whether the zone's VAT is charged on the excise too (its VAT base includes the duty: EU, CH, NO, UK law)
    await q.query(`ALTER TABLE tax_zones ADD COLUMN excise_currency text CHECK (excise_currency ~ '^[A-Z]{3}$'),
      ADD COLUMN excise_in_vat_base boolean NOT NULL DEFAULT false`);
    // the VAT an order line was charged on its excise (0: none, or excise outside the VAT base)
    await q.query(`ALTER TABLE order_lines ADD COLUMN excise_tax numeric(18,4) NOT NULL DEFAULT 0`);
    await q.query(`CREATE INDEX orders_tenant_email_year_idx ON orders (tenant_id, lower(email), placed_at) WHERE cancelled_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS orders_tenant_email_year_idx`);
    await q.query(`ALTER TABLE tax_zones DROP COLUMN excise_currency, DROP COLUMN excise_in_vat_base`);
    await q.query(`ALTER TABLE order_lines DROP COLUMN excise_tax`);
    await q.query(
      `ALTER TABLE orders DROP COLUMN tax_zone, DROP COLUMN gross_price_policy, DROP COLUMN shipping_method_id, DROP COLUMN shipping_zone, DROP COLUMN shipping_rate`,
    );
  }
}
