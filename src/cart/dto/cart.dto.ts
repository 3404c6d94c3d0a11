import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNumber, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { ImageDto } from '../../collections/index.js';
import { COUPON_REFUSALS, type CouponRefusal } from '../../pricing/index.js';
import { NonBlankText, OptionalText } from '../../common/http/dto-fields.js';
import { AvailablePromotionDto, LinePromotionDto, PromotionDiscountDto, SuggestedGiftDto } from '../../promotions/index.js';

const QUANTITY = { allowNaN: false, allowInfinity: false, maxDecimalPlaces: 3 };
const MAX_QUANTITY = 1_000_000;

/** SPEC "Cart line". Money follows the cart's currency; `price` and `line_price` follow the net/gross rule. */
export class CartLineDto {
  /** The variant (article) id; addresses the line in PUT/DELETE /cart/items/{id}. */
  id: string;
  product_id: string;
  sku: string | null;
  /** The product title in the active language. */
  title: string | null;
  /** Storefront path of the product (`/products/{handle}`, the id when it has no handle). */
  url: string;
  quantity: number;
  /** Unit price, net when show_net_prices, gross otherwise. */
  price: number;
  net_price: number;
  gross_price: number;
  /** Line discount in percent; 0 when none applies. */
  discount_percent: number;
  /** price x quantity less the line discount, rounded to the currency's minor unit. */
  line_price: number;
  /** The product's first image. */
  @ApiProperty({ type: () => ImageDto })
  image: ImageDto;
  /** The manufacturer's name. */
  vendor: string | null;
  /** Weight of one unit in grams. */
  grams: number;
  year: string | null;
  size: string | null;
  color: string | null;
  /** The promotions taking something off this line (issue 32); present only while the shop has an active promotion. */
  @ApiPropertyOptional({ type: () => [LinePromotionDto] })
  promotions?: LinePromotionDto[];
}

/** SPEC "Cart", plus `discount_code_error`, and the promotions' members while the shop has an active promotion. */
export class CartDto {
  /** ISO code of the cart's currency. */
  currency: string;
  /** True when every price and total is net (shop setting, or a corporate/reseller shopper). */
  show_net_prices: boolean;
  /** Sum of the lines' quantities, rounded to an integer. */
  item_count: number;
  @ApiProperty({ type: () => [CartLineDto] })
  items: CartLineDto[];
  /** Sum of the line prices, before the cart discount. */
  items_subtotal_price: number;
  total_discount: number;
  /** items_subtotal_price - total_discount. */
  total_price: number;
  /** Grams. */
  total_weight: number;
  /** The applied coupon; null when none. */
  discount_code: string | null;
  /**
   * Why the coupon applied earlier was dropped at a later read (for example `discount_code_minimum_not_met`);
   * null otherwise. Cleared by the next POST or DELETE /cart/discount_code.
   */
  @ApiProperty({ type: String, nullable: true, enum: COUPON_REFUSALS })
  discount_code_error: CouponRefusal | null;
  /** The promotions applied, by promotion (their line parts are inside `total_discount`); only while the shop has an active promotion. */
  @ApiPropertyOptional({ type: () => [PromotionDiscountDto] })
  discounts?: PromotionDiscountDto[];
  /**
   * Promotions the cart is close to ("add 2 more"): missing only their minimum quantity or subtotal, each missing part
   * at most half its threshold (or at most 2 units), at most 5, the smallest share missing first, then priority
   * descending and id; only while the shop has an active promotion.
   */
  @ApiPropertyOptional({ type: () => [AvailablePromotionDto] })
  available_promotions?: AvailablePromotionDto[];
  /** Buy-X-get-Y gifts to offer (the storefront adds them); only while the shop has an active promotion. */
  @ApiPropertyOptional({ type: () => [SuggestedGiftDto] })
  suggested_gifts?: SuggestedGiftDto[];
}

export class AddCartItemDto {
  /** The variant to add: published, active, of a published product of this shop (else 422). */
  @IsUUID('all', { message: 'article_id must be a UUID' })
  article_id: string;

  /** The increment; default 1; the resulting line quantity must obey the variant's quantity_rule. */
  @IsOptional()
  @IsNumber(QUANTITY)
  @Min(0.001, { message: 'quantity must be greater than 0' })
  @Max(MAX_QUANTITY)
  quantity?: number | null;
}

export class UpdateCartItemDto {
  /** The absolute quantity; 0 removes the line. */
  @IsNumber(QUANTITY)
  @Min(0)
  @Max(MAX_QUANTITY)
  quantity: number;
}

export class SetCartCurrencyDto {
  /** A published currency of the shop; wins over `code` when both are sent. */
  @IsOptional()
  @IsUUID('all', { message: 'currency_id must be a UUID' })
  currency_id?: string | null;

  /** ISO 4217 code, case-insensitive. */
  @OptionalText(10)
  code?: string | null;
}

export class ApplyDiscountCodeDto {
  /** Matched exactly (case and spaces included). */
  @NonBlankText('code', 100)
  code: string;
}
