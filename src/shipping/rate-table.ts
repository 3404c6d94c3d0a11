import { AppError } from '../common/http/app-error.js';

/**
 * The shipping rate engine (README "Shipping"): pure functions, no I/O.
 *
 * A rate table prices a parcel by one measure (`basis`):
 *   - `bottles`: the sum of the lines' quantities;
 *   - `grams`: the sum of quantity × the variant's `grams`;
 *   - `value`: the order's subtotal after discount, in the shop's price basis.
 * Its `steps` cover the measure without gap or overlap. Bottles and grams are whole numbers and a step is inclusive
 * at both ends (`1–6`, `7–12`: the next `from` is the previous `to` + 1); value is money and a step covers
 * `from ≤ value < to` (the next `from` is the previous `to`). Only the last step may have `to: null` (open-ended).
 * `beyond` prices a measure above the last step: each started block of `every` units adds `price` to the last
 * step's price (bottles: "then per started case of 6"). A measure the table does not cover (below the first step,
 * above the last without `beyond`) means the method cannot serve the order.
 */
export type RateBasis = 'bottles' | 'grams' | 'value';
export const RATE_BASES: readonly RateBasis[] = ['bottles', 'grams', 'value'];

/** A rate table as stored and sent: decimals (money in the shop's default currency). */
export interface RateTable {
  basis: RateBasis;
  steps: Array<{ from: number; to: number | null; price: number }>;
  beyond: { every: number; price: number } | null;
}

/** A rate table with every amount in integer minor units of one currency (value bounds too). */
export interface MinorRateTable {
  basis: RateBasis;
  steps: Array<{ from: number; to: number | null; price: number }>;
  beyond: { every: number; price: number } | null;
}

/** A rule broken by written shipping input (a rate table, zones, a rule): 422 naming the member's path and why. */
export class ShippingInputError extends AppError {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(422, `${path} ${reason}`);
  }
}

const MAX_STEPS = 200;
const MAX_MONEY = 1e9;

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

function number(v: unknown, path: string, opts: { min: number; integer?: boolean; positive?: boolean }): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ShippingInputError(path, 'must be a number');
  if (opts.integer && !Number.isInteger(v)) throw new ShippingInputError(path, 'must be a whole number');
  if (v < opts.min || (opts.positive && v <= 0)) throw new ShippingInputError(path, opts.positive ? 'must be above 0' : `must be at least ${opts.min}`);
  if (v > MAX_MONEY) throw new ShippingInputError(path, `must be at most ${MAX_MONEY}`);
  return v;
}

function money(v: unknown, path: string, positive = false): number {
  return number(v, path, { min: 0, positive });
}

/**
 * Checks a written rate table (admin body or import member) and returns it in stored form; throws ShippingInputError
 * naming the first bad member (`path` is the table's own path, e.g. `rate_table` or `shipping_methods[0].rate_table`).
 * Gaps and overlaps between steps are refused here, at write time.
 */
export function parseRateTable(raw: unknown, path: string): RateTable {
  if (!isObj(raw)) throw new ShippingInputError(path, 'must be an object');
  for (const k of Object.keys(raw)) if (!['basis', 'steps', 'beyond'].includes(k)) throw new ShippingInputError(`${path}.${k}`, 'is not a rate table member');
  const basis = raw.basis;
  if (typeof basis !== 'string' || !(RATE_BASES as readonly string[]).includes(basis))
    throw new ShippingInputError(`${path}.basis`, `must be one of ${RATE_BASES.join(', ')}`);
  const b = basis as RateBasis;
  const whole = b !== 'value';
  if (!Array.isArray(raw.steps) || raw.steps.length === 0) throw new ShippingInputError(`${path}.steps`, 'must be a non-empty array');
  if (raw.steps.length > MAX_STEPS) throw new ShippingInputError(`${path}.steps`, `must have at most ${MAX_STEPS} steps`);
  const steps = raw.steps.map((s: unknown, i) => {
    const p = `${path}.steps[${i}]`;
    if (!isObj(s)) throw new ShippingInputError(p, 'must be an object');
    for (const k of Object.keys(s)) if (!['from', 'to', 'price'].includes(k)) throw new ShippingInputError(`${p}.${k}`, 'is not a step member');
    const from = whole ? number(s.from, `${p}.from`, { min: 0, integer: true }) : money(s.from, `${p}.from`);
    const to = s.to === null || s.to === undefined ? null : whole ? number(s.to, `${p}.to`, { min: 0, integer: true }) : money(s.to, `${p}.to`);
    if (to !== null && (whole ? to < from : to <= from)) throw new ShippingInputError(`${p}.to`, whole ? 'must be at least from' : 'must be above from');
    return { from, to, price: money(s.price, `${p}.price`) };
  });
  const first = steps[0].from;
  if (whole ? first > 1 : first !== 0)
    throw new ShippingInputError(`${path}.steps[0].from`, `leaves a gap: the first step must start at ${whole ? '0 or 1' : '0'}`);
  for (let i = 1; i < steps.length; i++) {
    const prev = steps[i - 1];
    const p = `${path}.steps[${i}].from`;
    if (prev.to === null) throw new ShippingInputError(`${path}.steps[${i - 1}].to`, 'may be null (open-ended) only on the last step');
    const expected = whole ? prev.to + 1 : prev.to;
    if (steps[i].from > expected) throw new ShippingInputError(p, `leaves a gap after step ${i - 1} (expected ${expected})`);
    if (steps[i].from < expected) throw new ShippingInputError(p, `overlaps step ${i - 1} (expected ${expected})`);
  }
  let beyond: RateTable['beyond'] = null;
  if (raw.beyond !== undefined && raw.beyond !== null) {
    const p = `${path}.beyond`;
    if (!isObj(raw.beyond)) throw new ShippingInputError(p, 'must be an object');
    for (const k of Object.keys(raw.beyond)) if (!['every', 'price'].includes(k)) throw new ShippingInputError(`${p}.${k}`, 'is not a beyond member');
    if (steps[steps.length - 1].to === null) throw new ShippingInputError(p, 'overlaps the open-ended last step');
    const every = whole ? number(raw.beyond.every, `${p}.every`, { min: 1, integer: true }) : money(raw.beyond.every, `${p}.every`, true);
    beyond = { every, price: money(raw.beyond.price, `${p}.price`) };
  }
  return { basis: b, steps, beyond };
}

/**
 * The table's amounts in minor units: prices by `toMinorMoney`, and value bounds too (the measure is then the
 * subtotal in the same minor units); bottle and gram bounds stay as they are.
 */
export function minorRateTable(t: RateTable, toMinorMoney: (decimal: number) => number): MinorRateTable {
  const bound = (x: number) => (t.basis === 'value' ? toMinorMoney(x) : x);
  return {
    basis: t.basis,
    steps: t.steps.map((s) => ({ from: bound(s.from), to: s.to === null ? null : bound(s.to), price: toMinorMoney(s.price) })),
    beyond: t.beyond ? { every: bound(t.beyond.every), price: toMinorMoney(t.beyond.price) } : null,
  };
}

/** The price (minor units) of a parcel measuring `measure` in the table's basis; null when the table does not cover it. */
export function rateFor(t: MinorRateTable, measure: number): number | null {
  const whole = t.basis !== 'value';
  for (const s of t.steps) {
    if (measure < s.from) return null;
    if (s.to === null || (whole ? measure <= s.to : measure < s.to)) return s.price;
  }
  const last = t.steps[t.steps.length - 1];
  if (!t.beyond || last.to === null) return null;
  // the last step's upper bound is inclusive for whole bases, exclusive for value
  const over = whole ? measure - last.to : measure - last.to + 1;
  return last.price + Math.ceil(over / t.beyond.every) * t.beyond.price;
}

/** Which row of a table priced a measure: the step's index and the started `beyond` blocks above the last step. */
export function rateRowFor(t: MinorRateTable, measure: number): { step: number; beyondBlocks: number } | null {
  const whole = t.basis !== 'value';
  for (const [i, s] of t.steps.entries()) {
    if (measure < s.from) return null;
    if (s.to === null || (whole ? measure <= s.to : measure < s.to)) return { step: i, beyondBlocks: 0 };
  }
  const last = t.steps[t.steps.length - 1];
  if (!t.beyond || last.to === null) return null;
  const over = whole ? measure - last.to : measure - last.to + 1;
  return { step: t.steps.length - 1, beyondBlocks: Math.ceil(over / t.beyond.every) };
}

/** What a parcel measures, per basis. */
export interface ParcelMeasures {
  /** Sum of quantities. */
  bottles: number;
  /** Sum of quantity × grams (a variant without grams weighs 0). */
  grams: number;
  /** Subtotal after discount, minor units of the checkout currency. */
  value: number;
}

export function parcelMeasures(lines: ReadonlyArray<{ quantity: number; grams: number | null }>, value: number): ParcelMeasures {
  let bottles = 0;
  let grams = 0;
  for (const l of lines) {
    bottles += l.quantity;
    grams += l.quantity * (l.grams ?? 0);
  }
  return { bottles: Math.round(bottles), grams: Math.round(grams), value };
}
