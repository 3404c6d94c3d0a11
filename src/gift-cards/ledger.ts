/**
 * The rules of the balance ledger (issue 33), pure: gift cards and store credit are accounts whose balance is the sum
 * of their `balance_transactions` rows, in minor units of the account's currency. Redemption, returns and staff
 * adjustments never take a balance below zero; an order's redemptions are returned (refund rows) at most once.
 */

export type LedgerKind = 'issue' | 'redeem' | 'refund' | 'expire' | 'adjust';

export interface LedgerRow {
  accountId: string;
  /** Minor units; negative takes money off the account. */
  amount: number;
  kind: LedgerKind;
  orderId: string | null;
}

export interface AccountState {
  id: string;
  currency: string;
  /** Minor units: the sum of the account's rows. */
  balance: number;
  expiresAt: Date | null;
  disabledAt: Date | null;
}

/** Why an account cannot pay now, or null when it can. */
export function unusableReason(a: AccountState, currency: string, now: Date): 'disabled' | 'expired' | 'empty' | 'currency_mismatch' | null {
  if (a.disabledAt) return 'disabled';
  if (a.expiresAt && a.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (a.currency !== currency) return 'currency_mismatch';
  if (a.balance <= 0) return 'empty';
  return null;
}

/** The sum of rows: an account's balance. */
export function balanceOf(rows: readonly Pick<LedgerRow, 'amount'>[]): number {
  return rows.reduce((a, r) => a + r.amount, 0);
}

/** What each account pays of `due`, in the order they were applied: each at most its balance. */
export function allocate(accounts: readonly AccountState[], due: number): Array<{ accountId: string; amount: number }> {
  const out: Array<{ accountId: string; amount: number }> = [];
  let left = Math.max(0, due);
  for (const a of accounts) {
    if (left <= 0) break;
    const take = Math.min(Math.max(0, a.balance), left);
    if (take > 0) out.push({ accountId: a.id, amount: take });
    left -= take;
  }
  return out;
}

/**
 * What of `amount` goes back to each account an order was paid from: per account what it redeemed for the order less
 * what was already returned, the latest redemption returned first. Never more than the order took from it.
 */
export function returnsFor(orderRows: readonly LedgerRow[], amount: number): Array<{ accountId: string; amount: number }> {
  const open = new Map<string, number>();
  for (const r of orderRows) {
    if (r.kind !== 'redeem' && r.kind !== 'refund') continue;
    open.set(r.accountId, (open.get(r.accountId) ?? 0) - r.amount);
  }
  const out: Array<{ accountId: string; amount: number }> = [];
  let left = Math.max(0, amount);
  for (const [accountId, owed] of [...open.entries()].reverse()) {
    if (left <= 0) break;
    if (owed <= 0) continue; // e.g. store credit this order granted (a refund row without a redemption)
    const give = Math.min(owed, left);
    if (give > 0) out.push({ accountId, amount: give });
    left -= give;
  }
  return out;
}

/** A staff adjustment (or expiry) may not take the balance below zero. */
export function adjustmentAllowed(balance: number, delta: number): boolean {
  return delta !== 0 && balance + delta >= 0;
}
