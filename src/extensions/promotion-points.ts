import type { RequestContext } from '../common/context/request-context.js';

/** Promotions' extension points (issue 32; README "Extension points"), re-exported by extension-points.ts. */
/** What a promotion extension sees of the cart it evaluates (loaded once per evaluation). */
export interface PromotionCartView {
  /** The signed-in shopper; null for a guest or visitor. */
  customerId: string | null;
}

/** A cart line as a promotion action sees it: money in minor units of the cart's currency. */
export interface PromotionLineView {
  variantId: string;
  productId: string;
  quantity: number;
  /** Unit price and the line's amount (before promotions). */
  unit: number;
  amount: number;
}

/**
 * **Promotion condition** (several, one per `name`). Makes `{"type": "custom", "name": <name>, "params": {...}}` a
 * valid promotion condition (README "Promotions"). `forCart` loads what it needs for one cart (in the caller's
 * transaction, `ctx.manager` when open) and returns the test, called synchronously for each promotion using it; an
 * unknown name never holds. The built-in example: `examples/wine-club/` (`wine_club_member`).
 */
export abstract class PromotionCondition {
  abstract readonly name: string;
  abstract forCart(ctx: RequestContext, cart: PromotionCartView): Promise<(params: Record<string, unknown>) => boolean>;
}

/**
 * **Promotion action** (several, one per `name`): `{"type": "custom", "name": <name>, "params": {...}}` as a product
 * action. The returned function gets the promotion's matching lines and answers the minor units off each (same order;
 * each is clamped to 0..amount of its line).
 */
export abstract class PromotionAction {
  abstract readonly name: string;
  abstract forCart(ctx: RequestContext, cart: PromotionCartView): Promise<(params: Record<string, unknown>, lines: readonly PromotionLineView[]) => number[]>;
}

/** A variant's catalogue sale price as a `CataloguePriceRule` answers it. */
export interface CatalogueSalePrice {
  variantId: string;
  productId: string;
  /** The sale price: gross, default currency, as a decimal string with at most 4 decimals; below the regular price. */
  gross: string;
  /** What made it (for the record): promotion ids. */
  sourceIds: string[];
}

/**
 * **Catalogue price rule** (one). The sale prices of the visible variants of these products (every product of the
 * shop when null) at this moment, read in the caller's transaction (`ctx.manager`): the catalogue stores them in
 * `variant_sale_prices` when it rebuilds the products' search rows, so the storefront lists, facets, price filters
 * and sorting show them (`compare_at_price` = the regular price). A variant not answered has no sale price. Built
 * in: the promotions module (catalogue promotions, issue 32); without one, nothing is on a catalogue sale.
 */
export abstract class CataloguePriceRule {
  abstract salePrices(ctx: RequestContext, productIds: string[] | null): Promise<CatalogueSalePrice[]>;
}
