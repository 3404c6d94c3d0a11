/**
 * Properties of the engine over 10,000 seeded random carts and promotion sets: the answer does not depend on the
 * order of the lines; no line, order or shipping total goes below zero; the discount never exceeds the subtotal;
 * every pair of applied promotions is allowed to combine (or, both product promotions, touch different lines); the
 * parts add up.
 */
import { compilePromotions } from './compile.js';
import { evaluatePromotions } from './evaluate.js';
import type { CombinesWith, EngineCart, EngineLine, LineSelector, PromotionAction, PromotionCondition, PromotionDefinition } from './types.js';

/** mulberry32: a small seeded generator, so a failure replays. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CASES = 10_000;

describe('promotions engine properties', () => {
  it(`holds over ${CASES.toLocaleString('en')} random carts and promotion sets`, () => {
    const rand = rng(20261126);
    const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
    const pick = <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)];
    const colours = ['red', 'white', 'rose'];
    const products = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'];

    const selector = (): LineSelector =>
      pick<() => LineSelector>([
        () => [{ type: 'product', ids: [pick(products), pick(products)] }],
        () => [{ type: 'facet', facet: 'colour', values: [pick(colours)] }],
        () => [{ type: 'collection', ids: ['c1'] }],
        () => [{ type: 'manufacturer', ids: ['m1', 'm2'] }],
      ])();
    const flag = () => rand() < 0.5;
    const combines = (): CombinesWith => ({ product: flag(), order: flag(), shipping: flag(), discount_codes: flag() });
    const action = (cls: number): PromotionAction => {
      if (cls === 1) return rand() < 0.5 ? { type: 'percent_off_order', percent: int(1, 100) } : { type: 'fixed_off_order', amount: int(1, 30000) };
      if (cls === 2)
        return {
          type: 'shipping',
          percent: rand() < 0.5 ? int(1, 100) : null,
          amount: rand() < 0.5 ? int(1, 2000) : null,
          method_ids: rand() < 0.3 ? ['m1'] : [],
          countries: [],
        };
      return pick<() => PromotionAction>([
        () => ({ type: 'percent_off_lines', percent: int(1, 100) }),
        () => ({ type: 'fixed_off_lines', amount: int(1, 5000) }),
        () => ({ type: 'set_price', size: int(2, 6), price: int(0, 20000) }),
        () => ({ type: 'set_percent', size: int(2, 12), percent: int(1, 100) }),
        () => {
          const n = int(2, 6);
          return { type: 'n_for_m', n, m: int(1, n - 1), free: flag() ? 'cheapest' : 'most_expensive' };
        },
        () => ({
          type: 'buy_x_get_y',
          buy: selector(),
          buy_quantity: int(1, 3),
          get: selector(),
          get_quantity: int(1, 2),
          percent: int(1, 100),
          max_applications: flag() ? int(1, 3) : null,
        }),
      ])();
    };
    const condition = (): PromotionCondition =>
      pick<() => PromotionCondition>([
        () => ({ type: 'lines', selector: selector() }),
        () => ({ type: 'min_quantity', quantity: int(1, 8) }),
        () => ({ type: 'min_subtotal', amount: int(0, 40000) }),
        () => ({ type: 'customer_signed_in' }),
        () => ({ type: 'first_order' }),
      ])();
    const promotion = (k: number): PromotionDefinition => {
      const cls = rand() < 0.6 ? 0 : rand() < 0.6 ? 1 : 2;
      return {
        id: `promo-${k}`,
        name: `P${k}`,
        priority: int(0, 3),
        combinesWith: combines(),
        conditions: Array.from({ length: int(0, 2) }, condition),
        actions: Array.from({ length: int(1, 2) }, () => action(cls)),
      };
    };
    const cartLine = (k: number): EngineLine => {
      const quantity = rand() < 0.1 ? int(1, 30) / 4 : int(1, 12);
      const unit = int(0, 9000);
      return {
        variantId: `v${k}`,
        productId: pick(products),
        collectionIds: flag() ? ['c1'] : [],
        categoryIds: [],
        manufacturerId: pick([null, 'm1', 'm2']),
        facets: { colour: [pick(colours)] },
        customFields: {},
        quantity,
        unit,
        amount: Math.round(unit * quantity),
      };
    };

    const failures: string[] = [];
    let checked = 0;
    for (let n = 0; n < CASES; n++) {
      const defs = Array.from({ length: int(0, 8) }, (_, k) => promotion(k));
      const lines = Array.from({ length: int(0, 10) }, (_, k) => cartLine(k));
      const cart: EngineCart = {
        lines,
        customer: flag() ? { id: 'c', groupIds: [], firstOrder: flag() } : null,
        guestFirstOrder: flag(),
        shipping: flag() ? { methodId: pick(['m1', 'm2']), country: 'CH', amount: int(0, 3000) } : null,
        codes: [],
        hasDiscountCode: rand() < 0.2,
      };
      const compiled = compilePromotions(defs);
      const result = evaluatePromotions(compiled, cart);
      const fail = (what: string) => failures.length < 20 && failures.push(`case ${n}: ${what}`);

      // permutation invariance (the variant ids are unique within a cart)
      const perm = lines.map((_, i) => i).sort(() => rand() - 0.5);
      const permuted = evaluatePromotions(compiled, { ...cart, lines: perm.map((i) => lines[i]) });
      if (JSON.stringify([perm.map((i) => result.lines[i]), result.discounts]) !== JSON.stringify([permuted.lines, permuted.discounts]))
        fail('depends on the order of the lines');

      const subtotal = lines.reduce((s, l) => s + l.amount, 0);
      result.lines.forEach((l, i) => {
        if (l.discount < 0 || l.discount > lines[i].amount) fail(`line ${i} discount ${l.discount} of ${lines[i].amount}`);
        if (l.promotions.reduce((s, p) => s + p.amount, 0) !== l.discount) fail(`line ${i} parts do not add up`);
        if (l.promotions.some((p) => p.amount <= 0)) fail(`line ${i} has an empty part`);
      });
      if (result.linesDiscount > subtotal) fail('discount above the subtotal');
      if (result.linesDiscount !== result.lines.reduce((s, l) => s + l.discount, 0)) fail('lines do not add up');
      if (result.shippingDiscount < 0 || result.shippingDiscount > (cart.shipping?.amount ?? 0)) fail('shipping below zero');
      if (result.discounts.reduce((s, d) => s + d.amount, 0) !== result.linesDiscount + result.shippingDiscount) fail('discounts do not add up');
      checked += result.discounts.length;

      // combining rules
      const byId = new Map(defs.map((d) => [d.id, d]));
      for (const x of result.discounts) {
        if (cart.hasDiscountCode && !byId.get(x.promotionId)!.combinesWith.discount_codes) fail(`${x.promotionId} with a discount code`);
        for (const y of result.discounts) {
          if (x === y) continue;
          const mutual = byId.get(x.promotionId)!.combinesWith[y.promotionClass] && byId.get(y.promotionId)!.combinesWith[x.promotionClass];
          if (mutual) continue;
          if (x.promotionClass !== 'product' || y.promotionClass !== 'product') fail(`${x.promotionId} and ${y.promotionId} do not combine`);
          const shared = result.lines.some(
            (l) => l.promotions.some((p) => p.promotionId === x.promotionId) && l.promotions.some((p) => p.promotionId === y.promotionId),
          );
          if (shared) fail(`${x.promotionId} and ${y.promotionId} share a line`);
        }
      }
    }
    expect(failures).toEqual([]);
    // the sets are not trivial: many promotions apply
    expect(checked).toBeGreaterThan(CASES);
  });
});
