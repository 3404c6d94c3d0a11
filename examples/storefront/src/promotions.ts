// Promotion members of the cart, checkout and receipt answers (issue 32; README "Promotions"): a line's
// `promotions`, `discounts` by promotion (the cart's and the receipt's, a checkout's in `totals`),
// `available_promotions` and `suggested_gifts`, typed by the generated client. The API sends them only while the
// shop has an active promotion (a receipt: when the order applied one), so each reader takes an absent member as none.
import type { Schemas } from './api/client';

export type LinePromotion = Schemas['LinePromotionDto'];
export type PromotionDiscount = Schemas['PromotionDiscountDto'];
export type AvailablePromotion = Schemas['AvailablePromotionDto'];
export type SuggestedGift = Schemas['SuggestedGiftDto'];

/** What each promotion took off a cart, checkout or receipt line. */
export const linePromotions = (line: { promotions?: LinePromotion[] }): LinePromotion[] => (line.promotions ?? []).filter((p) => p.amount > 0);

/** The discounts by promotion of a cart, a checkout's `totals` or a receipt. */
export const discountsOf = (holder: { discounts?: PromotionDiscount[] }): PromotionDiscount[] => holder.discounts ?? [];

/**
 * The coupon's part of a discount total (the cart's `total_discount`, a checkout's `totals.discount`, a receipt's
 * `discount`): those hold the promotions' line parts plus the coupon, while a promotion's shipping part comes off
 * the shipping price instead, so only `lines_amount` is taken out. Rounded to 4 decimals (no currency has more)
 * so that float residue does not show as a coupon.
 */
export function couponShare(totalDiscount: number, discounts: readonly PromotionDiscount[]): number {
  const lines = discounts.reduce((sum, d) => sum + d.lines_amount, 0);
  return Math.max(0, Math.round((totalDiscount - lines) * 10_000) / 10_000);
}

/** "Add 2 more bottles", "add CHF 20.00 more": promotions missing only their minimum quantity or subtotal. */
export const availablePromotions = (cart: { available_promotions?: AvailablePromotion[] }): AvailablePromotion[] =>
  (cart.available_promotions ?? []).filter((p) => (p.missing_quantity ?? 0) > 0 || (p.missing_amount ?? 0) > 0);

/** Buy-X-get-Y gifts the cart qualifies for and does not hold. */
export const suggestedGifts = (cart: { suggested_gifts?: SuggestedGift[] }): SuggestedGift[] => cart.suggested_gifts ?? [];

/**
 * What the storefront adds for a gift: the first variant its selector names, else (`product`) a product whose first
 * available variant is added; null when the gift is chosen by category, facet etc. (the buyer picks it himself).
 */
export function giftTarget(gift: SuggestedGift): { variant_id: string } | { product_id: string } | null {
  const [variant] = gift.variant_ids;
  if (variant) return { variant_id: variant };
  const [product] = gift.product_ids;
  return product ? { product_id: product } : null;
}

/** The EU Omnibus "lowest price in the last 30 days" of a variant on sale (`lowest_price_30_days`), else null. */
export function lowestPrice30(variant: unknown): number | null {
  // not in the API answer yet (issue 32's catalogue part): read guarded, so the product page shows it once it is
  if (typeof variant !== 'object' || variant === null) return null;
  const v = (variant as Record<string, unknown>).lowest_price_30_days;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}
