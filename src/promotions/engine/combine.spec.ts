import { ALL_COMBINE, cart, line, lineDiscounts, promo, run } from './testing/fixtures.js';
import type { CombinesWith, PromotionAction, PromotionCondition } from './types.js';

const NONE: CombinesWith = { product: false, order: false, shipping: false, discount_codes: false };
const onProduct = (id: string): PromotionCondition[] => [{ type: 'lines', selector: [{ type: 'product', ids: [id] }] }];
const pct = (percent: number): PromotionAction => ({ type: 'percent_off_lines', percent });
const orderPct = (percent: number): PromotionAction => ({ type: 'percent_off_order', percent });

describe('combining promotions', () => {
  const a = line('a', 1000, 1, { productId: 'pa' });
  const b = line('b', 2000, 1, { productId: 'pb' });

  it('of two order promotions that do not combine, the larger applies', () => {
    const small = promo({ priority: 10, actions: [orderPct(5)] });
    const big = promo({ priority: 0, actions: [orderPct(20)] });
    const r = run([small, big], cart([a, b]));
    expect(r.discounts.map((d) => d.promotionId)).toEqual([big.id]);
    expect(r.linesDiscount).toBe(600);
  });

  it('product promotions that do not combine still apply together on different lines', () => {
    const r = run([promo({ conditions: onProduct('pa'), actions: [pct(10)] }), promo({ conditions: onProduct('pb'), actions: [pct(20)] })], cart([a, b]));
    expect(lineDiscounts(r)).toEqual([100, 400]);
  });

  it('on the same line, the larger of two non-combining product promotions', () => {
    const r = run([promo({ conditions: onProduct('pa'), actions: [pct(10)] }), promo({ conditions: onProduct('pa'), actions: [pct(30)] })], cart([a]));
    expect(lineDiscounts(r)).toEqual([300]);
    expect(r.lines[0].promotions).toHaveLength(1);
  });

  it('both apply when each names the other class; one-sided is not enough', () => {
    const productCombines = { ...NONE, order: true };
    const orderCombines = { ...NONE, product: true };
    const both = run(
      [promo({ combinesWith: productCombines, actions: [pct(10)] }), promo({ combinesWith: orderCombines, actions: [orderPct(10)] })],
      cart([a]),
    );
    expect(both.discounts).toHaveLength(2);
    expect(both.linesDiscount).toBe(100 + 90);
    const oneSided = run([promo({ combinesWith: productCombines, actions: [pct(10)] }), promo({ combinesWith: NONE, actions: [orderPct(20)] })], cart([a]));
    expect(oneSided.discounts).toHaveLength(1);
    expect(oneSided.linesDiscount).toBe(200);
  });

  it('stacked product promotions never take a line below zero', () => {
    const r = run([promo({ combinesWith: ALL_COMBINE, actions: [pct(70)] }), promo({ combinesWith: ALL_COMBINE, actions: [pct(70)] })], cart([a]));
    expect(lineDiscounts(r)).toEqual([1000]);
    expect(r.discounts.map((d) => d.amount).sort()).toEqual([300, 700]);
  });

  it('searches beyond greedy: two smaller compatible promotions beat one larger that excludes both', () => {
    const alone = promo({ priority: 100, actions: [orderPct(10)] }); // 300, combines with nothing
    const p1 = promo({ combinesWith: { ...NONE, product: true }, conditions: onProduct('pa'), actions: [pct(20)] }); // 200
    const p2 = promo({ combinesWith: { ...NONE, product: true }, conditions: onProduct('pb'), actions: [pct(10)] }); // 200
    const r = run([alone, p1, p2], cart([a, b]));
    expect(r.discounts.map((d) => d.promotionId).sort()).toEqual([p1.id, p2.id].sort());
    expect(r.linesDiscount).toBe(400);
  });

  it('ties go to the higher priority, then the smaller id', () => {
    const low = promo({ id: 'a-low', priority: 1, actions: [orderPct(10)] });
    const high = promo({ id: 'z-high', priority: 5, actions: [orderPct(10)] });
    expect(run([low, high], cart([a])).discounts[0].promotionId).toBe('z-high');
    const x = promo({ id: 'x', actions: [orderPct(10)] });
    const y = promo({ id: 'y', actions: [orderPct(10)] });
    expect(run([y, x], cart([a])).discounts[0].promotionId).toBe('x');
  });

  it('shipping and order promotions stack only as their combines_with say', () => {
    const ship = { methodId: 'post', country: 'CH', amount: 900 };
    const free = promo({ combinesWith: { ...NONE, order: true }, actions: [{ type: 'shipping', percent: 100, amount: null, method_ids: [], countries: [] }] });
    const order = promo({ combinesWith: { ...NONE, shipping: true }, actions: [orderPct(10)] });
    const r = run([free, order], cart([a], { shipping: ship }));
    expect([r.linesDiscount, r.shippingDiscount]).toEqual([100, 900]);
    const lone = promo({ combinesWith: NONE, actions: [orderPct(10)] });
    const r2 = run([free, lone], cart([a], { shipping: ship }));
    expect([r2.linesDiscount, r2.shippingDiscount]).toEqual([0, 900]);
  });
});
