// Promotion members of the cart, checkout and catalogue answers (issue 32): line `promotions`, `discounts[]`,
// `available_promotions`, `suggested_gifts` and a variant's `lowest_price_30_days`. They are read here by the names
// the issue gives them, each checked member by member, so an answer without them (an API before the promotions
// engine) or with an unexpected shape renders nothing: the pages never depend on them being there.
// Once examples/openapi-client/schema.d.ts documents them, these readers can return the generated types instead.

/** A promotion's share of a line or of the totals. */
export interface AppliedPromotion {
  promotion_id: string;
  name: string;
  amount: number;
}

/** A promotion the buyer is close to: "add 2 more bottles", "add CHF 20.00 more". */
export interface AvailablePromotion {
  promotion_id: string;
  name: string;
  missing_quantity: number | null;
  missing_subtotal: number | null;
}

/** A buy-X-get-Y gift not (fully) in the cart, with what the storefront can add. */
export interface SuggestedGift {
  promotion_id: string;
  name: string;
  quantity: number;
  /** The variant to add, when the answer names one. */
  variant_id: string | null;
  /** Else a product whose first available variant is added. */
  product_id: string | null;
  /** The gift's own title, when the answer gives it. */
  title: string | null;
}

type Loose = Record<string, unknown>;
const isObj = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null;
const list = (holder: unknown, key: string): unknown[] => (isObj(holder) && Array.isArray(holder[key]) ? holder[key] : []);

function applied(v: unknown): AppliedPromotion | null {
  if (!isObj(v)) return null;
  const name = str(v.name);
  const amount = num(v.amount);
  if (name === null || amount === null || amount <= 0) return null;
  return { promotion_id: str(v.promotion_id) ?? name, name, amount };
}
const keep = <T>(items: Array<T | null>): T[] => items.filter((x): x is T => x !== null);

/** A cart or checkout line's promotions (`line.promotions`). */
export const linePromotions = (line: unknown): AppliedPromotion[] => keep(list(line, 'promotions').map(applied));

/** The discounts by promotion: the cart's `discounts` (or `totals.discounts`), or a checkout's `totals.discounts`. */
export function discountsOf(answer: unknown): AppliedPromotion[] {
  const direct = list(answer, 'discounts');
  const inTotals = isObj(answer) ? list(answer.totals, 'discounts') : [];
  return keep((direct.length ? direct : inTotals).map(applied));
}

/**
 * The coupon's part of a discount total: what the promotions listed do not explain (all of it when there are none,
 * or when the total leaves the promotions out because they are already inside the line prices).
 */
export function couponShare(totalDiscount: number, discounts: readonly AppliedPromotion[]): number {
  const promoted = discounts.reduce((sum, d) => sum + d.amount, 0);
  return totalDiscount >= promoted ? totalDiscount - promoted : totalDiscount;
}

export function availablePromotions(cart: unknown): AvailablePromotion[] {
  return keep(
    list(cart, 'available_promotions').map((v) => {
      if (!isObj(v)) return null;
      const name = str(v.name);
      const missingQuantity = num(v.missing_quantity);
      const missingSubtotal = num(v.missing_subtotal);
      if (name === null || ((missingQuantity ?? 0) <= 0 && (missingSubtotal ?? 0) <= 0)) return null;
      return { promotion_id: str(v.promotion_id) ?? name, name, missing_quantity: missingQuantity, missing_subtotal: missingSubtotal };
    }),
  );
}

export function suggestedGifts(cart: unknown): SuggestedGift[] {
  return keep(
    list(cart, 'suggested_gifts').map((v) => {
      if (!isObj(v)) return null;
      const name = str(v.name);
      if (name === null) return null;
      // the gift named directly, or through the promotion's "get" selector when it lists variants or products
      const selector = isObj(v.selector) ? v.selector : null;
      const ids = selector ? list(selector, 'ids').map(str) : [];
      const variant = str(v.variant_id) ?? str(v.article_id) ?? (selector?.type === 'variant' ? ids[0] : null) ?? null;
      const product = str(v.product_id) ?? (selector?.type === 'product' ? ids[0] : null) ?? null;
      return {
        promotion_id: str(v.promotion_id) ?? name,
        name,
        quantity: Math.max(1, num(v.quantity) ?? 1),
        variant_id: variant,
        product_id: product,
        title: str(v.title),
      };
    }),
  );
}

/** The EU Omnibus "lowest price in the last 30 days" of a variant on sale (`lowest_price_30_days`), else null. */
export function lowestPrice30(variant: unknown): number | null {
  return isObj(variant) ? num(variant.lowest_price_30_days) : null;
}
