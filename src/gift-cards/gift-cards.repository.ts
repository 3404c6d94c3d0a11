import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { BalanceAccount } from './entities/balance-account.entity.js';
import { returning } from '../common/db/returning.js';
import type { LedgerKind } from './ledger.js';
import { prepared } from '../database/prepared-statements.js';

/** An account with its balance (decimal string: the sum of its ledger rows). */
export interface AccountRow {
  id: string;
  kind: 'gift_card' | 'store_credit';
  last_characters: string | null;
  currency_code: string;
  initial_value: string;
  customer_id: string | null;
  expires_at: Date | null;
  note: string | null;
  disabled_at: Date | null;
  created_at: Date;
  updated_at: Date | null;
  balance: string;
}

export interface LedgerTransactionRow {
  id: string;
  account_id: string;
  amount: string;
  currency_code: string;
  order_id: string | null;
  kind: LedgerKind;
  staff_id: string | null;
  note: string | null;
  created_at: Date;
}

/** A card sold as a product (the order line and unit it was bought as). */
export interface SoldCardRow {
  id: string;
  order_line_id: string;
  order_unit: number;
  currency_code: string;
  initial_value: string;
}

export interface NewAccount {
  kind: 'gift_card' | 'store_credit';
  codeHash: Buffer | null;
  lastCharacters: string | null;
  currency: string;
  initialValue: string;
  customerId: string | null;
  expiresAt: Date | null;
  note: string | null;
}

export interface NewLedgerRow {
  accountId: string;
  /** Decimal string; negative takes money off. */
  amount: string;
  currency: string;
  orderId: string | null;
  kind: LedgerKind;
  staffId: string | null;
  note: string | null;
}

const ACCOUNT = `a.id, a.kind, a.last_characters, a.currency_code, a.initial_value, a.customer_id, a.expires_at, a.note, a.disabled_at, a.created_at, a.updated_at,
  COALESCE((SELECT sum(t.amount) FROM balance_transactions t WHERE t.tenant_id = a.tenant_id AND t.account_id = a.id), 0)::text AS balance`;

/** An applied account as `appliedAccountsJsonSql` gives it: `AccountRow` with its times as ISO text. */
export type AppliedAccountJson = Omit<AccountRow, 'expires_at' | 'disabled_at' | 'created_at' | 'updated_at'> & {
  expires_at: string | null;
  disabled_at: string | null;
  created_at: string;
  updated_at: string | null;
};

/**
 * The accounts applied to a checkout, in the order they were applied, as one JSON array for another module's statement
 * (issue 34: the checkout's lock in the order placement reads them, one round trip less); `tenant` and `checkout` are
 * SQL expressions of that statement (this part's own aliases are `ba`, `a` and `t`). The members of `applied`'s rows,
 * numbers as decimal text, times as ISO text (`appliedAccountsOf` makes them `applied`'s rows).
 */
export function appliedAccountsJsonSql(tenant: string, checkout: string): string {
  return `(SELECT coalesce(json_agg(json_build_object('id', a.id, 'kind', a.kind, 'last_characters', a.last_characters, 'currency_code', a.currency_code,
      'initial_value', a.initial_value::text, 'customer_id', a.customer_id, 'expires_at', a.expires_at, 'note', a.note, 'disabled_at', a.disabled_at,
      'created_at', a.created_at, 'updated_at', a.updated_at,
      'balance', COALESCE((SELECT sum(t.amount) FROM balance_transactions t WHERE t.tenant_id = a.tenant_id AND t.account_id = a.id), 0)::text)
      ORDER BY ba.created_at, a.id), '[]'::json)
    FROM checkout_balance_accounts ba JOIN balance_accounts a ON a.tenant_id = ba.tenant_id AND a.id = ba.account_id
    WHERE ba.tenant_id = ${tenant} AND ba.checkout_id = ${checkout})`;
}

/** `appliedAccountsJsonSql`'s array as `applied` returns its rows. */
export function appliedAccountsOf(json: AppliedAccountJson[]): AccountRow[] {
  const time = (t: string | null) => (t === null ? null : new Date(t));
  return json.map((a) => ({
    ...a,
    expires_at: time(a.expires_at),
    disabled_at: time(a.disabled_at),
    created_at: new Date(a.created_at),
    updated_at: time(a.updated_at),
  }));
}

/**
 * Every statement of the gift-cards module (it owns `balance_accounts`, `balance_transactions` and
 * `checkout_balance_accounts`). Each runs on the caller's manager, so inside its transaction.
 */
@Injectable()
export class GiftCardsRepository {
  /** The shop's gift cards (not store credit) as a query the pager orders and cuts (newest first). */
  giftCardsQuery(m: EntityManager, tenantId: string): SelectQueryBuilder<BalanceAccount> {
    return m.getRepository(BalanceAccount).createQueryBuilder('a').where(`a.tenant_id = :tenant AND a.kind = 'gift_card'`, { tenant: tenantId });
  }

  async insertAccount(m: EntityManager, tenantId: string, a: NewAccount): Promise<string> {
    const [row] = await returning<{ id: string }>(
      m,
      `INSERT INTO balance_accounts (tenant_id, kind, code_hash, last_characters, currency_code, initial_value, customer_id, expires_at, note)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [tenantId, a.kind, a.codeHash, a.lastCharacters, a.currency, a.initialValue, a.customerId, a.expiresAt, a.note],
    );
    return row.id;
  }

  /**
   * A card sold as a product, once per order line and unit (a second call for the same unit inserts nothing and
   * answers null): its `issue` row is appended by the caller only when this created it.
   */
  async insertSoldAccount(m: EntityManager, tenantId: string, a: NewAccount & { orderLineId: string; unit: number }): Promise<string | null> {
    const rows = await returning<{ id: string }>(
      m,
      `INSERT INTO balance_accounts (tenant_id, kind, code_hash, last_characters, currency_code, initial_value, customer_id, expires_at, note, order_line_id, order_unit)
       VALUES ($1, 'gift_card', $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (tenant_id, order_line_id, order_unit) WHERE order_line_id IS NOT NULL DO NOTHING RETURNING id`,
      [tenantId, a.codeHash, a.lastCharacters, a.currency, a.initialValue, a.customerId, a.expiresAt, a.note, a.orderLineId, a.unit],
    );
    return rows[0]?.id ?? null;
  }

  /** The cards sold on these order lines whose code has not been mailed yet. */
  async unmailedSold(m: EntityManager, tenantId: string, orderLineIds: string[]): Promise<SoldCardRow[]> {
    return m.query(
      `SELECT id, order_line_id, order_unit, currency_code, initial_value FROM balance_accounts
       WHERE tenant_id = $1 AND order_line_id = ANY($2::uuid[]) AND mailed_at IS NULL ORDER BY order_line_id, order_unit`,
      [tenantId, orderLineIds],
    );
  }

  /** The live (not disabled) cards sold on an order line beyond its first `keep` units. */
  async soldBeyond(m: EntityManager, tenantId: string, orderLineId: string, keep: number): Promise<AccountRow[]> {
    return m.query(
      `SELECT ${ACCOUNT} FROM balance_accounts a WHERE a.tenant_id = $1 AND a.order_line_id = $2 AND a.order_unit > $3 AND a.disabled_at IS NULL ORDER BY a.order_unit`,
      [tenantId, orderLineId, keep],
    );
  }

  async markMailed(m: EntityManager, tenantId: string, ids: string[]): Promise<void> {
    await m.query(`UPDATE balance_accounts SET mailed_at = now() WHERE tenant_id = $1 AND id = ANY($2::uuid[])`, [tenantId, ids]);
  }

  /** The customer's store-credit account in a currency, created when missing (race-safe). */
  async storeCreditAccount(m: EntityManager, tenantId: string, customerId: string, currency: string): Promise<string> {
    const [row] = await returning<{ id: string }>(
      m,
      `INSERT INTO balance_accounts (tenant_id, kind, currency_code, customer_id) VALUES ($1, 'store_credit', $3, $2)
       ON CONFLICT (tenant_id, customer_id, currency_code) WHERE kind = 'store_credit' DO UPDATE SET updated_at = balance_accounts.updated_at
       RETURNING id`,
      [tenantId, customerId, currency],
    );
    return row.id;
  }

  async account(m: EntityManager, tenantId: string, id: string, kind?: 'gift_card' | 'store_credit'): Promise<AccountRow | null> {
    const rows: AccountRow[] = await m.query(
      `SELECT ${ACCOUNT} FROM balance_accounts a WHERE a.tenant_id = $1 AND a.id = $2 AND ($3::text IS NULL OR a.kind = $3)`,
      [tenantId, id, kind ?? null],
    );
    return rows[0] ?? null;
  }

  async accountByCodeHash(m: EntityManager, tenantId: string, hash: Buffer): Promise<AccountRow | null> {
    const rows: AccountRow[] = await m.query(`SELECT ${ACCOUNT} FROM balance_accounts a WHERE a.tenant_id = $1 AND a.code_hash = $2`, [tenantId, hash]);
    return rows[0] ?? null;
  }

  async customerAccounts(m: EntityManager, tenantId: string, customerId: string): Promise<AccountRow[]> {
    return m.query(
      `SELECT ${ACCOUNT} FROM balance_accounts a WHERE a.tenant_id = $1 AND a.customer_id = $2 AND a.kind = 'store_credit' ORDER BY a.currency_code`,
      [tenantId, customerId],
    );
  }

  async accountsByIds(m: EntityManager, tenantId: string, ids: string[]): Promise<AccountRow[]> {
    return m.query(`SELECT ${ACCOUNT} FROM balance_accounts a WHERE a.tenant_id = $1 AND a.id = ANY($2::uuid[])`, [tenantId, ids]);
  }

  /** Row locks on the accounts, sorted by id (one lock order everywhere: no deadlock), until the transaction ends. */
  async lock(m: EntityManager, tenantId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await m.query(`SELECT id FROM balance_accounts WHERE tenant_id = $1 AND id = ANY($2::uuid[]) ORDER BY id FOR UPDATE`, [tenantId, ids]);
  }

  async updateAccount(
    m: EntityManager,
    tenantId: string,
    id: string,
    patch: { note: string | null; expiresAt: Date | null; customerId: string | null; disabledAt: Date | null },
  ) {
    await m.query(
      `UPDATE balance_accounts SET note = $3, expires_at = $4, customer_id = $5, disabled_at = $6, updated_at = now() WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id, patch.note, patch.expiresAt, patch.customerId, patch.disabledAt],
    );
  }

  async append(m: EntityManager, tenantId: string, r: NewLedgerRow): Promise<LedgerTransactionRow> {
    const [row] = await returning<LedgerTransactionRow>(
      m,
      // clock_timestamp(), not the transaction's now(): rows appended in one transaction (an import) keep their order
      `INSERT INTO balance_transactions (tenant_id, account_id, amount, currency_code, order_id, kind, staff_id, note, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, clock_timestamp()) RETURNING id, account_id, amount, currency_code, order_id, kind, staff_id, note, created_at`,
      [tenantId, r.accountId, r.amount, r.currency, r.orderId, r.kind, r.staffId, r.note],
    );
    return row;
  }

  async history(m: EntityManager, tenantId: string, accountId: string): Promise<LedgerTransactionRow[]> {
    return m.query(
      `SELECT id, account_id, amount, currency_code, order_id, kind, staff_id, note, created_at FROM balance_transactions
       WHERE tenant_id = $1 AND account_id = $2 ORDER BY created_at, seq`,
      [tenantId, accountId],
    );
  }

  async orderRows(m: EntityManager, tenantId: string, orderId: string): Promise<LedgerTransactionRow[]> {
    return m.query(
      `SELECT id, account_id, amount, currency_code, order_id, kind, staff_id, note, created_at FROM balance_transactions
       WHERE tenant_id = $1 AND order_id = $2 ORDER BY created_at, seq`,
      [tenantId, orderId],
    );
  }

  /** Every gift card of the shop with its code hash (export). */
  async exportRows(m: EntityManager, tenantId: string): Promise<Array<AccountRow & { code_hash: Buffer }>> {
    return m.query(`SELECT ${ACCOUNT}, a.code_hash FROM balance_accounts a WHERE a.tenant_id = $1 AND a.kind = 'gift_card' ORDER BY a.created_at, a.id`, [
      tenantId,
    ]);
  }

  /** Every store-credit account of the shop (export), by customer and currency. */
  async storeCreditAccounts(m: EntityManager, tenantId: string): Promise<AccountRow[]> {
    return m.query(`SELECT ${ACCOUNT} FROM balance_accounts a WHERE a.tenant_id = $1 AND a.kind = 'store_credit' ORDER BY a.customer_id, a.currency_code`, [
      tenantId,
    ]);
  }

  /** Whether the account has any ledger row. */
  async hasRows(m: EntityManager, tenantId: string, accountId: string): Promise<boolean> {
    const rows: unknown[] = await m.query(`SELECT 1 FROM balance_transactions WHERE tenant_id = $1 AND account_id = $2 LIMIT 1`, [tenantId, accountId]);
    return rows.length > 0;
  }

  /** The ledger rows of every account of a kind, oldest first (export). */
  async ledgerOfKind(m: EntityManager, tenantId: string, kind: 'gift_card' | 'store_credit'): Promise<LedgerTransactionRow[]> {
    return m.query(
      `SELECT t.id, t.account_id, t.amount, t.currency_code, t.order_id, t.kind, t.staff_id, t.note, t.created_at FROM balance_transactions t
       JOIN balance_accounts a ON a.tenant_id = t.tenant_id AND a.id = t.account_id WHERE t.tenant_id = $1 AND a.kind = $2 ORDER BY t.created_at, t.seq`,
      [tenantId, kind],
    );
  }

  /** The accounts applied to a checkout, in the order they were applied. */
  async applied(m: EntityManager, tenantId: string, checkoutId: string): Promise<AccountRow[]> {
    return m.query(
      prepared(`SELECT ${ACCOUNT} FROM checkout_balance_accounts c JOIN balance_accounts a ON a.tenant_id = c.tenant_id AND a.id = c.account_id
       WHERE c.tenant_id = $1 AND c.checkout_id = $2 ORDER BY c.created_at, a.id`),
      [tenantId, checkoutId],
    );
  }

  /** Whether any checkout of the shop has an account applied. */
  async anyApplied(m: EntityManager, tenantId: string): Promise<boolean> {
    const rows: Array<{ any: boolean }> = await m.query(`SELECT EXISTS (SELECT 1 FROM checkout_balance_accounts WHERE tenant_id = $1) AS any`, [tenantId]);
    return Boolean(rows[0]?.any);
  }

  async apply(m: EntityManager, tenantId: string, checkoutId: string, accountId: string): Promise<void> {
    await m.query(`INSERT INTO checkout_balance_accounts (tenant_id, checkout_id, account_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [
      tenantId,
      checkoutId,
      accountId,
    ]);
  }

  async unapply(m: EntityManager, tenantId: string, checkoutId: string, accountId: string): Promise<boolean> {
    const rows = await returning<{ account_id: string }>(
      m,
      `DELETE FROM checkout_balance_accounts WHERE tenant_id = $1 AND checkout_id = $2 AND account_id = $3 RETURNING account_id`,
      [tenantId, checkoutId, accountId],
    );
    return rows.length > 0;
  }
}
