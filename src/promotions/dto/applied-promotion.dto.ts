import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { fromMinor } from '../../pricing/index.js';
import type { AvailablePromotion, LineSelector, SuggestedGift } from '../engine/types.js';

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
