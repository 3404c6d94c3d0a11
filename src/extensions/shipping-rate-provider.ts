import type { RequestContext } from '../common/context/request-context.js';

/** What a carrier is asked for one shipping method and one checkout (README "Shipping", "Extension points"). */
export interface ShippingRateRequest {
  method: { id: string; key: string; name: Record<string, string> };
  /** The shipping address as far as it is known, and the method's zone that serves it (null: none yet). */
  destination: { country: string | null; postcode: string | null; zone: string | null };
  lines: ReadonlyArray<{ variantId: string; quantity: number; grams: number | null }>;
  /** The subtotal after discount, minor units of `currency`. */
  value: number;
  currency: string;
  precision: number;
}

export interface ShippingRate {
  /** Minor units of the request's currency, 0 or more. */
  amount: number;
  /** Working days to delivery; absent: the method's (or zone's) own. */
  deliveryDays?: number | null;
}

/**
 * **Shipping rate provider** (several, by `name`). Carrier-calculated rates: a shipping method whose `rate_provider`
 * names a provider asks it first, at every checkout read and at placement; an answer of null means the carrier
 * cannot serve the parcel (the method is not offered). A provider that throws, answers something invalid or takes
 * longer than `SHIPPING_RATE_PROVIDER_TIMEOUT_MS` (default 2000) is not trusted: the method's own rate table (or flat
 * price) applies, with a warning logged and `shipping_rate_provider_fallbacks_total` counted. For a name served by
 * several providers the last registered wins.
 */
export abstract class ShippingRateProvider {
  abstract readonly name: string;
  abstract rate(ctx: RequestContext, request: ShippingRateRequest): Promise<ShippingRate | null>;
}
