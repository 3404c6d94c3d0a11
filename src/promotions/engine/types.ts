/**
 * The promotions engine's vocabulary (pure data, no Nest, no SQL). Money is integer minor units of the cart's
 * currency throughout; the caller converts a promotion's amounts once when it compiles them for a currency.
 */

/** The kind of a promotion, from its actions: what it reduces (and what `combines_with` names). */
export type PromotionClass = 'product' | 'order' | 'shipping';

/** Which other promotions (by class) and whether discount codes may apply together with this one. */
export interface CombinesWith {
  product: boolean;
  order: boolean;
  shipping: boolean;
  discount_codes: boolean;
}

/** The facets of the catalogue a line can be matched by. */
export const LINE_FACETS = ['colour', 'country', 'region', 'vintage', 'size'] as const;
export type LineFacet = (typeof LINE_FACETS)[number];

/** One way a line can match; a selector (a list of these) matches a line when any of them does. */
export type LineMatcher =
  | { type: 'product'; ids: string[] }
  | { type: 'variant'; ids: string[] }
  | { type: 'collection'; ids: string[] }
  | { type: 'category'; ids: string[] }
  | { type: 'manufacturer'; ids: string[] }
  | { type: 'facet'; facet: LineFacet; values: string[] }
  | { type: 'custom_field'; key: string; values: string[] };

export type LineSelector = LineMatcher[];

/** Every condition must hold. */
export type PromotionCondition =
  /** The cart's subtotal (all lines, before promotions) is at least `amount`. */
  | { type: 'min_subtotal'; amount: number }
  /** The matching lines hold at least `quantity` units together. */
  | { type: 'min_quantity'; quantity: number }
  /** At least one line matches `selector`; several such conditions: a matching line matches all of them. */
  | { type: 'lines'; selector: LineSelector }
  | { type: 'customer_signed_in' }
  /** The shopper belongs to one of these customer groups. */
  | { type: 'customer_group'; group_ids: string[] }
  /** The cart ships to one of these countries (ISO 3166-1 alpha-2). */
  | { type: 'shipping_country'; countries: string[] }
  /** The cart ships into one of these zones (the shop's tax/shipping zones, by key or id). */
  | { type: 'shipping_zone'; zones: string[] }
  /** The shopper has no completed order yet (a guest counts when the caller says so). */
  | { type: 'first_order' }
  /** The buyer entered this code (case-insensitive). */
  | { type: 'code'; code: string }
  /** An extension's condition (`PromotionConditionHandler` by `name`). */
  | { type: 'custom'; name: string; params: Record<string, unknown> };

/**
 * What a promotion does. Line actions reduce the matching lines (the promotion's `lines` conditions; every line
 * when it has none). Unit-based actions (`set_price`, `n_for_m`, `buy_x_get_y`) count whole units only.
 */
export type PromotionAction =
  | { type: 'percent_off_lines'; percent: number }
  /** `amount` off each matching unit (never below 0). */
  | { type: 'fixed_off_lines'; amount: number }
  /** Each full set of `size` matching units costs `price` (e.g. 6 for 60.00). */
  | { type: 'set_price'; size: number; price: number }
  /** Each full set of `size` matching units gets `percent` off (a mixed case of 12 at 10% off). */
  | { type: 'set_percent'; size: number; percent: number }
  /** Each group of `n` matching units costs the price of `m`; the free units are the cheapest or dearest of the group. */
  | { type: 'n_for_m'; n: number; m: number; free: 'cheapest' | 'most_expensive' }
  /** Buying `buy_quantity` units matching `buy` makes `get_quantity` units matching `get` `percent` off (100: free). */
  | {
      type: 'buy_x_get_y';
      buy: LineSelector;
      buy_quantity: number;
      get: LineSelector;
      get_quantity: number;
      percent: number;
      max_applications: number | null;
    }
  | { type: 'percent_off_order'; percent: number }
  | { type: 'fixed_off_order'; amount: number }
  /** Shipping `percent` off (100: free) or `amount` off, for these methods/countries/zones (empty: any). */
  | { type: 'shipping'; percent: number | null; amount: number | null; method_ids: string[]; countries: string[]; zones?: string[] }
  /** An extension's action on the matching lines (`PromotionActionHandler` by `name`). */
  | { type: 'custom'; name: string; params: Record<string, unknown> };

export const PRODUCT_ACTIONS = ['percent_off_lines', 'fixed_off_lines', 'set_price', 'set_percent', 'n_for_m', 'buy_x_get_y', 'custom'] as const;
export const ORDER_ACTIONS = ['percent_off_order', 'fixed_off_order'] as const;

/** A promotion as the engine reads it (enabled, in its time window and under its usage limits: the caller's filter). */
export interface PromotionDefinition {
  id: string;
  name: string;
  /** Higher first in ties (see `rank` in combine.ts). */
  priority: number;
  combinesWith: CombinesWith;
  conditions: PromotionCondition[];
  actions: PromotionAction[];
}

/** A cart line as the engine sees it. */
export interface EngineLine {
  variantId: string;
  productId: string;
  collectionIds: readonly string[];
  categoryIds: readonly string[];
  manufacturerId: string | null;
  /** Facet values of the variant (`vintage: ['2019']`). */
  facets: Partial<Record<LineFacet, readonly string[]>>;
  /** Custom-field values by field key (one value, or several for a multi-select field). */
  customFields: Readonly<Record<string, string | readonly string[]>>;
  /** May be decimal (sold by weight); unit actions use its whole units. */
  quantity: number;
  /** Unit price and the line's amount (rounded once by the caller), minor units, in the cart's basis. */
  unit: number;
  amount: number;
}

export interface EngineCart {
  lines: readonly EngineLine[];
  customer: { id: string; groupIds: readonly string[]; firstOrder: boolean } | null;
  /** A guest without an order history is on a first order when the caller says so. */
  guestFirstOrder: boolean;
  /** `zones`: keys and ids of the zones containing the delivery address (absent: none known). */
  shipping: { methodId: string | null; country: string | null; zones?: readonly string[]; amount: number } | null;
  /** Codes the buyer entered for promotions (upper-cased by the engine). */
  codes: readonly string[];
  /** A discount code (the existing coupons) is on the cart: promotions not combining with codes stand aside. */
  hasDiscountCode: boolean;
}

/** Extension hooks, pure and synchronous: whatever they need is loaded before evaluation. */
export interface EngineHooks {
  conditions?: ReadonlyMap<string, (params: Record<string, unknown>, cart: EngineCart) => boolean>;
  /** Minor units off each of `lines` (same order, each 0..line.amount). */
  actions?: ReadonlyMap<string, (params: Record<string, unknown>, lines: readonly EngineLine[]) => number[]>;
}

export interface AppliedPromotion {
  promotionId: string;
  name: string;
  amount: number;
}

export interface LineResult {
  /** Minor units off this line (sum of `promotions`), never above its amount. */
  discount: number;
  promotions: AppliedPromotion[];
}

export interface DiscountResult extends AppliedPromotion {
  promotionClass: PromotionClass;
  /** Of `amount`: what came off the lines and off the shipping. */
  lines: number;
  shipping: number;
}

/** A promotion the buyer is close to: only its minimum quantity or subtotal is missing. */
export interface AvailablePromotion {
  promotionId: string;
  name: string;
  missingQuantity: number | null;
  missingSubtotal: number | null;
}

/** A buy-X-get-Y whose "buy" part holds but whose gift units are (partly) missing from the cart. */
export interface SuggestedGift {
  promotionId: string;
  name: string;
  selector: LineSelector;
  quantity: number;
}

export interface EngineResult {
  /** In the order of the input lines. */
  lines: LineResult[];
  /** By promotion, in rank order (combine.ts). */
  discounts: DiscountResult[];
  linesDiscount: number;
  shippingDiscount: number;
  available: AvailablePromotion[];
  suggestedGifts: SuggestedGift[];
}
