/**
 * Checkout totals (CONTRACT 7), pure: the cart's pricing (`priceLines`, `evaluateCoupon` of ./cart-pricing.ts)
 * for the lines and the coupon, plus shipping and tax per rate. Everything in minor units of the checkout currency.
 *
 * - lines are priced in the shop's basis: gross when `prices_include_tax`, net otherwise;
 * - subtotal_before_discount = sum of the rounded lines; discount = the coupon on it (capped);
 *   subtotal = subtotal_before_discount - discount;
 * - shipping = the method's price (default currency, shop basis) converted, 0 when `free_over` is set and
 *   subtotal >= free_over (converted);
 * - tax per rate: the discount is spread over the rates pro rata (largest remainder, so it adds up exactly); the
 *   shipping joins the group of its own rate; each group's tax is amount x r/(100+r) (gross basis, included) or
 *   amount x r/100 (net basis), rounded half up once; tax_lines sum to tax_amount;
 * - total = subtotal + shipping (+ tax_amount only when prices exclude tax).
 *
 * Promotions (issue 32, `promote`, evaluated once per computation on the priced lines and the shipping price):
 * their line parts come off the lines (discount += them), the coupon then applies to what they left, their shipping
 * part comes off `shipping_amount`; tax per rate takes each line after its own promotion parts, the coupon spread
 * over the rates as before. Without `promote` (or with nothing applied) every figure is as above.
 */
import type { CurrencyInfo } from '../common/context/request-context.js';
import { fromMinor, toMinor } from './money.js';
import { CatalogueLine, couponAmount, CouponInput, CouponRefusal, evaluateCoupon, PricedLine, priceLines, unitMinor } from './cart-pricing.js';

export interface ShippingInput {
  name: string | null;
  /** Default-currency decimals in the shop basis. */
  price: string;
  taxRate: string | number;
  freeOver: string | null;
  /** The computed price (minor units of the checkout currency, rate tables and free_over applied); replaces price and freeOver. */
  amount?: number;
}

/** What the promotions took off (minor units), as the promotions engine answers it (src/promotions/engine). */
export interface PromotionOutcome {
  /** Per priced line, same order: its part of the product and order promotions, and by which promotion. */
  lines: ReadonlyArray<{ discount: number; promotions: ReadonlyArray<{ promotionId: string; name: string; amount: number }> }>;
  /** By promotion: the whole amount, what of it came off the lines and off the shipping. */
  discounts: ReadonlyArray<{ promotionId: string; name: string; amount: number; promotionClass: string; lines: number; shipping: number }>;
  shippingDiscount: number;
}

/** The promotions of one cart or checkout: priced lines and the shipping price (null: no method chosen) in. */
export type Promote = (lines: readonly PricedLine[], shippingAmount: number | null) => PromotionOutcome;

export interface TotalsInput {
  lines: CatalogueLine[];
  currency: CurrencyInfo;
  pricesIncludeTax: boolean;
  /** The code stored on the checkout (null: none) and its row (null: no such code any more). */
  couponCode: string | null;
  coupon: CouponInput | null;
  defaultCurrencyId: string;
  shipping: ShippingInput | null;
  now?: Date;
  /** The shop's active promotions for this checkout (absent: none). */
  promote?: Promote;
}

export interface TaxLine {
  name: string;
  rate: number;
  amount: number;
}

export interface CheckoutTotals {
  currency: CurrencyInfo;
  priceIncludesTax: boolean;
  lines: PricedLine[];
  subtotalBeforeDiscount: number;
  discount: number;
  subtotal: number;
  /** The coupon that applies, else null; `couponRefusal` says why a stored coupon does not. */
  couponCode: string | null;
  couponText: string | null;
  couponRefusal: CouponRefusal | null;
  couponRefusalMessage: string | null;
  shippingAmount: number;
  shippingTaxRate: number;
  shippingMethodName: string | null;
  taxLines: TaxLine[];
  taxAmount: number;
  total: number;
  /** What the promotions applied (null: the shop has none active); `discount` includes their line parts. */
  promotions: PromotionOutcome | null;
  /** Per line (same order as `lines`): its promotion parts. */
  lineDiscounts: number[];
  /** The coupon's part of `discount`. */
  couponDiscount: number;
  /** Taken off the shipping price by promotions (`shippingAmount` is after it). */
  shippingDiscount: number;
}

export function computeTotals(input: TotalsInput): CheckoutTotals {
  const { currency, pricesIncludeTax } = input;
  const base = priceLines(input.lines, currency, !pricesIncludeTax);
  const sbd = base.subtotal;

  let couponDiscount = 0;
  let couponCode: string | null = null;
  let couponText: string | null = null;
  let couponRefusal: CouponRefusal | null = null;
  let couponRefusalMessage: string | null = null;
  if (input.couponCode) {
    const result = evaluateCoupon(input.coupon, sbd, currency, input.defaultCurrencyId, input.now);
    if (result.ok && input.coupon) {
      couponDiscount = result.discount;
      couponCode = input.coupon.code;
    } else if (!result.ok) {
      couponRefusal = result.code;
      couponRefusalMessage = result.message;
    }
  }
  // free_over compares the subtotal after the coupon, before promotions (they need the shipping price to apply)
  let subtotal = sbd - couponDiscount;

  let shippingAmount = 0;
  let shippingTaxRate = 0;
  if (input.shipping) {
    shippingTaxRate = Number(input.shipping.taxRate);
    if (input.shipping.amount !== undefined) shippingAmount = input.shipping.amount;
    else {
      const price = unitMinor(input.shipping.price, currency);
      const free = input.shipping.freeOver !== null && subtotal >= unitMinor(input.shipping.freeOver, currency);
      shippingAmount = free ? 0 : price;
    }
  }

  const promotions = input.promote ? input.promote(base.lines, input.shipping ? shippingAmount : null) : null;
  const lineDiscounts = base.lines.map((l, i) => Math.min(l.line, Math.max(0, promotions?.lines[i]?.discount ?? 0)));
  const promoted = lineDiscounts.reduce((a, b) => a + b, 0);
  if (promoted > 0 && couponCode && input.coupon) couponDiscount = couponAmount(input.coupon, sbd - promoted, currency);
  if (couponCode && input.coupon) couponText = couponTextOf(input.coupon, couponDiscount, currency);
  const discount = promoted + couponDiscount;
  subtotal = sbd - discount;
  const shippingDiscount = Math.min(shippingAmount, Math.max(0, promotions?.shippingDiscount ?? 0));
  shippingAmount -= shippingDiscount;

  // tax per rate: each line after its promotions, the coupon spread pro rata over the rates
  const groups = new Map<number, number>();
  base.lines.forEach((l, i) => groups.set(l.taxRate, (groups.get(l.taxRate) ?? 0) + l.line - lineDiscounts[i]));
  const rates = [...groups.keys()].sort((a, b) => a - b);
  const shares = spread(
    couponDiscount,
    rates.map((r) => groups.get(r)!),
  );
  const amounts = new Map<number, number>(rates.map((r, i) => [r, groups.get(r)! - shares[i]]));
  if (input.shipping && shippingAmount > 0) amounts.set(shippingTaxRate, (amounts.get(shippingTaxRate) ?? 0) + shippingAmount);
  const taxLines: TaxLine[] = [...amounts.entries()]
    .filter(([rate]) => rate > 0)
    .sort(([a], [b]) => a - b)
    .map(([rate, amount]) => ({ name: `Tax ${rate}%`, rate, amount: taxOf(amount, rate, pricesIncludeTax) }));
  const taxAmount = taxLines.reduce((acc, t) => acc + t.amount, 0);

  return {
    currency,
    priceIncludesTax: pricesIncludeTax,
    lines: base.lines,
    subtotalBeforeDiscount: sbd,
    discount,
    subtotal,
    couponCode,
    couponText,
    couponRefusal,
    couponRefusalMessage,
    shippingAmount,
    shippingTaxRate,
    shippingMethodName: input.shipping?.name ?? null,
    taxLines,
    taxAmount,
    total: subtotal + shippingAmount + (pricesIncludeTax ? 0 : taxAmount),
    promotions,
    lineDiscounts,
    couponDiscount,
    shippingDiscount,
  };
}

/** Tax of an amount at `rate` percent: included (amount x r/(100+r)) or added (amount x r/100), half up once. */
export function taxOf(amount: number, rate: number, included: boolean): number {
  const r = BigInt(Math.round(rate * 1000));
  const num = BigInt(amount) * r;
  const den = included ? 100_000n + r : 100_000n;
  const neg = num < 0n;
  const abs = neg ? -num : num;
  const q = (abs * 2n + den) / (2n * den);
  return Number(neg ? -q : q);
}

/** `total` split over `weights` pro rata, by largest remainder (so the parts sum to `total` exactly). */
export function spread(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (total === 0 || sum === 0) return weights.map(() => 0);
  const exact = weights.map((w) => BigInt(total) * BigInt(w));
  const parts = exact.map((e) => Number(e / BigInt(sum)));
  let left = total - parts.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => ({ i, rem: Number(e % BigInt(sum)) })).sort((a, b) => b.rem - a.rem || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    parts[i] += 1;
    left -= 1;
  }
  return parts;
}

function couponTextOf(coupon: CouponInput, discount: number, currency: CurrencyInfo): string {
  if (coupon.type === 'percent') return `${coupon.code}: ${Number(coupon.value)}% off`;
  return `${coupon.code}: ${fromMinor(discount, currency.precision).toFixed(currency.precision)} ${currency.code} off`;
}

/** A stored decimal (numeric column) back to minor units of `precision`. */
export function minorOf(value: string | number, precision: number): number {
  return toMinor(value, precision);
}
