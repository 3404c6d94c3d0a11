/**
 * What one promotion's product actions take off each line on their own (before combining), and the gift units a
 * buy-X-get-Y is missing. Each action's part of a line is capped at what is left of the line, so a promotion's
 * own discount never exceeds the lines it touches.
 *
 * - `percent_off_lines`: each matching line's amount x percent, rounded half up once per line;
 * - `fixed_off_lines`: `amount` x whole units per matching line (never above the line);
 * - `set_price` / `set_percent`: the matching units, dearest first, form full sets of `size` (the cheapest leftover
 *   units pay full price); each set's discount (its value - price, or its value x percent rounded once) is spread
 *   over its units pro rata (largest remainder);
 * - `n_for_m`: the same groups of `n`; in each, `n - m` units are free: the cheapest of the group, or the dearest;
 * - `buy_x_get_y`: each application takes the `buy_quantity` dearest remaining "buy" units, then the `get_quantity`
 *   dearest remaining "get" units at `percent` off (so with one selector for both, the cheapest of each group is
 *   the gift); at most `max_applications` times; when the buy part holds but gift units are missing, a suggestion.
 */
import { percentOfMinor } from './allocate.js';
import { selectorMatches, type CompiledPromotion } from './compile.js';
import type { EngineHooks, EngineLine, PromotionAction } from './types.js';
import { fullGroups, groupValue, spreadOverGroup, unitRuns, unitsOf, type UnitRun } from './units.js';

export interface ProductEffect {
  /** The canonical lines it reduces (ascending) and what it takes off each (> 0, at most the line). */
  touched: number[];
  parts: number[];
  /** Gift units missing for a buy-X-get-Y. */
  missingGifts: Array<{ actionIndex: number; quantity: number }>;
}

export function productEffect(
  p: CompiledPromotion,
  lines: readonly EngineLine[],
  keys: readonly string[][],
  matching: readonly number[],
  hooks: EngineHooks,
): ProductEffect {
  const only = p.def.actions.length === 1 ? p.def.actions[0] : null;
  if (only && (only.type === 'percent_off_lines' || only.type === 'fixed_off_lines')) {
    // the common catalogue case: straight from the matching lines, no per-cart arrays
    const touched: number[] = [];
    const parts: number[] = [];
    for (const i of matching) {
      const l = lines[i];
      const d = Math.min(l.amount, only.type === 'percent_off_lines' ? percentOfMinor(l.amount, only.percent) : only.amount * Math.floor(l.quantity));
      if (d > 0) {
        touched.push(i);
        parts.push(d);
      }
    }
    return { touched, parts, missingGifts: [] };
  }
  const perLine = new Array<number>(lines.length).fill(0);
  const missingGifts: ProductEffect['missingGifts'] = [];
  p.def.actions.forEach((action, actionIndex) => {
    const part = new Array<number>(lines.length).fill(0);
    const missing = applyAction(action, actionIndex, p, lines, keys, matching, part, hooks);
    if (missing > 0) missingGifts.push({ actionIndex, quantity: missing });
    part.forEach((v, i) => {
      if (v > 0) perLine[i] = Math.min(lines[i].amount, perLine[i] + v);
    });
  });
  const touched: number[] = [];
  const parts: number[] = [];
  perLine.forEach((v, i) => {
    if (v > 0) {
      touched.push(i);
      parts.push(v);
    }
  });
  return { touched, parts, missingGifts };
}

/** Fills `part` (per canonical line); returns the missing gift units of a buy-X-get-Y. */
function applyAction(
  action: PromotionAction,
  actionIndex: number,
  p: CompiledPromotion,
  lines: readonly EngineLine[],
  keys: readonly string[][],
  matching: readonly number[],
  part: number[],
  hooks: EngineHooks,
): number {
  switch (action.type) {
    case 'percent_off_lines':
      for (const i of matching) part[i] = Math.min(lines[i].amount, percentOfMinor(lines[i].amount, action.percent));
      return 0;
    case 'fixed_off_lines':
      for (const i of matching) part[i] = Math.min(lines[i].amount, action.amount * Math.floor(lines[i].quantity));
      return 0;
    case 'set_price':
    case 'set_percent':
      for (const group of fullGroups(unitRuns(lines, matching), action.size)) {
        const value = groupValue(group);
        const off = action.type === 'set_price' ? value - action.price : percentOfMinor(value, action.percent);
        if (off > 0) spreadOverGroup(part, group, Math.min(off, value));
      }
      return 0;
    case 'n_for_m':
      for (const group of fullGroups(unitRuns(lines, matching), action.n)) {
        for (const u of unitsOf(group, action.n - action.m, action.free === 'cheapest' ? 'cheapest' : 'dearest')) part[u.line] += u.price * u.count;
      }
      return 0;
    case 'buy_x_get_y':
      return buyXGetY(action, p.actionSelectors.get(actionIndex)!, lines, keys, part);
    case 'custom': {
      const handler = hooks.actions?.get(action.name);
      if (!handler) return 0;
      const subset = matching.map((i) => lines[i]);
      const offs = handler(action.params, subset);
      matching.forEach((i, k) => (part[i] = Math.max(0, Math.min(lines[i].amount, Math.floor(offs[k] ?? 0)))));
      return 0;
    }
    default:
      return 0;
  }
}

function buyXGetY(
  action: Extract<PromotionAction, { type: 'buy_x_get_y' }>,
  sel: { buy: ReadonlySet<string>; get: ReadonlySet<string> },
  lines: readonly EngineLine[],
  keys: readonly string[][],
  part: number[],
): number {
  const all = lines.map((_, i) => i);
  const runs = unitRuns(lines, all);
  const left = runs.map((r) => r.count);
  const isBuy = runs.map((r) => selectorMatches(sel.buy, keys[r.line]));
  const isGet = runs.map((r) => selectorMatches(sel.get, keys[r.line]));
  const max = action.max_applications ?? Number.MAX_SAFE_INTEGER;
  for (let app = 0; app < max; app++) {
    const buy = take(runs, left, isBuy, action.buy_quantity);
    if (!buy) return 0;
    const got = take(runs, left, isGet, action.get_quantity, true)!;
    for (const u of got.units) part[u.line] += percentOfMinor(u.price * u.count, action.percent);
    if (got.count < action.get_quantity) return action.get_quantity - got.count;
  }
  return 0;
}

/** Takes up to `k` units (exactly `k` unless `partial`) from the dearest eligible runs; null when too few. */
function take(runs: readonly UnitRun[], left: number[], eligible: readonly boolean[], k: number, partial = false): { units: UnitRun[]; count: number } | null {
  const available = runs.reduce((s, _, i) => s + (eligible[i] ? left[i] : 0), 0);
  if (available < k && !partial) return null;
  const units: UnitRun[] = [];
  let count = 0;
  for (let i = 0; i < runs.length && count < k; i++) {
    if (!eligible[i] || left[i] === 0) continue;
    const n = Math.min(left[i], k - count);
    left[i] -= n;
    count += n;
    units.push({ ...runs[i], count: n });
  }
  return { units, count };
}
