import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Gift cards sold as products (issue 33): a variant flagged `gift_card`; the card its purchase issues names the
 * order line and unit it was bought as (unique: one card per unit, however often the `order.paid` handler runs) and
 * when its code was mailed.
 */
export class GiftCardSales1795706058710 implements MigrationInterface {
  name = 'GiftCardSales1795706058710';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE variants ADD COLUMN gift_card boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE balance_accounts ADD COLUMN order_line_id uuid, ADD COLUMN order_unit int, ADD COLUMN mailed_at timestamptz(3),
      ADD CHECK ((order_line_id IS NULL) = (order_unit IS NULL))`);
    await q.query(`CREATE UNIQUE INDEX balance_accounts_sold_unit ON balance_accounts (tenant_id, order_line_id, order_unit) WHERE order_line_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX balance_accounts_sold_unit`);
    await q.query(`ALTER TABLE balance_accounts DROP COLUMN order_line_id, DROP COLUMN order_unit, DROP COLUMN mailed_at`);
    await q.query(`ALTER TABLE variants DROP COLUMN gift_card`);
  }
}
