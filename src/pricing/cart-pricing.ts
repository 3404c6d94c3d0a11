/**
 * Pure cart pricing (no I/O): catalogue prices of the lines, the currency, the net/gross basis and the coupon in,
 * priced lines and totals in minor units out. The cart read and the checkout both price through here, so a cart
 * and the checkout made from it always agree.
 *
 * Rules: a unit price is the catalogue's default-currency price converted by the currency's rate and rounded to
 * its minor unit (exactly what the catalogue shows); a line is unit x quantity (less its line discount) rounded once;
 * the subtotal is the sum of the rounded lines; the coupon discount is computed on that subtotal and capped at it;
 * total = subtotal - discount. Every member therefore adds up exactly.
 */
import type { CurrencyInfo } from '../common/context/request-context.js';
import { convertMinor, percentOf, toMinor } from './money.js';

/** A cart line as the catalogue prices it now (default-currency decimals as stored). */
export interface CatalogueLine {
  variantId: string;
  productId: string;
  /** Decimal string or number. */
  quantity: string | number;
  /** Unit gross and net in the default currency (numeric strings). */
  gross: string;
  net: string;
  taxRate: string | number;
  grams: number | null;
  /** A line discount in percent (0 when none applies). */
  discountPercent?: number;
}

export interface PricedLine {
  variantId: string;
  productId: string;
  quantity: number;
  taxRate: number;
  discountPercent: number;
  /** Unit prices in the cart currency's minor units. */
  unitNet: number;
  unitGross: number;
  /** The unit price following the net/gross rule. */
  unit: number;
  /** Line totals after the line discount, each rounded once. */
  lineNet: number;
  lineGross: number;
  /** The line total following the net/gross rule. */
  line: number;
  /** Weight of one unit, and of the line, in grams. */
  grams: number;
  lineGrams: number;
}

/** CONTRACT 4: why POST /cart/discount_code refuses a coupon (422 `code`), and why a read dropped one. */
export const COUPON_REFUSALS = [
  'discount_code_not_found',
  'discount_code_inactive',
  'discount_code_expired',
  'discount_code_already_used',
  'discount_code_minimum_not_met',
  'discount_code_currency_mismatch',
] as const;
export type CouponRefusal = (typeof COUPON_REFUSALS)[number];

export interface CouponInput {
  code: string;
  type: 'value' | 'percent';
  /** Decimal string: an amount (value codes, in the code's currency) or a percentage. */
  value: string;
  isActive: boolean;
  isUsed: boolean;
  isInfinite: boolean;
  expiryDate: Date | null;
  /** Currency of a value code; null means the shop default. */
  currencyId: string | null;
  /** Minimum items subtotal (decimal string); in the code's currency for value codes, the default currency for percent codes. */
  minValue: string;
}

export type CouponResult = { ok: true; discount: number } | { ok: false; code: CouponRefusal; message: string };

export interface PricedTotals {
  currency: CurrencyInfo;
  showNet: boolean;
  lines: PricedLine[];
  /** Sum of the lines' quantities, rounded to an integer (CONTRACT 7). */
  itemCount: number;
  /** Sums of the rounded lines, in the display basis and in each basis. */
  subtotal: number;
  subtotalNet: number;
  subtotalGross: number;
  discount: number;
  total: number;
  totalGrams: number;
}

/** Thousandths of a quantity, exactly (quantities are numeric(14,3)). */
export function quantityMilli(quantity: string | number): number {
  return toMinor(quantity, 3);
}

/** A default-currency decimal in the currency's minor units (rate applied, rounded half up once). */
export function unitMinor(amount: string, currency: Pick<CurrencyInfo, 'rate' | 'precision'>): number {
  return convertMinor(toMinor(amount, 4), currency.rate, 4, currency.precision);
}

/** unit x quantity x (100 - percent)/100, rounded half up once (BigInt: no float error). */
export function lineMinor(unit: number, milli: number, discountPercent = 0): number {
  const pctMilli = BigInt(Math.round((100 - discountPercent) * 1000));
  const num = BigInt(unit) * BigInt(milli) * pctMilli;
  const den = 1000n * 100_000n;
  const neg = num < 0n;
  const abs = neg ? -num : num;
  const q = (abs * 2n + den) / (2n * den);
  return Number(neg ? -q : q);
}

export function priceLine(l: CatalogueLine, currency: Pick<CurrencyInfo, 'rate' | 'precision'>, showNet: boolean): PricedLine {
  const milli = quantityMilli(l.quantity);
  const pct = l.discountPercent ?? 0;
  const unitNet = unitMinor(l.net, currency);
  const unitGross = unitMinor(l.gross, currency);
  const lineNet = lineMinor(unitNet, milli, pct);
  const lineGross = lineMinor(unitGross, milli, pct);
  const grams = l.grams ?? 0;
  return {
    variantId: l.variantId,
    productId: l.productId,
    quantity: milli / 1000,
    taxRate: Number(l.taxRate),
    discountPercent: pct,
    unitNet,
    unitGross,
    unit: showNet ? unitNet : unitGross,
    lineNet,
    lineGross,
    line: showNet ? lineNet : lineGross,
    grams,
    lineGrams: (grams * milli) / 1000,
  };
}

/**
 * Checks a coupon against a cart (CONTRACT 4 refusal codes, in this order: not found, inactive, expired,
 * already used, currency mismatch, minimum not met) and gives its discount on `subtotal` (minor units).
 */
export function evaluateCoupon(
  coupon: CouponInput | null,
  subtotal: number,
  currency: CurrencyInfo,
  defaultCurrencyId: string,
  now = new Date(),
): CouponResult {
  if (!coupon) return { ok: false, code: 'discount_code_not_found', message: 'no such discount code' };
  if (!coupon.isActive) return { ok: false, code: 'discount_code_inactive', message: `discount code ${coupon.code} is not active` };
  if (coupon.expiryDate && coupon.expiryDate.getTime() <= now.getTime())
    return { ok: false, code: 'discount_code_expired', message: `discount code ${coupon.code} has expired` };
  if (coupon.isUsed && !coupon.isInfinite)
    return { ok: false, code: 'discount_code_already_used', message: `discount code ${coupon.code} has already been used` };
  let minimum: number;
  if (coupon.type === 'value') {
    if ((coupon.currencyId ?? defaultCurrencyId) !== currency.id) {
      return { ok: false, code: 'discount_code_currency_mismatch', message: `discount code ${coupon.code} is not valid in ${currency.code}` };
    }
    minimum = toMinor(coupon.minValue, currency.precision);
  } else {
    minimum = unitMinor(coupon.minValue, currency);
  }
  if (minimum > 0 && subtotal < minimum) {
    return {
      ok: false,
      code: 'discount_code_minimum_not_met',
      message: `discount code ${coupon.code} needs a subtotal of at least ${(minimum / 10 ** currency.precision).toFixed(currency.precision)} ${currency.code}`,
    };
  }
  return { ok: true, discount: couponAmount(coupon, subtotal, currency) };
}

/**
 * What an accepted coupon takes off `base` (minor units), capped at it: the subtotal, or what the promotions left of
 * it (issue 32: a coupon stacking with promotions applies after them, so the two never exceed the subtotal).
 */
export function couponAmount(coupon: Pick<CouponInput, 'type' | 'value'>, base: number, currency: Pick<CurrencyInfo, 'precision'>): number {
  const raw = coupon.type === 'value' ? toMinor(coupon.value, currency.precision) : percentOf(base, coupon.value);
  return Math.max(0, Math.min(raw, base));
}

/** Prices every line and the totals; `discount` comes from `evaluateCoupon` on the returned subtotal (0 without). */
export function priceLines(lines: CatalogueLine[], currency: CurrencyInfo, showNet: boolean): Omit<PricedTotals, 'discount' | 'total'> {
  const priced = lines.map((l) => priceLine(l, currency, showNet));
  const sum = (f: (l: PricedLine) => number) => priced.reduce((acc, l) => acc + f(l), 0);
  const qtyMilli = priced.reduce((acc, l) => acc + Math.round(l.quantity * 1000), 0);
  return {
    currency,
    showNet,
    lines: priced,
    itemCount: Math.round(qtyMilli / 1000),
    subtotal: sum((l) => l.line),
    subtotalNet: sum((l) => l.lineNet),
    subtotalGross: sum((l) => l.lineGross),
    totalGrams: Math.round(sum((l) => l.lineGrams) * 1000) / 1000,
  };
}

export function withDiscount(totals: Omit<PricedTotals, 'discount' | 'total'>, discount: number): PricedTotals {
  const d = Math.max(0, Math.min(discount, totals.subtotal));
  return { ...totals, discount: d, total: totals.subtotal - d };
}

/** The quantity rule of a variant (min, max nullable, increment), in thousandths. */
export interface QuantityRule {
  min: string | number;
  max: string | number | null;
  increment: string | number;
}

/**
 * Null when `quantity` obeys the rule, else the message naming the violated rule: at least `min`, at most `max`,
 * and a whole multiple of `increment`.
 */
export function quantityRuleViolation(quantity: string | number, rule: QuantityRule): string | null {
  const q = quantityMilli(quantity);
  const min = quantityMilli(rule.min);
  const inc = quantityMilli(rule.increment);
  const show = (milli: number) => String(milli / 1000);
  if (q < min) return `quantity ${show(q)} is below the variant's quantity_rule.min of ${show(min)}`;
  if (rule.max !== null && rule.max !== undefined && q > quantityMilli(rule.max))
    return `quantity ${show(q)} is above the variant's quantity_rule.max of ${show(quantityMilli(rule.max))}`;
  if (inc > 0 && q % inc !== 0) return `quantity ${show(q)} is not a multiple of the variant's quantity_rule.increment of ${show(inc)}`;
  return null;
}
