import type { DataSource, EntityManager } from 'typeorm';
import { RequestContext } from '../common/context/request-context.js';
import { AppConfig } from '../config/app-config.js';
import type { MailTransport } from '../customers/index.js';
import type { Extensions } from '../extensions/index.js';
import type { TenancyService } from '../tenancy/index.js';
import { GiftCardCodes } from './gift-card-codes.js';
import { GiftCardSales, GiftCardSaleUnit } from './gift-card-sales.service.js';
import type { AccountRow, GiftCardsRepository, NewAccount, NewLedgerRow, SoldCardRow } from './gift-cards.repository.js';

type MailMessage = Parameters<MailTransport['send']>[0];

const TENANT = '00000000-0000-4000-8000-000000000001';

/** The repository as memory: sold cards (unique per order line and unit) and their ledger rows. */
class FakeRepo {
  cards: Array<NewAccount & { id: string; orderLineId: string; unit: number; mailed: boolean; disabled: boolean }> = [];
  rows: NewLedgerRow[] = [];

  async insertSoldAccount(_m: EntityManager, _t: string, a: NewAccount & { orderLineId: string; unit: number }) {
    if (this.cards.some((c) => c.orderLineId === a.orderLineId && c.unit === a.unit)) return null;
    const id = `card-${this.cards.length + 1}`;
    this.cards.push({ ...a, id, mailed: false, disabled: false });
    return id;
  }
  async append(_m: EntityManager, _t: string, r: NewLedgerRow) {
    this.rows.push(r);
  }
  async unmailedSold(_m: EntityManager, _t: string, lineIds: string[]): Promise<SoldCardRow[]> {
    return this.cards
      .filter((c) => lineIds.includes(c.orderLineId) && !c.mailed)
      .map((c) => ({ id: c.id, order_line_id: c.orderLineId, order_unit: c.unit, currency_code: c.currency, initial_value: c.initialValue }));
  }
  async markMailed(_m: EntityManager, _t: string, ids: string[]) {
    for (const c of this.cards) if (ids.includes(c.id)) c.mailed = true;
  }
  balance(id: string): number {
    return this.rows.filter((r) => r.accountId === id).reduce((a, r) => a + Number(r.amount), 0);
  }
  async soldBeyond(_m: EntityManager, _t: string, lineId: string, keep: number): Promise<AccountRow[]> {
    return this.cards
      .filter((c) => c.orderLineId === lineId && c.unit > keep && !c.disabled)
      .map(
        (c) =>
          ({ id: c.id, currency_code: c.currency, balance: this.balance(c.id).toFixed(4), note: c.note, expires_at: null, customer_id: null }) as AccountRow,
      );
  }
  async lock() {}
  async updateAccount(_m: EntityManager, _t: string, id: string, patch: { disabledAt: Date | null }) {
    this.cards.find((c) => c.id === id)!.disabled = patch.disabledAt !== null;
  }
}

function setup() {
  const repo = new FakeRepo();
  const sent: MailMessage[] = [];
  const working = { send: async (m: MailMessage) => void sent.push(m) } as MailTransport;
  // the mail transport is an extension point: `transport.current` is what the registry answers
  const transport = { current: working };
  const extensions = { one: () => transport.current } as unknown as Extensions;
  const config = Object.assign(new AppConfig(), { APP_SECRET: 'unit-test-secret-of-some-length' });
  const codes = new GiftCardCodes(config);
  const tenancy = { config: async () => ({ currencies: [{ code: 'CHF', precision: 2 }] }) } as unknown as TenancyService;
  const sales = new GiftCardSales({} as DataSource, repo as unknown as GiftCardsRepository, codes, tenancy, extensions);
  const ctx = RequestContext.forTenant(TENANT);
  ctx.manager = { queryRunner: { isTransactionActive: true } } as unknown as EntityManager;
  return { repo, sent, codes, sales, ctx, transport, working };
}

const order = { id: 'order-1', number: '1001', email: 'buyer@example.com', customerId: null, currency: 'CHF' };
const units = (line: string, n: number, value = 50): GiftCardSaleUnit[] =>
  Array.from({ length: n }, (_, i) => ({ orderLineId: line, unit: i + 1, value, title: 'Gift card' }));

describe('gift cards sold as products', () => {
  it('a derived code is stable for its line and unit, differs for any other, and has the format of a generated one', () => {
    const { codes } = setup();
    const a = codes.derive(TENANT, 'line-1', 1);
    expect(a).toMatch(/^[A-HJKMNP-Z2-9]{4}(-[A-HJKMNP-Z2-9]{4}){3}$/);
    expect(codes.derive(TENANT, 'line-1', 1)).toBe(a);
    const others = [codes.derive(TENANT, 'line-1', 2), codes.derive(TENANT, 'line-2', 1), codes.derive('00000000-0000-4000-8000-000000000002', 'line-1', 1)];
    expect(new Set([a, ...others]).size).toBe(4);
    expect(codes.generate()).toMatch(/^[A-HJKMNP-Z2-9]{4}(-[A-HJKMNP-Z2-9]{4}){3}$/);
  });

  it('issues one card per unit with an issue row of its value, mails the codes once, and issues nothing twice', async () => {
    const { repo, sent, codes, sales, ctx } = setup();
    expect(await sales.issue(ctx, order, units('line-1', 2, 49.999))).toBe(2);
    expect(repo.cards.map((c) => [c.unit, c.initialValue, c.currency])).toEqual([
      [1, '50.00', 'CHF'],
      [2, '50.00', 'CHF'],
    ]);
    expect(repo.rows.map((r) => [r.kind, r.amount, r.orderId])).toEqual([
      ['issue', '50.00', 'order-1'],
      ['issue', '50.00', 'order-1'],
    ]);
    // only hashes are stored, of the codes the mail carries
    const mailed = sent[0].data!.codes.split(',');
    expect(repo.cards.map((c) => c.codeHash)).toEqual(mailed.map((code: string) => codes.hash(code)));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: 'buyer@example.com', kind: 'gift_card_issued' });

    expect(await sales.issue(ctx, order, units('line-1', 2))).toBe(0);
    expect(repo.cards).toHaveLength(2);
    expect(repo.rows).toHaveLength(2);
    expect(sent).toHaveLength(1);
  });

  it('a failed mail leaves the cards unmailed; the next run mails the same codes', async () => {
    const { repo, sent, sales, ctx, transport, working } = setup();
    transport.current = { send: async () => Promise.reject(new Error('smtp down')) } as unknown as MailTransport;
    await expect(sales.issue(ctx, order, units('line-1', 1))).rejects.toThrow('smtp down');
    expect(repo.cards[0].mailed).toBe(false);
    transport.current = working;
    // (a real failure rolls the issue back too; the retry finds it either way)
    expect(await sales.issue(ctx, order, units('line-1', 1))).toBe(0);
    expect(sent).toHaveLength(1);
    expect(repo.cards[0].mailed).toBe(true);
  });

  it('without an e-mail address the cards are issued and nothing is mailed', async () => {
    const { repo, sent, sales, ctx } = setup();
    expect(await sales.issue(ctx, { ...order, email: null }, units('line-1', 1))).toBe(1);
    expect(sent).toHaveLength(0);
    expect(repo.cards).toHaveLength(1);
  });

  it('revoke disables the cards beyond the units kept and expires what is left on them; again, nothing more', async () => {
    const { repo, sales, ctx } = setup();
    await sales.issue(ctx, order, units('line-1', 3));
    repo.rows.push({ accountId: 'card-3', amount: '-50.00', currency: 'CHF', orderId: 'other', kind: 'redeem', staffId: null, note: null }); // spent
    expect(await sales.revoke(ctx, 'line-1', 1, 'refunded')).toBe(2);
    expect(repo.cards.map((c) => c.disabled)).toEqual([false, true, true]);
    expect(repo.rows.filter((r) => r.kind === 'expire').map((r) => [r.accountId, Number(r.amount)])).toEqual([['card-2', -50]]);
    expect([1, 2, 3].map((i) => repo.balance(`card-${i}`))).toEqual([50, 0, 0]);
    expect(await sales.revoke(ctx, 'line-1', 1, 'refunded')).toBe(0);
    expect(await sales.revoke(ctx, 'line-1', 0, 'cancelled')).toBe(1);
    expect(repo.cards.every((c) => c.disabled)).toBe(true);
  });
});
