import { ALL_COMBINE, cart, line, lineDiscounts, promo, run } from './testing/fixtures.js';
import type { LineSelector, PromotionAction } from './types.js';

const reds: LineSelector = [{ type: 'facet', facet: 'colour', values: ['red'] }];
const red = (id: string, unit: number, qty = 1) => line(id, unit, qty, { facets: { colour: ['red'] } });
const white = (id: string, unit: number, qty = 1) => line(id, unit, qty, { facets: { colour: ['white'] } });

function onReds(action: PromotionAction) {
  return promo({ conditions: [{ type: 'lines', selector: reds }], actions: [action] });
}

describe('line actions', () => {
  it('percent off the matching lines, rounded once per line', () => {
    const r = run([onReds({ type: 'percent_off_lines', percent: 15 })], cart([red('a', 1999, 3), white('b', 1000)]));
    expect(lineDiscounts(r)).toEqual([900, 0]); // 5997 x 15% = 899.55
    expect(r.discounts).toEqual([expect.objectContaining({ amount: 900, lines: 900, shipping: 0, promotionClass: 'product' })]);
  });

  it('fixed off each matching unit, never below zero', () => {
    expect(lineDiscounts(run([onReds({ type: 'fixed_off_lines', amount: 200 })], cart([red('a', 1000, 3), red('b', 150)])))).toEqual([600, 150]);
  });

  it('a set price: 6 for 60.00, the dearest units form the sets, the rest pays full price', () => {
    // 4 x 12.00 and 4 x 11.00: one set of the 4 dearest + 2 of the next: 70.00 -> 60.00; 2 x 11.00 left
    const r = run([onReds({ type: 'set_price', size: 6, price: 6000 })], cart([red('b', 1100, 4), red('a', 1200, 4)]));
    expect(r.linesDiscount).toBe(7000 - 6000);
    // spread pro rata: 4800/7000 and 2200/7000 of 1000
    expect(lineDiscounts(r)).toEqual([314, 686]);
  });

  it('a set price above the set value gives nothing', () => {
    expect(run([onReds({ type: 'set_price', size: 2, price: 5000 })], cart([red('a', 1000, 2)])).linesDiscount).toBe(0);
  });

  it('a percent on each full set (mixed case of 12 at 10%)', () => {
    const lines = [red('a', 1000, 7), red('b', 2000, 6)]; // 13 units: the case is 6 x 20.00 + 6 x 10.00
    const r = run([onReds({ type: 'set_percent', size: 12, percent: 10 })], cart(lines));
    expect(r.linesDiscount).toBe(1800);
    expect(lineDiscounts(r)).toEqual([600, 1200]);
    expect(run([onReds({ type: 'set_percent', size: 12, percent: 10 })], cart([red('a', 1000, 11)])).linesDiscount).toBe(0);
  });

  it('6 for the price of 5, cheapest free: in each group of 6 (dearest first) the cheapest unit', () => {
    const lines = [red('a', 1000, 5), red('b', 800, 4), red('c', 3000, 3)];
    // 12 units by price: 3x30, 5x10, 4x8 -> groups [30,30,30,10,10,10] [10,10,8,8,8,8]: free 10 and 8
    const r = run([onReds({ type: 'n_for_m', n: 6, m: 5, free: 'cheapest' })], cart(lines));
    expect(lineDiscounts(r)).toEqual([1000, 800, 0]);
  });

  it('n for m, most expensive free', () => {
    const lines = [red('a', 1000, 5), red('b', 800, 4), red('c', 3000, 3)];
    const r = run([onReds({ type: 'n_for_m', n: 6, m: 5, free: 'most_expensive' })], cart(lines));
    expect(lineDiscounts(r)).toEqual([1000, 0, 3000]);
  });

  it('whole units only: a line sold by weight counts its whole units', () => {
    const r = run([onReds({ type: 'n_for_m', n: 2, m: 1, free: 'cheapest' })], cart([red('a', 1000, 1.5), red('b', 1000, 0.5)]));
    expect(r.linesDiscount).toBe(0);
  });
});

describe('buy X get Y', () => {
  const barolo = (qty: number) => line('barolo', 6000, qty, { productId: 'p-barolo' });
  const langhe = (qty: number) => line('langhe', 2500, qty, { productId: 'p-langhe' });
  const action = (max: number | null, percent = 100): PromotionAction => ({
    type: 'buy_x_get_y',
    buy: [{ type: 'product', ids: ['p-barolo'] }],
    buy_quantity: 2,
    get: [{ type: 'product', ids: ['p-langhe'] }],
    get_quantity: 1,
    percent,
    max_applications: max,
  });

  it('gives the Y units free, at most max_applications times', () => {
    expect(lineDiscounts(run([promo({ actions: [action(1)] })], cart([barolo(4), langhe(3)])))).toEqual([0, 2500]);
    expect(lineDiscounts(run([promo({ actions: [action(null)] })], cart([barolo(4), langhe(3)])))).toEqual([0, 5000]);
    expect(lineDiscounts(run([promo({ actions: [action(null, 50)] })], cart([barolo(2), langhe(1)])))).toEqual([0, 1250]);
  });

  it('not without the X units', () => {
    const r = run([promo({ actions: [action(null)] })], cart([barolo(1), langhe(2)]));
    expect(r.linesDiscount).toBe(0);
    expect(r.suggestedGifts).toEqual([]);
  });

  it('suggests the gift when the X units are there but the Y units are not', () => {
    const p = promo({ actions: [action(1)] });
    const r = run([p], cart([barolo(2)]));
    expect(r.linesDiscount).toBe(0);
    expect(r.suggestedGifts).toEqual([{ promotionId: p.id, name: p.name, selector: [{ type: 'product', ids: ['p-langhe'] }], quantity: 1 }]);
  });

  it('with one selector for both, the cheapest of each group is the gift (buy 2 get 1)', () => {
    const any: LineSelector = reds;
    const p = promo({
      actions: [{ type: 'buy_x_get_y', buy: any, buy_quantity: 2, get: any, get_quantity: 1, percent: 100, max_applications: null }],
    });
    expect(lineDiscounts(run([p], cart([red('a', 3000, 2), red('b', 1000, 1)])))).toEqual([0, 1000]);
  });
});

describe('order and shipping actions', () => {
  it('percent off the order, spread over the lines by largest remainder', () => {
    const r = run([promo({ actions: [{ type: 'percent_off_order', percent: 10 }] })], cart([line('a', 333), line('b', 333), line('c', 334)]));
    expect(r.linesDiscount).toBe(100);
    expect(lineDiscounts(r)).toEqual([33, 33, 34]);
    expect(r.discounts[0].promotionClass).toBe('order');
  });

  it('fixed off the order, capped at the subtotal', () => {
    expect(run([promo({ actions: [{ type: 'fixed_off_order', amount: 5000 }] })], cart([line('a', 1200), line('b', 800)])).linesDiscount).toBe(2000);
  });

  it('an order promotion applies on what the product promotions left', () => {
    const p = promo({ combinesWith: ALL_COMBINE, actions: [{ type: 'percent_off_lines', percent: 50 }] });
    const o = promo({ combinesWith: ALL_COMBINE, actions: [{ type: 'percent_off_order', percent: 10 }] });
    const r = run([o, p], cart([line('a', 1000)]));
    expect(r.discounts.map((d) => d.amount)).toEqual(o.id < p.id ? [50, 500] : [500, 50]);
    expect(r.linesDiscount).toBe(550);
  });

  const shipping = (methodId: string, country: string) => ({ methodId, country, amount: 1500 });
  const free = (method_ids: string[], countries: string[]): PromotionAction => ({ type: 'shipping', percent: 100, amount: null, method_ids, countries });

  it('free shipping, by method or by destination', () => {
    expect(run([promo({ actions: [free([], [])] })], cart([line('a', 100)], { shipping: shipping('post', 'CH') })).shippingDiscount).toBe(1500);
    expect(run([promo({ actions: [free(['post'], [])] })], cart([line('a', 100)], { shipping: shipping('dhl', 'CH') })).shippingDiscount).toBe(0);
    expect(run([promo({ actions: [free([], ['CH'])] })], cart([line('a', 100)], { shipping: shipping('dhl', 'CH') })).shippingDiscount).toBe(1500);
    expect(run([promo({ actions: [free([], ['DE'])] })], cart([line('a', 100)], { shipping: shipping('dhl', 'CH') })).shippingDiscount).toBe(0);
    expect(run([promo({ actions: [free([], [])] })], cart([line('a', 100)])).shippingDiscount).toBe(0);
  });

  it('discounted shipping: a percent or an amount, never below zero', () => {
    const c = cart([line('a', 100)], { shipping: shipping('post', 'CH') });
    const pct = run([promo({ actions: [{ type: 'shipping', percent: 50, amount: null, method_ids: [], countries: [] }] })], c);
    expect(pct.shippingDiscount).toBe(750);
    expect(pct.discounts[0]).toEqual(expect.objectContaining({ promotionClass: 'shipping', shipping: 750, lines: 0 }));
    expect(run([promo({ actions: [{ type: 'shipping', percent: null, amount: 9900, method_ids: [], countries: [] }] })], c).shippingDiscount).toBe(1500);
  });

  it('a custom action through the hooks, capped at each line', () => {
    const hooks = { actions: new Map([['half_off', (_p: Record<string, unknown>, ls: readonly { amount: number }[]) => ls.map((l) => l.amount * 2)]]) };
    const r = run([promo({ actions: [{ type: 'custom', name: 'half_off', params: {} }] })], cart([line('a', 1000)]), hooks);
    expect(r.linesDiscount).toBe(1000);
  });
});

describe('line results', () => {
  it('name each promotion on each line, in the input order of the lines', () => {
    const p = promo({ name: '10% on reds', conditions: [{ type: 'lines', selector: reds }], actions: [{ type: 'percent_off_lines', percent: 10 }] });
    const r = run([p], cart([white('w', 1000), red('r', 2000)]));
    expect(r.lines).toEqual([
      { discount: 0, promotions: [] },
      { discount: 200, promotions: [{ promotionId: p.id, name: '10% on reds', amount: 200 }] },
    ]);
  });
});
