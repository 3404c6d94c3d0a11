/** The public surface of `pricing` for other modules (feature -> feature imports go through this file only). */
export { convertMinor, fromMinor, minorToDecimalString, toMinor } from './money.js';
export { COUPON_REFUSALS, couponAmount, evaluateCoupon, priceLines, quantityRuleViolation, unitMinor, withDiscount } from './cart-pricing.js';
export type { CatalogueLine, CouponRefusal, PricedLine, PricedTotals } from './cart-pricing.js';
export type { CouponInput } from './cart-pricing.js';
export { computeTotals } from './checkout-totals.js';
export type { CheckoutTotals, Promote, PromotionOutcome, ShippingInput, TaxLine, TotalsInput } from './checkout-totals.js';
