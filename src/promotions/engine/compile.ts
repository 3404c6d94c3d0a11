/**
 * Precompiling promotions for evaluation: each promotion's selectors become sets of line keys, and an index maps a
 * line key to the promotions anchored on it, so a cart only looks at the promotions its lines can match (never all
 * promotions per line). A promotion's anchor is its first `lines` condition (else a buy-X-get-Y's `buy` selector);
 * a promotion without one (order-level, shipping, customer-only) is a candidate for every cart.
 */
import { ORDER_ACTIONS, PRODUCT_ACTIONS } from './types.js';
import type { EngineLine, LineSelector, PromotionAction, PromotionClass, PromotionCondition, PromotionDefinition } from './types.js';

/** A selector as the set of line keys any one of which makes a line match. */
export type CompiledSelector = ReadonlySet<string>;

export interface CompiledPromotion {
  def: PromotionDefinition;
  /** Position in rank order: priority descending, then id ascending (the tie-break everywhere). */
  rank: number;
  promotionClass: PromotionClass;
  /** The `lines` conditions: a matching line matches every one. Empty: every line matches. */
  lineSelectors: CompiledSelector[];
  /** The key set the index anchors this promotion on (null: unanchored). */
  anchor: CompiledSelector | null;
  /** Selectors of buy-X-get-Y actions, by action index. */
  actionSelectors: Map<number, { buy: CompiledSelector; get: CompiledSelector }>;
  otherConditions: PromotionCondition[];
  minQuantity: number | null;
  minSubtotal: number | null;
  /** Upper-cased codes the buyer must have entered (all of them). */
  codes: string[];
}

export interface CompiledPromotions {
  list: CompiledPromotion[];
  byKey: ReadonlyMap<string, readonly number[]>;
  unanchored: readonly number[];
}

/** The class of an action: what it reduces. */
export function actionClass(action: PromotionAction): PromotionClass {
  if ((PRODUCT_ACTIONS as readonly string[]).includes(action.type)) return 'product';
  if ((ORDER_ACTIONS as readonly string[]).includes(action.type)) return 'order';
  return 'shipping';
}

/** A promotion's class (all its actions share one); null when it has none or mixes classes (invalid). */
export function promotionClass(def: Pick<PromotionDefinition, 'actions'>): PromotionClass | null {
  const classes = new Set(def.actions.map(actionClass));
  return classes.size === 1 ? [...classes][0] : null;
}

export function compileSelector(selector: LineSelector): CompiledSelector {
  const keys = new Set<string>();
  for (const m of selector) {
    switch (m.type) {
      case 'product':
        m.ids.forEach((id) => keys.add(`p:${id}`));
        break;
      case 'variant':
        m.ids.forEach((id) => keys.add(`v:${id}`));
        break;
      case 'collection':
        m.ids.forEach((id) => keys.add(`c:${id}`));
        break;
      case 'category':
        m.ids.forEach((id) => keys.add(`k:${id}`));
        break;
      case 'manufacturer':
        m.ids.forEach((id) => keys.add(`m:${id}`));
        break;
      case 'facet':
        m.values.forEach((v) => keys.add(`f:${m.facet}=${v}`));
        break;
      case 'custom_field':
        m.values.forEach((v) => keys.add(`x:${m.key}=${v}`));
        break;
    }
  }
  return keys;
}

/** Every key a line can be matched by (the same spelling as `compileSelector`). */
export function lineKeys(line: EngineLine): string[] {
  const keys = [`p:${line.productId}`, `v:${line.variantId}`];
  for (const id of line.collectionIds) keys.push(`c:${id}`);
  for (const id of line.categoryIds) keys.push(`k:${id}`);
  if (line.manufacturerId) keys.push(`m:${line.manufacturerId}`);
  for (const [facet, values] of Object.entries(line.facets)) for (const v of values ?? []) keys.push(`f:${facet}=${v}`);
  for (const [key, value] of Object.entries(line.customFields)) {
    if (typeof value === 'string') keys.push(`x:${key}=${value}`);
    else for (const v of value) keys.push(`x:${key}=${v}`);
  }
  return keys;
}

export function selectorMatches(selector: CompiledSelector, keys: readonly string[]): boolean {
  for (const k of keys) if (selector.has(k)) return true;
  return false;
}

/** Rank order: priority descending, then id ascending. */
export function byRank(a: PromotionDefinition, b: PromotionDefinition): number {
  return b.priority - a.priority || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export function compilePromotions(defs: readonly PromotionDefinition[]): CompiledPromotions {
  const sorted = [...defs].sort(byRank);
  const byKey = new Map<string, number[]>();
  const unanchored: number[] = [];
  const list = sorted.map((def, rank): CompiledPromotion => {
    const cls = promotionClass(def);
    if (!cls) throw new Error(`promotion ${def.id}: its actions must all be of one class`);
    const lineSelectors: CompiledSelector[] = [];
    const otherConditions: PromotionCondition[] = [];
    let minQuantity: number | null = null;
    let minSubtotal: number | null = null;
    const codes: string[] = [];
    for (const c of def.conditions) {
      if (c.type === 'lines') lineSelectors.push(compileSelector(c.selector));
      else if (c.type === 'min_quantity') minQuantity = Math.max(minQuantity ?? 0, c.quantity);
      else if (c.type === 'min_subtotal') minSubtotal = Math.max(minSubtotal ?? 0, c.amount);
      else if (c.type === 'code') codes.push(c.code.toUpperCase());
      else otherConditions.push(c);
    }
    const actionSelectors = new Map<number, { buy: CompiledSelector; get: CompiledSelector }>();
    def.actions.forEach((a, i) => {
      if (a.type === 'buy_x_get_y') actionSelectors.set(i, { buy: compileSelector(a.buy), get: compileSelector(a.get) });
    });
    const anchor = lineSelectors[0] ?? [...actionSelectors.values()][0]?.buy ?? null;
    if (anchor) {
      for (const key of anchor) {
        let at = byKey.get(key);
        if (!at) byKey.set(key, (at = []));
        at.push(rank);
      }
    } else unanchored.push(rank);
    return { def, rank, promotionClass: cls, lineSelectors, anchor, actionSelectors, otherConditions, minQuantity, minSubtotal, codes };
  });
  return { list, byKey, unanchored };
}
