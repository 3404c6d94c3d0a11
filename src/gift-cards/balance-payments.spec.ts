import type { DataSource, EntityManager } from 'typeorm';
import { RequestContext } from '../common/context/request-context.js';
import { BalancePayments } from './balance-payments.service.js';
import type { GiftCardCodes } from './gift-card-codes.js';
import type { AccountRow, GiftCardsRepository, LedgerTransactionRow, NewLedgerRow } from './gift-cards.repository.js';
import { adjustmentAllowed, allocate, returnsFor } from './ledger.js';

/** A seeded generator (mulberry32): every run draws the same sequences, and a failure names its seed. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The repository as memory: accounts, ledger rows and checkout applications. */
class FakeRepo {
  rows: LedgerTransactionRow[] = [];
  applications = new Map<string, string[]>();
  accounts = new Map<string, { currency: string; expiresAt: Date | null; disabledAt: Date | null }>();
  locks = 0;

  balanceMinor(id: string): number {
    return this.rows.filter((r) => r.account_id === id).reduce((a, r) => a + Math.round(Number(r.amount) * 100), 0);
  }
  row(id: string): AccountRow {
    const a = this.accounts.get(id)!;
    return {
      id,
      kind: 'gift_card',
      last_characters: id.slice(-4),
      currency_code: a.currency,
      initial_value: '0',
      customer_id: null,
      expires_at: a.expiresAt,
      note: null,
      disabled_at: a.disabledAt,
      created_at: new Date(0),
      updated_at: null,
      balance: (this.balanceMinor(id) / 100).toFixed(2),
    };
  }
  async applied(_m: EntityManager, _t: string, checkoutId: string) {
    return (this.applications.get(checkoutId) ?? []).map((id) => this.row(id));
  }
  async lock() {
    this.locks++;
  }
  async accountsByIds(_m: EntityManager, _t: string, ids: string[]) {
    return ids.map((id) => this.row(id));
  }
  async append(_m: EntityManager, _t: string, r: NewLedgerRow) {
    const row: LedgerTransactionRow = {
      id: String(this.rows.length),
      account_id: r.accountId,
      amount: r.amount,
      currency_code: r.currency,
      order_id: r.orderId,
      kind: r.kind,
      staff_id: r.staffId,
      note: r.note,
      created_at: new Date(),
    };
    this.rows.push(row);
    return row;
  }
  async orderRows(_m: EntityManager, _t: string, orderId: string) {
    return this.rows.filter((r) => r.order_id === orderId);
  }
}

function setup() {
  const repo = new FakeRepo();
  const ctx = RequestContext.forTenant('00000000-0000-4000-8000-000000000001');
  ctx.manager = {} as EntityManager;
  const payments = new BalancePayments({} as DataSource, repo as unknown as GiftCardsRepository, {} as GiftCardCodes);
  return { repo, ctx, payments };
}

describe('the balance ledger rules', () => {
  it('allocate pays in the order applied, each account at most its balance, never more than due', () => {
    const acc = (id: string, balance: number) => ({ id, currency: 'CHF', balance, expiresAt: null, disabledAt: null });
    expect(allocate([acc('a', 500), acc('b', 10_000)], 1930)).toEqual([
      { accountId: 'a', amount: 500 },
      { accountId: 'b', amount: 1430 },
    ]);
    expect(allocate([acc('a', 0), acc('b', 300)], 1000)).toEqual([{ accountId: 'b', amount: 300 }]);
    expect(allocate([acc('a', 300)], 0)).toEqual([]);
  });

  it('returnsFor gives back at most what the order took from each account, the latest first', () => {
    const rows = [
      { accountId: 'a', amount: -500, kind: 'redeem' as const, orderId: 'o' },
      { accountId: 'b', amount: -300, kind: 'redeem' as const, orderId: 'o' },
      { accountId: 'b', amount: 100, kind: 'refund' as const, orderId: 'o' },
    ];
    expect(returnsFor(rows, 250)).toEqual([
      { accountId: 'b', amount: 200 },
      { accountId: 'a', amount: 50 },
    ]);
    expect(returnsFor(rows, 10_000)).toEqual([
      { accountId: 'b', amount: 200 },
      { accountId: 'a', amount: 500 },
    ]);
    // store credit the order granted (a refund row without a redemption) is nothing to give back and takes nothing away
    const credited = [...rows, { accountId: 'c', amount: 700, kind: 'refund' as const, orderId: 'o' }];
    expect(returnsFor(credited, 600)).toEqual([
      { accountId: 'b', amount: 200 },
      { accountId: 'a', amount: 400 },
    ]);
  });

  it('an adjustment may not take a balance below zero', () => {
    expect(adjustmentAllowed(1000, -1000)).toBe(true);
    expect(adjustmentAllowed(1000, -1001)).toBe(false);
    expect(adjustmentAllowed(0, 0)).toBe(false);
  });

  it('redeem with the coverage read earlier in the transaction does not read the applied accounts again, and re-reads their balances under the locks', async () => {
    const { repo, ctx, payments } = setup();
    repo.accounts.set('acc-1', { currency: 'CHF', expiresAt: null, disabledAt: null });
    repo.applications.set('co', ['acc-1']);
    await repo.append(ctx.manager!, ctx.tenantId, {
      accountId: 'acc-1',
      amount: '30.00',
      currency: 'CHF',
      orderId: null,
      kind: 'issue',
      staffId: null,
      note: null,
    });
    let appliedReads = 0;
    const applied = repo.applied.bind(repo);
    repo.applied = async (...a) => (appliedReads++, applied(...a));
    const preview = await payments.coverage(ctx, 'co', 'CHF', 2, 5000);
    expect(appliedReads).toBe(1);
    // spent elsewhere between the preview and the placement: the locked re-read decides, not the preview
    await repo.append(ctx.manager!, ctx.tenantId, {
      accountId: 'acc-1',
      amount: '-20.00',
      currency: 'CHF',
      orderId: null,
      kind: 'redeem',
      staffId: null,
      note: null,
    });
    const r = await payments.redeem(ctx, 'co', 'order-1', 'CHF', 2, 5000, preview);
    expect(appliedReads).toBe(1);
    expect(repo.locks).toBe(1);
    expect(r.paid).toBe(1000);
    expect(repo.balanceMinor('acc-1')).toBe(0);
  });

  it('property: random issue/redeem/refund/expire/cancel sequences keep every balance equal to its ledger sum and never negative', async () => {
    for (let seed = 1; seed <= 200; seed++) {
      const rand = rng(seed);
      const int = (n: number) => Math.floor(rand() * n);
      const { repo, ctx, payments } = setup();
      const ids = ['a', 'b', 'c'].map((x) => `00000000-0000-4000-8000-00000000000${x}`);
      const model = new Map(ids.map((id) => [id, 0]));
      const open = new Map<string, number>(); // order -> what is still returnable (minor)
      for (const id of ids) repo.accounts.set(id, { currency: 'CHF', expiresAt: null, disabledAt: null });
      for (let step = 0; step < 40; step++) {
        const id = ids[int(ids.length)];
        const op = int(5);
        if (op === 0) {
          // issue (or a positive adjustment)
          const v = 1 + int(5000);
          await repo.append(ctx.manager!, ctx.tenantId, {
            accountId: id,
            amount: (v / 100).toFixed(2),
            currency: 'CHF',
            orderId: null,
            kind: 'issue',
            staffId: null,
            note: null,
          });
          model.set(id, model.get(id)! + v);
        } else if (op === 1) {
          // redeem: an order paying `due` from a random selection of accounts
          const checkout = `checkout-${seed}-${step}`;
          const chosen = ids.filter(() => rand() < 0.6);
          repo.applications.set(checkout, chosen);
          const due = int(8000);
          const order = `order-${seed}-${step}`;
          const r = await payments.redeem(ctx, checkout, order, 'CHF', 2, due);
          let left = due;
          for (const c of chosen) {
            const take = Math.min(model.get(c)!, left);
            model.set(c, model.get(c)! - take);
            left -= take;
          }
          expect(r.paid).toBe(due - left);
          if (r.paid > 0) open.set(order, r.paid);
        } else if ((op === 2 || op === 4) && open.size > 0) {
          // refund part (2) or cancel the whole (4) of a random order
          const orders = [...open.keys()];
          const order = orders[int(orders.length)];
          const left = open.get(order)!;
          const amount = op === 4 ? left : 1 + int(left);
          const before = new Map(ids.map((x) => [x, repo.balanceMinor(x)]));
          const back = await payments.returnToAccounts(ctx, order, amount, 2, null);
          expect(back).toBe(amount);
          for (const x of ids) model.set(x, model.get(x)! + repo.balanceMinor(x) - before.get(x)!);
          if (left - amount === 0) open.delete(order);
          else open.set(order, left - amount);
          // nothing more can be returned than was taken
          expect(await payments.returnToAccounts(ctx, order, left - amount + 1, 2, null)).toBe(left - amount);
          for (const x of ids) model.set(x, repo.balanceMinor(x));
          open.delete(order);
        } else if (op === 3) {
          // expire (or a negative adjustment): refused below zero
          const v = 1 + int(6000);
          if (adjustmentAllowed(repo.balanceMinor(id), -v)) {
            await repo.append(ctx.manager!, ctx.tenantId, {
              accountId: id,
              amount: (-v / 100).toFixed(2),
              currency: 'CHF',
              orderId: null,
              kind: 'expire',
              staffId: null,
              note: null,
            });
            model.set(id, model.get(id)! - v);
          }
        }
        for (const x of ids) {
          const ledger = repo.balanceMinor(x);
          if (ledger < 0 || ledger !== model.get(x)) throw new Error(`seed ${seed} step ${step}: account ${x} ledger ${ledger}, model ${model.get(x)}`);
        }
      }
      expect(repo.locks).toBeGreaterThan(0);
    }
  });
});
