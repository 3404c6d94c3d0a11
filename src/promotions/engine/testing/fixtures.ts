/** Small builders for the engine's specs (not part of the public surface). */
import { compilePromotions } from '../compile.js';
import { evaluatePromotions } from '../evaluate.js';
import type { EngineCart, EngineHooks, EngineLine, EngineResult, PromotionDefinition } from '../types.js';

export function line(variantId: string, unit: number, quantity = 1, extra: Partial<EngineLine> = {}): EngineLine {
  return {
    variantId,
    productId: extra.productId ?? `P-${variantId}`,
    collectionIds: [],
    categoryIds: [],
    manufacturerId: null,
    facets: {},
    customFields: {},
    quantity,
    unit,
    amount: Math.round(unit * quantity),
    ...extra,
  };
}

export function cart(lines: EngineLine[], extra: Partial<EngineCart> = {}): EngineCart {
  return { lines, customer: null, guestFirstOrder: false, shipping: null, codes: [], hasDiscountCode: false, ...extra };
}

let seq = 0;
export function promo(def: Partial<PromotionDefinition> & Pick<PromotionDefinition, 'actions'>): PromotionDefinition {
  seq++;
  return {
    id: def.id ?? `promo-${String(seq).padStart(4, '0')}`,
    name: def.name ?? `Promotion ${seq}`,
    priority: def.priority ?? 0,
    combinesWith: def.combinesWith ?? { product: false, order: false, shipping: false, discount_codes: false },
    conditions: def.conditions ?? [],
    actions: def.actions,
  };
}

export const ALL_COMBINE = { product: true, order: true, shipping: true, discount_codes: true };

export function run(defs: PromotionDefinition[], c: EngineCart, hooks?: EngineHooks): EngineResult {
  return evaluatePromotions(compilePromotions(defs), c, hooks);
}

/** The discount of each input line. */
export function lineDiscounts(r: EngineResult): number[] {
  return r.lines.map((l) => l.discount);
}
