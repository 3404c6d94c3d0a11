import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { fromMinor } from '../../pricing/index.js';
import type { AvailablePromotion, EngineResult, LineSelector, SuggestedGift } from '../engine/types.js';

/**
 * What promotions did, as the cart, the checkout, the receipt and the admin order show it (issue 32; README
 * "Promotions"). Money in decimals of the enclosing currency.
 */

/** A promotion's part of one line. */
export class LinePromotionDto {
  promotion_id: string;
  name: string;
  /** Taken off this line. */
  amount: number;
}

/** A promotion's whole discount. */
export class PromotionDiscountDto {
  promotion_id: string;
  name: string;
  /** `product`, `order` or `shipping`. */
  @ApiProperty({ enum: ['product', 'order', 'shipping'] })
  kind: string;
  /** Everything it took off: `lines_amount` + `shipping_amount`. */
  amount: number;
  /** Of `amount`, off the lines (inside `discount`). */
  lines_amount: number;
  /** Of `amount`, off the shipping price (`shipping_amount` is after it). */
  shipping_amount: number;
}

/**
 * A promotion the buyer is close to: only its minimum quantity or subtotal is missing, each by at most half of it (or
 * by at most 2 units); the cart lists at most 5, the smallest share missing first.
 */
export class AvailablePromotionDto {
  promotion_id: string;
  name: string;
  /** Units of matching lines still missing; null when the quantity is met. */
  @ApiPropertyOptional({ type: Number, nullable: true })
  missing_quantity: number | null;
  /** Subtotal still missing; null when the subtotal is met. */
  @ApiPropertyOptional({ type: Number, nullable: true })
  missing_amount: number | null;
  /** e.g. `Add 2 more for "10% off a mixed case of 12"`. */
  message: string;
}

/** A buy-X-get-Y gift the cart qualifies for but does not hold (yet): the storefront offers to add it. */
export class SuggestedGiftDto {
  promotion_id: string;
  name: string;
  /** Units of the gift to add. */
  quantity: number;
  /** The variants and products named by the gift's selector (empty when it selects by category, facet, ...). */
  @ApiProperty({ type: [String] })
  variant_ids: string[];
  @ApiProperty({ type: [String] })
  product_ids: string[];
  /** The gift's selector as written in the promotion (README "Promotions", matchers). */
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  selector: LineSelector;
}

export function mapLinePromotions(promotions: ReadonlyArray<{ promotionId: string; name: string; amount: number }>, precision: number): LinePromotionDto[] {
  return promotions.map((p) => ({ promotion_id: p.promotionId, name: p.name, amount: fromMinor(p.amount, precision) }));
}

export function mapDiscounts(
  discounts: ReadonlyArray<{ promotionId: string; name: string; amount: number; promotionClass: string; lines: number; shipping: number }>,
  precision: number,
): PromotionDiscountDto[] {
  return discounts.map((d) => ({
    promotion_id: d.promotionId,
    name: d.name,
    kind: d.promotionClass,
    amount: fromMinor(d.amount, precision),
    lines_amount: fromMinor(d.lines, precision),
    shipping_amount: fromMinor(d.shipping, precision),
  }));
}

export function mapAvailable(available: readonly AvailablePromotion[], currency: { code: string; precision: number }): AvailablePromotionDto[] {
  return available.map((a) => {
    const missing =
      a.missingQuantity !== null
        ? `${a.missingQuantity} more`
        : `${fromMinor(a.missingSubtotal ?? 0, currency.precision).toFixed(currency.precision)} ${currency.code} more`;
    return {
      promotion_id: a.promotionId,
      name: a.name,
      missing_quantity: a.missingQuantity,
      missing_amount: a.missingSubtotal === null ? null : fromMinor(a.missingSubtotal, currency.precision),
      message: `Add ${missing} for "${a.name}"`,
    };
  });
}

export function mapSuggestedGifts(gifts: readonly SuggestedGift[]): SuggestedGiftDto[] {
  return gifts.map((g) => ({
    promotion_id: g.promotionId,
    name: g.name,
    quantity: g.quantity,
    variant_ids: g.selector.flatMap((m) => (m.type === 'variant' ? m.ids : [])),
    product_ids: g.selector.flatMap((m) => (m.type === 'product' ? m.ids : [])),
    selector: g.selector,
  }));
}

/** The promotions' members of a cart answer (each line's `promotions`, `discounts`, `available_promotions`, `suggested_gifts`). */
export interface CartPromotionsDto {
  /** In the order of the engine's (and the cart's) lines. */
  lines: readonly LinePromotionDto[][];
  discounts: PromotionDiscountDto[];
  available: AvailablePromotionDto[];
  gifts: SuggestedGiftDto[];
}

/** Mapped once per engine answer and currency: the answer is shared by every read of the same cart (and frozen). */
const cartViews = new WeakMap<EngineResult, Map<string, CartPromotionsDto>>();

/**
 * The cart answer's promotions members for this engine answer, mapped once per answer and currency and shared by
 * the reads that get the same answer (`PromotionEvaluation.prepare` shares it): a re-read of an unchanged cart maps
 * nothing again. Frozen, like the answer: a caller writing into it fails loudly instead of changing other answers.
 */
export function mapCartPromotions(result: EngineResult, currency: { code: string; precision: number }): CartPromotionsDto {
  let byCurrency = cartViews.get(result);
  if (!byCurrency) cartViews.set(result, (byCurrency = new Map<string, CartPromotionsDto>()));
  const key = `${currency.code}|${currency.precision}`;
  let view = byCurrency.get(key);
  if (!view) {
    view = deepFreeze({
      lines: result.lines.map((l) => mapLinePromotions(l.promotions, currency.precision)),
      discounts: mapDiscounts(result.discounts, currency.precision),
      available: mapAvailable(result.available, currency),
      gifts: mapSuggestedGifts(result.suggestedGifts),
    });
    byCurrency.set(key, view);
  }
  return view;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}
