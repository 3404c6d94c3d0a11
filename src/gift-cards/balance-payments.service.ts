import { Injectable, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PrincipalCache } from '../common/auth/principal-cache.js';
import { CacheBus } from '../common/cluster/cache-bus.js';
import type { RequestContext } from '../common/context/request-context.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { fromMinor, minorToDecimalString, toMinor } from '../pricing/index.js';
import { GiftCardCodes } from './gift-card-codes.js';
import { AccountRow, appliedAccountsOf, GiftCardsRepository, type AppliedAccountJson } from './gift-cards.repository.js';
import { AccountState, allocate, returnsFor, unusableReason } from './ledger.js';

/** An account applied to a checkout (or that paid an order), as the shopper sees it. */
/** Cache-bus topic sent by the `checkout_balance_accounts` trigger (migration ReadPathNotify1795707000000). */
export const CHECKOUT_BALANCES_CACHE_TOPIC = 'checkout_balances' as const;

export interface AppliedBalance {
  id: string;
  kind: 'gift_card' | 'store_credit';
  last_characters: string | null;
  currency: string;
  /** The account's balance now (decimal). */
  balance: number;
  /** What it pays of this checkout (decimal). */
  amount: number;
}

export interface BalanceCoverage {
  accounts: AppliedBalance[];
  /** Minor units the applied accounts pay. */
  covered: number;
}

export interface Redemption {
  /** Minor units paid from balances. */
  paid: number;
  parts: Array<{ accountId: string; kind: 'gift_card' | 'store_credit'; lastCharacters: string | null; amount: number }>;
}

const REFUSALS = {
  disabled: ['the gift card is disabled', 'gift_card_disabled'],
  expired: ['the gift card has expired', 'gift_card_expired'],
  empty: ['the gift card has no balance left', 'gift_card_empty'],
  currency_mismatch: ["the gift card's currency is not the checkout's", 'gift_card_currency_mismatch'],
} as const;

export function stateOf(a: AccountRow, precision: number): AccountState {
  return { id: a.id, currency: a.currency_code, balance: toMinor(a.balance, precision), expiresAt: a.expires_at, disabledAt: a.disabled_at };
}

/**
 * Gift cards and store credit as a means of payment (issue 33), for the checkout module: applied to a checkout,
 * paying after discounts and before the payment provider, redeemed in the order placement's transaction under the
 * accounts' row locks (the balance is re-read there: concurrent placements cannot spend it twice), and returned to
 * the accounts when the order is cancelled or refunded.
 */
@Injectable()
export class BalancePayments {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repo: GiftCardsRepository,
    private readonly codes: GiftCardCodes,
    @Optional() private readonly bus?: CacheBus,
  ) {
    this.anyApplied = new PrincipalCache(5_000, 10_000, () => this.bus?.listening === true);
    bus?.subscribe(CHECKOUT_BALANCES_CACHE_TOPIC, (tenantId) => this.anyApplied.drop(tenantId));
  }

  /**
   * Whether any checkout of a shop has an account applied, outside transactions only: false lets the checkout read
   * skip the applied-accounts query (issue 31). Dropped by the `checkout_balance_accounts` trigger's message, and
   * here at once when this instance applies an account.
   */
  private readonly anyApplied: PrincipalCache<boolean>;

  /**
   * What the accounts applied to a checkout pay of `due` (minor units), in the order they were applied. `read`: the
   * applied accounts as the caller's statement already read them (`appliedAccountsJsonSql`), then not read again.
   */
  async coverage(
    ctx: RequestContext,
    checkoutId: string,
    currency: string,
    precision: number,
    due: number,
    read?: AppliedAccountJson[],
  ): Promise<BalanceCoverage> {
    // without a listening bus nothing is reused, and asking first would only add a statement
    if (!read && !ctx.manager && this.bus?.listening === true && !(await this.shopHasApplied(ctx.tenantId))) return { accounts: [], covered: 0 };
    const applied = read ? appliedAccountsOf(read) : await this.repo.applied(managerOf(ctx, this.dataSource), ctx.tenantId, checkoutId);
    if (applied.length === 0) return { accounts: [], covered: 0 };
    const now = new Date();
    const usable = applied.map((a) => stateOf(a, precision)).map((s) => (unusableReason(s, currency, now) ? { ...s, balance: 0 } : s));
    const parts = new Map(allocate(usable, due).map((p) => [p.accountId, p.amount]));
    return {
      accounts: applied.map((a) => ({
        id: a.id,
        kind: a.kind,
        last_characters: a.last_characters,
        currency: a.currency_code,
        balance: Number(a.balance),
        amount: fromMinor(parts.get(a.id) ?? 0, precision),
      })),
      covered: [...parts.values()].reduce((x, y) => x + y, 0),
    };
  }

  private async shopHasApplied(tenantId: string): Promise<boolean> {
    const hit = this.anyApplied.get(tenantId);
    if (hit !== undefined) return hit;
    const epoch = this.anyApplied.begin();
    const any = await this.repo.anyApplied(this.dataSource.manager, tenantId);
    this.anyApplied.set(tenantId, epoch, tenantId, any);
    return any;
  }

  /** POST /checkouts/{token}/gift_cards: 422 with a code naming why the card cannot pay. */
  async applyGiftCard(ctx: RequestContext, checkoutId: string, code: string, currency: string, precision: number): Promise<void> {
    const m = managerOf(ctx, this.dataSource);
    const card = await this.repo.accountByCodeHash(m, ctx.tenantId, this.codes.hash(code));
    if (!card) throw AppError.unprocessable('no gift card has this code', 'gift_card_not_found');
    const why = unusableReason(stateOf(card, precision), currency, new Date());
    if (why) throw AppError.unprocessable(REFUSALS[why][0], REFUSALS[why][1]);
    await this.repo.apply(m, ctx.tenantId, checkoutId, card.id);
    this.anyApplied.drop(ctx.tenantId);
  }

  /** POST /checkouts/{token}/store_credit: the signed-in shopper's credit in the checkout's currency. */
  async applyStoreCredit(ctx: RequestContext, checkoutId: string, customerId: string, currency: string, precision: number): Promise<void> {
    const m = managerOf(ctx, this.dataSource);
    const credit = (await this.repo.customerAccounts(m, ctx.tenantId, customerId)).find((a) => a.currency_code === currency);
    if (!credit || toMinor(credit.balance, precision) <= 0) throw AppError.unprocessable(`no store credit in ${currency} to spend`, 'store_credit_empty');
    await this.repo.apply(m, ctx.tenantId, checkoutId, credit.id);
    this.anyApplied.drop(ctx.tenantId);
  }

  /** DELETE /checkouts/{token}/gift_cards/{id}: 404 when that account is not applied. */
  async remove(ctx: RequestContext, checkoutId: string, accountId: string): Promise<void> {
    if (!(await this.repo.unapply(managerOf(ctx, this.dataSource), ctx.tenantId, checkoutId, accountId))) throw AppError.notFound('gift card');
  }

  /** The signed-in shopper's store credit accounts (customer tier). */
  async storeCredit(ctx: RequestContext, customerId: string): Promise<Array<{ currency: string; balance: number }>> {
    const rows = await this.repo.customerAccounts(managerOf(ctx, this.dataSource), ctx.tenantId, customerId);
    return rows.map((r) => ({ currency: r.currency_code, balance: Number(r.balance) }));
  }

  /**
   * In the placement's transaction: the applied accounts locked (sorted by id), their balances re-read from the
   * ledger, each paying at most its balance of `due`; a disabled or expired one is 422; redeem rows appended.
   * `preview`: this transaction's `coverage` of the checkout, whose accounts are then not read again.
   */
  async redeem(
    tx: RequestContext,
    checkoutId: string,
    orderId: string,
    currency: string,
    precision: number,
    due: number,
    preview?: BalanceCoverage,
  ): Promise<Redemption> {
    const m = managerOf(tx, this.dataSource);
    // the accounts `coverage` read earlier in this transaction, in their order (issue 34: not read twice); their
    // balances are re-read below under the locks either way
    const applied = preview ? preview.accounts : await this.repo.applied(m, tx.tenantId, checkoutId);
    if (applied.length === 0) return { paid: 0, parts: [] };
    await this.repo.lock(
      m,
      tx.tenantId,
      applied.map((a) => a.id),
    );
    const fresh = new Map(
      (
        await this.repo.accountsByIds(
          m,
          tx.tenantId,
          applied.map((a) => a.id),
        )
      ).map((a) => [a.id, a]),
    );
    const now = new Date();
    const states = applied.map((a) => stateOf(fresh.get(a.id)!, precision));
    for (const s of states) {
      const why = unusableReason(s, currency, now);
      if (why && why !== 'empty') throw AppError.unprocessable(REFUSALS[why][0], REFUSALS[why][1]);
    }
    const parts = allocate(states, due);
    for (const p of parts) {
      await this.repo.append(m, tx.tenantId, {
        accountId: p.accountId,
        amount: minorToDecimalString(-p.amount, precision),
        currency,
        orderId,
        kind: 'redeem',
        staffId: null,
        note: null,
      });
    }
    return {
      paid: parts.reduce((a, p) => a + p.amount, 0),
      parts: parts.map((p) => ({ ...p, kind: fresh.get(p.accountId)!.kind, lastCharacters: fresh.get(p.accountId)!.last_characters })),
    };
  }

  /** Credits a customer's store credit (a return or claim refunded as credit): a `refund` row naming the order. */
  async issueStoreCredit(tx: RequestContext, customerId: string, currency: string, precision: number, amount: number, orderId: string, note: string | null) {
    const m = managerOf(tx, this.dataSource);
    const id = await this.repo.storeCreditAccount(m, tx.tenantId, customerId, currency);
    await this.repo.lock(m, tx.tenantId, [id]);
    await this.repo.append(m, tx.tenantId, {
      accountId: id,
      amount: minorToDecimalString(amount, precision),
      currency,
      orderId,
      kind: 'refund',
      staffId: tx.actor.type === 'staff' ? tx.actor.staffId : null,
      note,
    });
  }

  /** Returns up to `amount` (minor units) of what an order redeemed to its accounts (refund rows); the amount returned. */
  async returnToAccounts(tx: RequestContext, orderId: string, amount: number, precision: number, note: string | null): Promise<number> {
    const m = managerOf(tx, this.dataSource);
    const rows = await this.repo.orderRows(m, tx.tenantId, orderId);
    if (rows.length === 0 || amount <= 0) return 0;
    const parts = returnsFor(
      rows.map((r) => ({ accountId: r.account_id, amount: toMinor(r.amount, precision), kind: r.kind, orderId: r.order_id })),
      amount,
    );
    await this.repo.lock(
      m,
      tx.tenantId,
      parts.map((p) => p.accountId),
    );
    const currency = rows[0].currency_code;
    for (const p of parts) {
      await this.repo.append(m, tx.tenantId, {
        accountId: p.accountId,
        amount: minorToDecimalString(p.amount, precision),
        currency,
        orderId,
        kind: 'refund',
        staffId: tx.actor.type === 'staff' ? tx.actor.staffId : null,
        note,
      });
    }
    return parts.reduce((a, p) => a + p.amount, 0);
  }
}
