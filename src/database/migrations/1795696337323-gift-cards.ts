import { MigrationInterface, QueryRunner } from 'typeorm';

const base = `
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3),
  PRIMARY KEY (tenant_id, id)`;

/**
 * Gift cards and store credit (issue 33): accounts of one append-only ledger. A balance is the sum of its account's
 * `balance_transactions` (no stored balance to drift); rows are never updated (a trigger refuses it). A gift card's
 * code is stored as a keyed hash, like tokens. Checkouts list the accounts applied to them; orders remember what
 * was paid from balances, so refunds return that part to them.
 */
export class GiftCards1795696337323 implements MigrationInterface {
  name = 'GiftCards1795696337323';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE balance_accounts (${base},
      kind text NOT NULL CHECK (kind IN ('gift_card', 'store_credit')),
      code_hash bytea,
      last_characters text,
      currency_code text NOT NULL,
      initial_value numeric(18,4) NOT NULL DEFAULT 0,
      customer_id uuid,
      expires_at timestamptz(3),
      note text,
      disabled_at timestamptz(3),
      CHECK ((kind = 'gift_card') = (code_hash IS NOT NULL)),
      CHECK (kind = 'gift_card' OR customer_id IS NOT NULL))`);
    await q.query(`CREATE UNIQUE INDEX balance_accounts_code_idx ON balance_accounts (tenant_id, code_hash) WHERE code_hash IS NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX balance_accounts_credit_idx ON balance_accounts (tenant_id, customer_id, currency_code) WHERE kind = 'store_credit'`);
    await q.query(`CREATE INDEX balance_accounts_list_idx ON balance_accounts (tenant_id, kind, created_at DESC, id DESC)`);

    await q.query(`CREATE TABLE balance_transactions (${base},
      account_id uuid NOT NULL,
      amount numeric(18,4) NOT NULL CHECK (amount <> 0),
      currency_code text NOT NULL,
      order_id uuid,
      kind text NOT NULL CHECK (kind IN ('issue', 'redeem', 'refund', 'expire', 'adjust')),
      staff_id uuid,
      note text,
      FOREIGN KEY (tenant_id, account_id) REFERENCES balance_accounts (tenant_id, id) ON DELETE CASCADE)`);
    await q.query(`CREATE INDEX balance_transactions_account_idx ON balance_transactions (tenant_id, account_id, created_at, id)`);
    await q.query(`CREATE INDEX balance_transactions_order_idx ON balance_transactions (tenant_id, order_id) WHERE order_id IS NOT NULL`);
    // append-only: a correction is a new row
    await q.query(`CREATE FUNCTION balance_transactions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'balance_transactions is append-only';
END $$`);
    await q.query(
      `CREATE TRIGGER balance_transactions_no_update BEFORE UPDATE ON balance_transactions FOR EACH ROW EXECUTE FUNCTION balance_transactions_append_only()`,
    );

    await q.query(`CREATE TABLE checkout_balance_accounts (
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      checkout_id uuid NOT NULL,
      account_id uuid NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
      PRIMARY KEY (tenant_id, checkout_id, account_id),
      FOREIGN KEY (tenant_id, checkout_id) REFERENCES checkouts (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, account_id) REFERENCES balance_accounts (tenant_id, id) ON DELETE CASCADE)`);

    // what an order was paid from gift cards and store credit, and what of that went back
    await q.query(`ALTER TABLE orders ADD COLUMN balance_paid numeric(18,4) NOT NULL DEFAULT 0, ADD COLUMN balance_refunded numeric(18,4) NOT NULL DEFAULT 0`);
    for (const action of ['read', 'write']) {
      await q.query(
        `UPDATE staff_users SET permissions = permissions || ARRAY['Shop/gift_cards/${action}'] WHERE is_owner AND NOT ('Shop/gift_cards/${action}' = ANY(permissions))`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE staff_users SET permissions = array_remove(array_remove(permissions, 'Shop/gift_cards/read'), 'Shop/gift_cards/write')`);
    await q.query(`ALTER TABLE orders DROP COLUMN balance_paid, DROP COLUMN balance_refunded`);
    for (const t of ['checkout_balance_accounts', 'balance_transactions', 'balance_accounts']) await q.query(`DROP TABLE IF EXISTS ${t}`);
    await q.query(`DROP FUNCTION IF EXISTS balance_transactions_append_only()`);
  }
}
