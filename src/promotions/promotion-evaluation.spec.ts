import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { RequestContext } from '../common/context/request-context.js';
import type { Extensions } from '../extensions/index.js';
import type { PricedLine } from '../pricing/index.js';
import type { Promotion } from './entities/promotion.entity.js';
import { buyerKey, PromotionEvaluation, type PromotionRequest } from './promotion-evaluation.service.js';
import type { CustomerGroupsRepository, PromotionUseRow, PromotionUsagesRepository } from './promotions.repository.js';
import type { PromotionsService } from './promotions.service.js';
import { PromotionUsageCommits } from './promotion-usage-commits.js';

/** The evaluation's rules with its repositories faked: what is active when, per-buyer limits, and the usage taken at completion. */
const CHF = { id: 'chf', code: 'CHF', rate: '1', precision: 2, isDefault: true };
const promotion = (over: Partial<Promotion>): Promotion =>
  ({
    id: over.id ?? 'p1',
    name: 'Ten',
    enabled: true,
    startsAt: null,
    endsAt: null,
    priority: 0,
    combinesWith: { product: false, order: false, shipping: false, discount_codes: false },
    usageLimit: null,
    usageLimitPerCustomer: null,
    timesUsed: 0,
    code: null,
    conditions: [],
    actions: [{ type: 'percent_off_order', percent: 10 }],
    ...over,
  }) as Promotion;
const priced = (unit: number, quantity = 1): PricedLine =>
  ({ variantId: 'v1', productId: 'p', quantity, unit, line: unit * quantity, unitNet: unit, unitGross: unit, lineNet: unit, lineGross: unit }) as PricedLine;

function setup(rows: Promotion[], opts: { used?: Map<string, number>; taken?: PromotionUseRow[] } = {}) {
  const calls = { current: 0, recorded: [] as string[][] };
  const usages = {
    current: () => {
      calls.current++;
      return Promise.resolve(rows);
    },
    usesBy: () => Promise.resolve(opts.used ?? new Map()),
    takeUses: () => Promise.resolve(opts.taken ?? []),
    usageOf: () => Promise.resolve(opts.taken ?? []),
    recordUses: (_ctx: RequestContext, _order: string, ids: string[]) => {
      calls.recorded.push(ids);
      return Promise.resolve();
    },
  } as unknown as PromotionUsagesRepository;
  const groups = { groupIdsOf: () => Promise.resolve([]) } as unknown as CustomerGroupsRepository;
  const service = { onChange: () => undefined, hooks: () => Promise.resolve({}) } as unknown as PromotionsService;
  const extensions = { one: () => null } as unknown as Extensions;
  const commits = new PromotionUsageCommits();
  const evaluation = new PromotionEvaluation({} as DataSource, usages, groups, service, extensions, commits);
  return { evaluation, calls, commits };
}
const ctx = RequestContext.forTenant('t1');
/** A usage row of promotion p1 as the repository reads it under its lock. */
const useRow = (over: Partial<PromotionUseRow>): PromotionUseRow => ({
  id: 'p1',
  name: 'Ten',
  times_used: 1,
  usage_limit: null,
  usage_limit_per_customer: null,
  ...over,
});

const request = (over: Partial<PromotionRequest> = {}): PromotionRequest => ({
  currency: CHF,
  customerId: null,
  codes: [],
  hasDiscountCode: false,
  shipping: null,
  facts: () => Promise.resolve([]),
  variantIds: ['v1'],
  ...over,
});

describe('PromotionEvaluation', () => {
  it('null for a shop without an active promotion: nothing changes', async () => {
    const { evaluation } = setup([promotion({ startsAt: new Date(Date.now() + 60_000) })]);
    expect(await evaluation.prepare(ctx, request())).toBeNull();
  });

  it('a read that began before a change does not cache what it read: the next read sees the change', async () => {
    const rows: Promotion[] = [];
    const { evaluation, calls } = setup(rows);
    const usages = (evaluation as unknown as { usages: { current: () => Promise<Promotion[]> } }).usages;
    const current = usages.current;
    let release: () => void = () => undefined;
    // the first read sees the shop before the change, and ends only after the change's invalidation
    usages.current = () => {
      usages.current = current;
      calls.current++;
      const snapshot = [...rows];
      return new Promise((done) => (release = () => done(snapshot)));
    };
    const slow = evaluation.prepare(ctx, request());
    rows.push(promotion({}));
    evaluation.invalidate('t1');
    release();
    expect(await slow).toBeNull();
    const prepared = await evaluation.prepare(ctx, request());
    expect(calls.current).toBe(2);
    expect(prepared!.promote([priced(1000)], null).discounts[0].amount).toBe(100);
  });

  it('loads once and caches; invalidate reloads', async () => {
    const { evaluation, calls } = setup([promotion({})]);
    const prepared = await evaluation.prepare(ctx, request());
    expect(prepared!.promote([priced(1000)], null).discounts[0].amount).toBe(100);
    await evaluation.prepare(ctx, request());
    expect(calls.current).toBe(1);
    evaluation.invalidate('t1');
    await evaluation.prepare(ctx, request());
    expect(calls.current).toBe(2);
  });

  it('a buyer who used a promotion up to usage_limit_per_customer does not get it', async () => {
    const rows = [promotion({ usageLimitPerCustomer: 1 })];
    const fresh = await setup(rows).evaluation.prepare(ctx, request({ customerId: 'c1' }));
    expect(fresh!.promote([priced(1000)], null).discounts).toHaveLength(1);
    const used = await setup(rows, { used: new Map([['p1', 1]]) }).evaluation.prepare(ctx, request({ customerId: 'c1' }));
    expect(used!.promote([priced(1000)], null).discounts).toHaveLength(0);
  });

  it('a code promotion applies only with its code; the engine runs once per distinct input', async () => {
    const { evaluation } = setup([promotion({ code: 'Winter' })]);
    expect((await evaluation.byCode(ctx, 'WINTER'))?.id).toBe('p1');
    const without = await evaluation.prepare(ctx, request());
    expect(without!.promote([priced(1000)], null).discounts).toHaveLength(0);
    const withCode = await evaluation.prepare(ctx, request({ codes: ['winter'] }));
    const first = withCode!.promote([priced(1000)], null);
    expect(withCode!.promote([priced(1000)], null)).toBe(first);
    expect(withCode!.last()).toBe(first);
  });

  it('redeem: past usage_limit or the buyer limit is 422 promotion_usage_limit_reached; otherwise one usage row each', async () => {
    await expect(setup([], { taken: [useRow({ times_used: 6, usage_limit: 5 })] }).evaluation.redeem(ctx, 'o1', ['p1'], null, null)).rejects.toMatchObject({
      code: 'promotion_usage_limit_reached',
    });
    await expect(
      setup([], { taken: [useRow({ usage_limit_per_customer: 1 })], used: new Map([['p1', 1]]) }).evaluation.redeem(ctx, 'o1', ['p1'], null, 'A@x.ch'),
    ).rejects.toMatchObject({ code: 'promotion_usage_limit_reached' });
    await expect(setup([], { taken: [] }).evaluation.redeem(ctx, 'o1', ['p1'], null, null)).rejects.toMatchObject({ code: 'promotion_unavailable' });
    const ok = setup([promotion({ usageLimit: 5 })], { taken: [useRow({ times_used: 5, usage_limit: 5 })] });
    await ok.evaluation.active(ctx);
    await ok.evaluation.redeem(ctx, 'o1', ['p1', 'p1'], 'c1', null);
    expect(ok.calls.recorded).toEqual([['p1']]);
    await ok.evaluation.active(ctx);
    expect(ok.calls.current).toBe(2); // a limited promotion's use reloads the active set
    const unlimited = setup([promotion({})], { taken: [useRow({})] });
    await unlimited.evaluation.active(ctx);
    await unlimited.evaluation.redeem(ctx, 'o1', ['p1'], 'c1', null);
    await unlimited.evaluation.active(ctx);
    expect(unlimited.calls.current).toBe(1);
  });

  it('refuseDropped: a shown promotion used up (or by this buyer) is promotion_usage_limit_reached; ended, deleted or not holding is promotion_unavailable', async () => {
    const refuse = (taken: PromotionUseRow[], used?: Map<string, number>, email: string | null = 'a@x.ch') =>
      setup([], { taken, used }).evaluation.refuseDropped(ctx, ['p1'], null, email);
    await expect(refuse([useRow({ times_used: 5, usage_limit: 5 })])).rejects.toMatchObject({ code: 'promotion_usage_limit_reached' });
    await expect(refuse([useRow({ usage_limit_per_customer: 1 })], new Map([['p1', 1]]))).rejects.toMatchObject({ code: 'promotion_usage_limit_reached' });
    // the buyer's limit counts only for a known buyer, and only once reached
    await expect(refuse([useRow({ usage_limit_per_customer: 1 })], new Map([['p1', 1]]), null)).rejects.toMatchObject({ code: 'promotion_unavailable' });
    await expect(refuse([useRow({ usage_limit_per_customer: 2 })], new Map([['p1', 1]]))).rejects.toMatchObject({ code: 'promotion_unavailable' });
    await expect(refuse([useRow({ times_used: 4, usage_limit: 5 })])).rejects.toMatchObject({
      code: 'promotion_unavailable',
      message: expect.stringContaining('"Ten"'),
    });
    await expect(refuse([])).rejects.toMatchObject({ code: 'promotion_unavailable' });
  });

  it('a limited promotion used in a transaction is reloaded again after the commit: a read between the use and the commit is not kept', async () => {
    const row: PromotionUseRow = { id: 'p1', name: 'Ten', times_used: 5, usage_limit: 5, usage_limit_per_customer: null };
    const { evaluation, calls, commits } = setup([promotion({ usageLimit: 5 })], { taken: [row] });
    const state = { isTransactionActive: true };
    const runner = state as unknown as QueryRunner;
    const tx = ctx.withManager({ queryRunner: runner } as EntityManager);
    await evaluation.redeem(tx, 'o1', ['p1'], null, null);
    // another request reads before the commit: it sees the counts as they were and keeps them
    await evaluation.active(ctx);
    await evaluation.active(ctx);
    expect(calls.current).toBe(1);
    // a released savepoint is not the commit
    commits.afterTransactionCommit(runner);
    await evaluation.active(ctx);
    expect(calls.current).toBe(1);
    state.isTransactionActive = false;
    commits.afterTransactionCommit(runner);
    await evaluation.active(ctx);
    expect(calls.current).toBe(2);
    // once: a later commit of the same runner reloads nothing more
    commits.afterTransactionCommit(runner);
    await evaluation.active(ctx);
    expect(calls.current).toBe(2);
    // a rolled-back transaction forgets its pending reload
    const otherState = { isTransactionActive: true };
    const other = otherState as unknown as QueryRunner;
    await evaluation.redeem(ctx.withManager({ queryRunner: other } as EntityManager), 'o2', ['p1'], null, null);
    await evaluation.active(ctx);
    otherState.isTransactionActive = false;
    commits.afterTransactionRollback(other);
    commits.afterTransactionCommit(other);
    await evaluation.active(ctx);
    expect(calls.current).toBe(3);
  });

  it("caches the lines' catalogue facts per variant: a second read loads only the variants not seen yet", async () => {
    const { evaluation } = setup([promotion({})]);
    const asked: string[][] = [];
    const facts = (ids: string[]) => {
      asked.push(ids);
      const none: string[] = [];
      return Promise.resolve(
        ids.map((id) => ({
          variant_id: id,
          product_id: 'p',
          manufacturer_id: null,
          category_ids: none,
          collection_ids: none,
          colour: none,
          country: none,
          region: none,
          vintage: none,
          size: none,
          options: [],
        })),
      );
    };
    await evaluation.prepare(ctx, request({ variantIds: ['v1', 'v2'], facts }));
    await evaluation.prepare(ctx, request({ variantIds: ['v2', 'v3'], facts }));
    expect(asked).toEqual([['v1', 'v2'], ['v3']]);
  });

  it('reads of the same input share one frozen answer; another cart, buyer or code, or an admin change, gets its own', async () => {
    const { evaluation } = setup([promotion({})]);
    const read = async (over: Partial<PromotionRequest> = {}, lines = [priced(1000)]) => (await evaluation.prepare(ctx, request(over)))!.promote(lines, null);
    const first = await read();
    expect(await read()).toBe(first);
    expect(Object.isFrozen(first.lines[0].promotions)).toBe(true);
    expect(() => (first.discounts as unknown[]).push({})).toThrow(TypeError);
    expect(await read({}, [priced(1000, 2)])).not.toBe(first);
    expect(await read({ customerId: 'c1' })).not.toBe(first);
    expect(await read({ codes: ['X'] })).not.toBe(first);
    expect(await read({ currency: { ...CHF, id: 'eur', code: 'EUR' } })).not.toBe(first);
    expect(await read()).toBe(first);
    evaluation.invalidate('t1');
    const after = await read();
    expect(after).not.toBe(first);
    expect(after).toEqual(first);
  });

  it("answers are not shared when an extension's hooks or a per-customer limit are involved", async () => {
    const custom = setup([promotion({ conditions: [{ type: 'custom', name: 'club', params: {} }] })]);
    const hooked = async () => (await custom.evaluation.prepare(ctx, request()))!.promote([priced(1000)], null);
    expect(await hooked()).not.toBe(await hooked());
    const limited = setup([promotion({ usageLimitPerCustomer: 1 }), promotion({ id: 'p2' })], { used: new Map([['p1', 1]]) });
    const used = async () => (await limited.evaluation.prepare(ctx, request({ customerId: 'c1' })))!.promote([priced(1000)], null);
    expect(await used()).not.toBe(await used());
  });

  it('buyerKey: the customer, else the lower-cased email, else none', () => {
    expect(buyerKey('c1', 'a@x.ch')).toBe('customer:c1');
    expect(buyerKey(null, ' A@X.ch ')).toBe('email:a@x.ch');
    expect(buyerKey(null, null)).toBeNull();
  });
});
