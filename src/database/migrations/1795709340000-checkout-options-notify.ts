import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 34: the checkout flow reuses, per instance and per tenant, the shop's shipping methods, payment types and
 * shipping countries (`ShippingService` of the checkout module; they were read 15 times per order). Every write to
 * those tables notifies every instance at commit from the database itself, through `tenant_rows_changed`
 * (migration ReadPathNotify1795707000000) with the topic `checkout_options`, so no write path (the import, the
 * admin API, plain SQL; a TRUNCATE: every tenant) leaves a stale copy.
 */
export class CheckoutOptionsNotify1795709340000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    for (const table of WATCHED) {
      await q.query(`CREATE TRIGGER ${table}_read_notify AFTER INSERT OR UPDATE OR DELETE ON ${table}
        FOR EACH ROW EXECUTE FUNCTION tenant_rows_changed('checkout_options')`);
      await q.query(`CREATE TRIGGER ${table}_read_notify_truncate AFTER TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION tenant_rows_changed('checkout_options')`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of WATCHED) {
      await q.query(`DROP TRIGGER IF EXISTS ${table}_read_notify ON ${table}`);
      await q.query(`DROP TRIGGER IF EXISTS ${table}_read_notify_truncate ON ${table}`);
    }
  }
}

/** The tables whose rows `ShippingService` caches (topic `checkout_options`, `CHECKOUT_OPTIONS_CACHE_TOPIC`). */
const WATCHED = ['shipping_methods', 'payment_types', 'countries'];
