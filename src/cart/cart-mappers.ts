import type { RequestContext } from '../common/context/request-context.js';
import { translate } from '../common/i18n.js';
import type { SellableVariantRow } from '../catalogue/index.js';
import { fromMinor } from '../pricing/index.js';
import { type LinePromotionDto, mapCartPromotions, mapLinePromotions } from '../promotions/index.js';
import type { CartLineDetails, PricedCart, PricedCartLine } from './cart.service.js';
import type { CartDto, CartLineDto } from './dto/cart.dto.js';

/** The cart's mappers: catalogue rows to pricing input and line details, priced carts to the response shapes. */

/** A cart line: its quantity beside the catalogue's row of its (visible) variant. */
export type LineRow = SellableVariantRow & { quantity: string };

export function detailsOf(r: LineRow, ctx: RequestContext): CartLineDetails {
  return {
    sku: r.sku,
    title: translate(r.title, ctx),
    handle: r.handle,
    vendor: r.vendor,
    image: r.image_id
      ? { id: r.image_id, src: r.image_src, alt: r.image_alt, position: r.image_position ?? 0, width: r.image_width ?? 0, height: r.image_height ?? 0 }
      : null,
    year: r.year ? translate(r.year, ctx) : null,
    size: r.size ? translate(r.size, ctx) : null,
    color: r.color ? translate(r.color, ctx) : null,
  };
}

/** `promotions`: the line's promotions already mapped (`mapCartPromotions`), else mapped from the line's own. */
export function mapCartLine(l: PricedCartLine, precision: number, promotions?: LinePromotionDto[]): CartLineDto {
  const line = mapPlainLine(l, precision);
  // added to the line built above rather than spread into a copy of it (100 lines per read in issue 32's case)
  if (promotions) line.promotions = promotions;
  else if (l.promotions) line.promotions = mapLinePromotions(l.promotions, precision);
  return line;
}

function mapPlainLine(l: PricedCartLine, precision: number): CartLineDto {
  const money = (minor: number) => fromMinor(minor, precision);
  const d = l.details;
  return {
    id: l.variantId,
    product_id: l.productId,
    sku: d.sku,
    title: d.title,
    url: `/products/${d.handle ?? l.productId}`,
    quantity: l.quantity,
    price: money(l.unit),
    net_price: money(l.unitNet),
    gross_price: money(l.unitGross),
    discount_percent: l.discountPercent,
    line_price: money(l.line),
    image: d.image
      ? {
          id: d.image.id,
          src: d.image.src,
          preview_src: d.image.src,
          alt: d.image.alt,
          position: d.image.position,
          width: d.image.width,
          height: d.image.height,
        }
      : { id: l.productId, src: null, preview_src: null, alt: null, position: 0, width: 0, height: 0 }, // SPEC Image.id uuid: the product's id without an image
    vendor: d.vendor,
    grams: l.grams,
    year: d.year,
    size: d.size,
    color: d.color,
  };
}

export function mapCart(c: PricedCart): CartDto {
  const p = c.currency.precision;
  // the promotions' members are mapped once per engine answer, shared by the reads of an unchanged cart
  const promoted = c.promotions ? mapCartPromotions(c.promotions, c.currency) : null;
  return {
    currency: c.currency.code,
    show_net_prices: c.showNet,
    item_count: c.itemCount,
    items: c.lines.map((l, i) => mapCartLine(l, p, promoted?.lines[i])),
    items_subtotal_price: fromMinor(c.subtotal, p),
    total_discount: fromMinor(c.discount, p),
    total_price: fromMinor(c.total, p),
    total_weight: c.totalGrams,
    discount_code: c.discountCode,
    discount_code_error: c.discountCodeError,
    ...(promoted ? { discounts: promoted.discounts, available_promotions: promoted.available, suggested_gifts: promoted.gifts } : {}),
  };
}
