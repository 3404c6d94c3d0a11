import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Catalogue sale prices and price history (issue 32), and the import keys of promotions and customer groups.
 *
 * `variant_sale_prices`: the storefront price of a variant while a catalogue promotion reduces it (gross, default
 * currency, 4 decimals), with the promotions that made it; written by the catalogue's search-row refresh from the
 * `CataloguePriceRule` extension point (the promotions module), read into `variant_search.gross`.
 *
 * `variant_price_history`: every charged price a variant had (the effective gross: a sale price while there is one,
 * else the regular price), one row per period `[valid_from, valid_to)`, the current one open (`valid_to` null). Written
 * by the same refresh whenever the charged price changes (import, admin edit, a promotion starting or ending), read for
 * the EU Omnibus `lowest_price_30_days`. Kept when a variant is deleted (no foreign key): it is a record.
 */
export class CatalogueSalePrices1795700100000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE variant_sale_prices (
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        variant_id uuid NOT NULL,
        product_id uuid NOT NULL,
        gross numeric(14,4) NOT NULL CHECK (gross >= 0),
        promotion_ids uuid[] NOT NULL DEFAULT '{}',
        PRIMARY KEY (tenant_id, variant_id),
        FOREIGN KEY (tenant_id, variant_id) REFERENCES variants (tenant_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX variant_sale_prices_product_idx ON variant_sale_prices (tenant_id, product_id)`);
    await q.query(`
      CREATE TABLE variant_price_history (
        id bigserial,
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        variant_id uuid NOT NULL,
        gross numeric(14,4) NOT NULL,
        regular_gross numeric(14,4) NOT NULL,
        valid_from timestamptz(3) NOT NULL,
        valid_to timestamptz(3),
        PRIMARY KEY (tenant_id, id),
        CHECK (valid_to IS NULL OR valid_to >= valid_from)
      )`);
    await q.query(`CREATE INDEX variant_price_history_variant_idx ON variant_price_history (tenant_id, variant_id, valid_from)`);
    await q.query(`CREATE UNIQUE INDEX variant_price_history_open_key ON variant_price_history (tenant_id, variant_id) WHERE valid_to IS NULL`);
    // promotions and customer groups carry an import key (CONTRACT 6: upsert by key; export writes it)
    await q.query(`ALTER TABLE promotions ADD COLUMN key text`);
    await q.query(`CREATE UNIQUE INDEX promotions_tenant_key_key ON promotions (tenant_id, key) WHERE key IS NOT NULL`);
    await q.query(`ALTER TABLE customer_groups ADD COLUMN key text`);
    await q.query(`CREATE UNIQUE INDEX customer_groups_tenant_key_key ON customer_groups (tenant_id, key) WHERE key IS NOT NULL`);
    // what every variant costs now, since it was created (the history starts with the data there is)
    await q.query(`INSERT INTO variant_price_history (tenant_id, variant_id, gross, regular_gross, valid_from)
      SELECT v.tenant_id, v.id, v.gross, v.gross, v.created_at FROM variants v`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE customer_groups DROP COLUMN key`);
    await q.query(`ALTER TABLE promotions DROP COLUMN key`);
    await q.query(`DROP TABLE variant_price_history`);
    await q.query(`DROP TABLE variant_sale_prices`);
  }
}
