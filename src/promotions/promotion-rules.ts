/**
 * The wire form of a promotion's `conditions` and `actions` (admin API, import, export): the engine's types
 * (./engine/types.ts) with money as decimals of the shop's default currency. `parseRules` checks a body member by
 * member (the first problem is a 422 naming it, e.g. `actions[0].percent`); `toEngineRules` turns the stored form
 * into minor units once, when the promotions are compiled.
 */
import { toMinor, unitMinor } from '../pricing/index.js';
import { LINE_FACETS } from './engine/types.js';
import type { LineMatcher, LineSelector, PromotionAction, PromotionCondition } from './engine/types.js';

const MAX_AMOUNT = 1_000_000_000;
const MAX_COUNT = 10_000;
const MAX_IDS = 1_000;

export class RuleError extends Error {}

type Obj = Record<string, unknown>;

function obj(v: unknown, at: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new RuleError(`${at} must be an object`);
  return v as Obj;
}

function amount(v: unknown, at: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > MAX_AMOUNT || Math.round(v * 10_000) !== v * 10_000)
    throw new RuleError(`${at} must be a decimal amount from 0 with at most 4 decimals`);
  return v;
}

function percent(v: unknown, at: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || v > 100 || Math.round(v * 10_000) !== v * 10_000)
    throw new RuleError(`${at} must be a percent above 0 and at most 100`);
  return v;
}

function count(v: unknown, at: string, min = 1): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > MAX_COUNT) throw new RuleError(`${at} must be an integer from ${min} to ${MAX_COUNT}`);
  return v;
}

function strings(v: unknown, at: string): string[] {
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_IDS) throw new RuleError(`${at} must be a non-empty list of at most ${MAX_IDS}`);
  return v.map((s, i) => {
    if (typeof s !== 'string' || !s.trim() || s.length > 200) throw new RuleError(`${at}[${i}] must be a non-blank text`);
    return s.trim();
  });
}

function optionalStrings(v: unknown, at: string): string[] {
  return v === undefined || v === null || (Array.isArray(v) && v.length === 0) ? [] : strings(v, at);
}

function selector(v: unknown, at: string): LineSelector {
  if (!Array.isArray(v) || v.length === 0 || v.length > 50) throw new RuleError(`${at} must be a non-empty list of matchers`);
  return v.map((m, i): LineMatcher => {
    const o = obj(m, `${at}[${i}]`);
    const here = `${at}[${i}]`;
    switch (o.type) {
      case 'product':
      case 'variant':
      case 'collection':
      case 'category':
      case 'manufacturer':
        return { type: o.type, ids: strings(o.ids, `${here}.ids`) };
      case 'facet':
        if (!(LINE_FACETS as readonly unknown[]).includes(o.facet)) throw new RuleError(`${here}.facet must be one of ${LINE_FACETS.join(', ')}`);
        return { type: 'facet', facet: o.facet as (typeof LINE_FACETS)[number], values: strings(o.values, `${here}.values`) };
      case 'custom_field':
        return { type: 'custom_field', key: strings([o.key], `${here}.key`)[0], values: strings(o.values, `${here}.values`) };
      default:
        throw new RuleError(`${here}.type must be one of product, variant, collection, category, manufacturer, facet, custom_field`);
    }
  });
}

function condition(v: unknown, at: string): PromotionCondition {
  const o = obj(v, at);
  switch (o.type) {
    case 'min_subtotal':
      return { type: 'min_subtotal', amount: amount(o.amount, `${at}.amount`) };
    case 'min_quantity':
      return { type: 'min_quantity', quantity: count(o.quantity, `${at}.quantity`) };
    case 'lines':
      return { type: 'lines', selector: selector(o.selector, `${at}.selector`) };
    case 'customer_signed_in':
    case 'first_order':
      return { type: o.type };
    case 'customer_group':
      return { type: 'customer_group', group_ids: strings(o.group_ids, `${at}.group_ids`) };
    case 'shipping_country': {
      const countries = strings(o.countries, `${at}.countries`).map((c) => c.toUpperCase());
      if (countries.some((c) => !/^[A-Z]{2}$/.test(c))) throw new RuleError(`${at}.countries must be ISO 3166-1 alpha-2 codes`);
      return { type: 'shipping_country', countries };
    }
    case 'shipping_zone':
      return { type: 'shipping_zone', zones: strings(o.zones, `${at}.zones`) };
    case 'custom':
      return { type: 'custom', name: strings([o.name], `${at}.name`)[0], params: o.params === undefined ? {} : obj(o.params, `${at}.params`) };
    default:
      throw new RuleError(
        `${at}.type must be one of min_subtotal, min_quantity, lines, customer_signed_in, customer_group, shipping_country, shipping_zone, first_order, custom`,
      );
  }
}

function action(v: unknown, at: string): PromotionAction {
  const o = obj(v, at);
  switch (o.type) {
    case 'percent_off_lines':
    case 'percent_off_order':
      return { type: o.type, percent: percent(o.percent, `${at}.percent`) };
    case 'fixed_off_lines':
    case 'fixed_off_order':
      return { type: o.type, amount: amount(o.amount, `${at}.amount`) };
    case 'set_price':
      return { type: 'set_price', size: count(o.size, `${at}.size`, 2), price: amount(o.price, `${at}.price`) };
    case 'set_percent':
      return { type: 'set_percent', size: count(o.size, `${at}.size`, 2), percent: percent(o.percent, `${at}.percent`) };
    case 'n_for_m': {
      const n = count(o.n, `${at}.n`, 2);
      const m = count(o.m, `${at}.m`);
      if (m >= n) throw new RuleError(`${at}.m must be below n`);
      if (o.free !== undefined && o.free !== 'cheapest' && o.free !== 'most_expensive') throw new RuleError(`${at}.free must be cheapest or most_expensive`);
      return { type: 'n_for_m', n, m, free: o.free === 'most_expensive' ? 'most_expensive' : 'cheapest' };
    }
    case 'buy_x_get_y':
      return {
        type: 'buy_x_get_y',
        buy: selector(o.buy, `${at}.buy`),
        buy_quantity: count(o.buy_quantity, `${at}.buy_quantity`),
        get: selector(o.get, `${at}.get`),
        get_quantity: count(o.get_quantity, `${at}.get_quantity`),
        percent: o.percent === undefined ? 100 : percent(o.percent, `${at}.percent`),
        max_applications: o.max_applications === undefined || o.max_applications === null ? null : count(o.max_applications, `${at}.max_applications`),
      };
    case 'shipping': {
      const hasAmount = o.amount !== undefined && o.amount !== null;
      const hasPercent = o.percent !== undefined && o.percent !== null;
      if (hasAmount && hasPercent) throw new RuleError(`${at}: give percent or amount, not both`);
      return {
        type: 'shipping',
        percent: hasAmount ? null : hasPercent ? percent(o.percent, `${at}.percent`) : 100,
        amount: hasAmount ? amount(o.amount, `${at}.amount`) : null,
        method_ids: optionalStrings(o.method_ids, `${at}.method_ids`),
        countries: optionalStrings(o.countries, `${at}.countries`).map((c) => c.toUpperCase()),
        ...(o.zones === undefined || o.zones === null ? {} : { zones: optionalStrings(o.zones, `${at}.zones`) }),
      };
    }
    case 'custom':
      return { type: 'custom', name: strings([o.name], `${at}.name`)[0], params: o.params === undefined ? {} : obj(o.params, `${at}.params`) };
    default:
      throw new RuleError(
        `${at}.type must be one of percent_off_lines, fixed_off_lines, set_price, set_percent, n_for_m, buy_x_get_y, percent_off_order, fixed_off_order, shipping, custom`,
      );
  }
}

/** Checked conditions (wire form); a `RuleError` names the first bad member. */
export function parseConditions(v: unknown): PromotionCondition[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.length > 50) throw new RuleError('conditions must be a list of at most 50');
  return v.map((c, i) => condition(c, `conditions[${i}]`));
}

/** Checked actions (wire form): at least one. */
export function parseActions(v: unknown): PromotionAction[] {
  if (!Array.isArray(v) || v.length === 0 || v.length > 20) throw new RuleError('actions must be a non-empty list of at most 20');
  return v.map((a, i) => action(a, `actions[${i}]`));
}

/**
 * The stored (decimal, default currency) rules in minor units of a currency with `precision` decimals, converted by
 * its `rate` (units per unit of the default currency) and rounded once, as the catalogue converts prices.
 */
export function toEngineRules(
  conditions: readonly PromotionCondition[],
  actions: readonly PromotionAction[],
  precision: number,
  rate = '1',
): { conditions: PromotionCondition[]; actions: PromotionAction[] } {
  const minor = (decimal: number, p: number) => (rate === '1' ? toMinor(String(decimal), p) : unitMinor(String(decimal), { rate, precision: p }));
  return {
    conditions: conditions.map((c) => (c.type === 'min_subtotal' ? { ...c, amount: minor(c.amount, precision) } : c)),
    actions: actions.map((a) => {
      switch (a.type) {
        case 'fixed_off_lines':
        case 'fixed_off_order':
          return { ...a, amount: minor(a.amount, precision) };
        case 'set_price':
          return { ...a, price: minor(a.price, precision) };
        case 'shipping':
          return { ...a, amount: a.amount === null ? null : minor(a.amount, precision) };
        default:
          return a;
      }
    }),
  };
}
