import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 32: which promotions the buyer's last read of an open checkout showed (ids, sorted), so a completion that
 * would drop one of them (used up, ended, no longer applying) is refused with 422 instead of placing the order at a
 * total the buyer was not shown. Null: nothing recorded (no promotion shown, or a checkout older than this column).
 */
export class CheckoutShownPromotions1795709500000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE checkouts ADD COLUMN shown_promotion_ids uuid[]`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE checkouts DROP COLUMN shown_promotion_ids`);
  }
}
