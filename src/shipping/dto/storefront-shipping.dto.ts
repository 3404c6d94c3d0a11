import { ApiProperty } from '@nestjs/swagger';
import { translate } from '../../common/i18n.js';
import type { RequestContext } from '../../common/context/request-context.js';
import type { ShippingMethodRow } from '../method-zones.js';

/**
 * A shipping method as a shopper may see it before checkout (issue 37: the storefront's free-shipping progress).
 * Not in SPEC: SPEC pins the checkout's `shipping_options` to {id, name, price, expected_delivery_date}, so the
 * threshold is answered here, by `GET /shipping_methods`, instead.
 */
export class StorefrontShippingMethodDto {
  id: string;
  /** In the request's language. */
  name: string;
  /** ISO country codes it ships to; empty: every country (a method with zones serves its zones' countries). */
  @ApiProperty({ type: [String] })
  countries: string[];
  /**
   * The shipping is free when the checkout's subtotal (in the shop's price basis, README "Shipping") reaches this
   * amount of the shop's default currency (converted by the checkout currency's `rate`, as `GET /currencies` gives
   * it); null: never free by amount. A zone of the method may set its own (not listed here).
   */
  @ApiProperty({ type: Number, nullable: true })
  free_over: number | null;
  /** Days to the delivery; null: the method names none. */
  @ApiProperty({ type: Number, nullable: true })
  delivery_days: number | null;
}

export function mapStorefrontShippingMethod(r: ShippingMethodRow, ctx: RequestContext): StorefrontShippingMethodDto {
  return {
    id: r.id,
    name: translate(r.name, ctx) ?? r.key,
    countries: r.countries,
    free_over: r.free_over === null ? null : Number(r.free_over),
    delivery_days: r.delivery_days,
  };
}
