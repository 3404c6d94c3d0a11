import { Injectable } from '@nestjs/common';
import type { CurrencyInfo, RequestContext } from '../common/context/request-context.js';
import { AppError } from '../common/http/app-error.js';
import { catalogueLineOf, type QuantityRuleRow, type SellableVariantRow } from '../catalogue/index.js';
import { couponInputOf, DiscountCode, DiscountCodesService } from '../discounts/index.js';
import { TenancyService } from '../tenancy/index.js';
import { PriceAdjustments } from '../extensions/index.js';
import { ownerOf } from './cart-owner.js';
import { CartRepository, type CartItemRow, type CartRow } from './cart.repository.js';
import { couponAmount, CouponRefusal, evaluateCoupon, PricedLine, PricedTotals, priceLines, quantityRuleViolation, withDiscount } from '../pricing/index.js';
import { PromotionEvaluation, type AppliedPromotion, type EngineResult } from '../promotions/index.js';
import { detailsOf, type LineRow, mapCart } from './cart-mappers.js';
import { AddCartItemDto, ApplyDiscountCodeDto, CartDto, SetCartCurrencyDto, UpdateCartItemDto } from './dto/cart.dto.js';

/** Catalogue facts of a line, beside its price (for the cart response and the checkout's line items). */
export interface CartLineDetails {
  sku: string | null;
  title: string | null;
  handle: string | null;
  vendor: string | null;
  image: { id: string; src: string | null; alt: string | null; position: number; width: number; height: number } | null;
  year: string | null;
  size: string | null;
  color: string | null;
}

/** `promotions`: what each promotion took off the line (absent while the shop has no active promotion). */
export type PricedCartLine = PricedLine & { details: CartLineDetails; promotions?: AppliedPromotion[] };

/** A cart priced now: what GET /cart shows, and what the checkout builds from. Money in minor units of `currency`. */
export interface PricedCart extends Omit<PricedTotals, 'lines'> {
  /** Null while the owner has no cart row. */
  cartId: string | null;
  lines: PricedCartLine[];
  /** The coupon that applies (null when none), with its row for redemption. */
  discountCode: string | null;
  coupon: DiscountCode | null;
  /** Why a coupon was dropped at a read; null otherwise. */
  discountCodeError: CouponRefusal | null;
  /** The promotions engine's answer for this cart (null: the shop has no active promotion). */
  promotions: EngineResult | null;
  /** The catalogue's row of each line's variant as read for this pricing, by line (the checkout made from it reuses them). */
  rows: Array<SellableVariantRow & { quantity: string }>;
}

const NUMERIC_OVERFLOW = '22003';

/**
 * The storefront cart (SPEC "Cart", "Storefront: cart"; CONTRACT 4, 5, 7). The cart belongs to the request's
 * owner (shopper, else visitor cookie) and is never addressed by id. Nothing price-related is stored: every read
 * re-prices from the catalogue in the cart's currency and re-checks the coupon (`priceCart`).
 */
@Injectable()
export class CartService {
  constructor(
    private readonly carts: CartRepository,
    private readonly tenancy: TenancyService,
    private readonly discounts: DiscountCodesService,
    private readonly prices: PriceAdjustments,
    private readonly evaluation: PromotionEvaluation,
  ) {}

  /** The visitor's cart currency, for the API guard (`CartCurrency`; CONTRACT 4: the storefront's active currency after `?currency`). */
  async cartCurrencyId(ctx: RequestContext): Promise<string | null> {
    // a visitor id minted by this request (no cookie came) owns no cart: no query
    if (ctx.actor.type !== 'customer' && (!ctx.visitorId || ctx.visitorId === ctx.mintedVisitorId)) return null;
    const row = await this.carts.findCart(ctx, ownerOf(ctx));
    this.guardReads.set(ctx, row);
    return row?.currency_id ?? null;
  }

  /** The cart row the API guard read for a request (by its context), for `priceCart`'s `reuseGuardRead` (issue 34). */
  private readonly guardReads = new WeakMap<RequestContext, CartRow | null>();

  // ------------------------------------------------------------------ reads

  async get(ctx: RequestContext): Promise<CartDto> {
    return mapCart(await this.priceCart(ctx));
  }

  /**
   * The owner's cart priced now (pure pricing in `cart-pricing.ts`), in `options.currency` (default: the request's
   * active currency, which is the cart's own unless `?currency` overrides it). Lines whose variant is no longer
   * visible are left out. `basis` picks what `unit`, `line`, `subtotal` and the coupon's base are: `display` (the
   * net/gross rule of the cart view, the default), or `net` / `gross` (for the checkout's shop price basis); every
   * line also carries both. With the display basis a coupon that stopped applying is dropped from the cart and its
   * reason kept in `discountCodeError`; otherwise it is only reported. Creates nothing.
   */
  async priceCart(
    ctx: RequestContext,
    options: { currency?: CurrencyInfo; basis?: 'display' | 'net' | 'gross'; reuseGuardRead?: boolean; written?: CartRow; lines?: LineRow[] } = {},
  ): Promise<PricedCart> {
    const currency = options.currency ?? ctx.activeCurrency;
    const basis = options.basis ?? 'display';
    const owner = ownerOf(ctx);
    // `reuseGuardRead`: a request that wrote no cart row since its guard read it takes that row (POST /checkouts)
    const reused = options.reuseGuardRead && !ctx.manager ? this.guardReads.get(ctx) : undefined;
    // `written`: the cart row as this request's write returned it (POST /cart/items)
    const cart = options.written ?? (reused !== undefined ? reused : await this.carts.findCart(ctx, owner));
    const showNet = basis === 'display' ? await this.showNetPrices(ctx) : basis === 'net';
    // `lines`: the cart's lines with their catalogue rows as this request's write read them (POST /cart/items)
    const rows = options.lines ?? (cart ? await this.lineRows(ctx, cart.id) : []);
    // the pricing extension point (PriceAdjuster providers) may replace a line's unit price first
    const catalogueLines = await this.prices.apply(ctx, owner.kind === 'customer' ? owner.customerId : null, rows.map(catalogueLineOf));
    const base = priceLines(catalogueLines, currency, showNet);
    let discount = 0;
    let coupon: DiscountCode | null = null;
    let discountCode = cart?.discount_code ?? null;
    let discountCodeError = cart?.discount_code_error ?? null;
    const promotionCodes: string[] = [];
    if (cart && discountCode) {
      const config = await this.tenancy.config(ctx.tenantId);
      const row = await this.discounts.findByCode(ctx, discountCode);
      const result = evaluateCoupon(row ? couponInputOf(row) : null, base.subtotal, currency, config.defaultCurrency.id);
      // a code naming no discount code may be an active promotion's (issue 32): the engine checks it as a condition
      if (!row && (await this.evaluation.byCode(ctx, discountCode))) promotionCodes.push(discountCode);
      else if (result.ok) {
        discount = result.discount;
        coupon = row;
      } else {
        if (basis === 'display') await this.carts.dropCoupon(ctx, cart.id, discountCode, result.code);
        discountCode = null;
        discountCodeError = result.code;
      }
    }
    // promotions (issue 32): evaluated once on the priced lines; a coupon stacking with them applies to what they left
    const prepared = await this.evaluation.prepare(ctx, {
      currency,
      customerId: owner.kind === 'customer' ? owner.customerId : null,
      codes: promotionCodes,
      hasDiscountCode: coupon !== null,
      shipping: null,
      facts: (ids) => this.carts.variantPromotionFacts(ctx, ids),
      variantIds: base.lines.map((l) => l.variantId),
    });
    const promotions = prepared ? prepared.promote(base.lines, null) : null;
    const promoted = promotions ? promotions.lines.reduce((a, l) => a + l.discount, 0) : 0;
    if (promoted > 0 && coupon) discount = couponAmount(couponInputOf(coupon), base.subtotal - promoted, currency);
    const lines: PricedCartLine[] = base.lines.map((l, i) => {
      const line: PricedCartLine = { ...l, details: detailsOf(rows[i], ctx) };
      if (promotions) line.promotions = promotions.lines[i].promotions;
      return line;
    });
    return { ...withDiscount(base, promoted + discount), lines, cartId: cart?.id ?? null, discountCode, coupon, discountCodeError, promotions, rows };
  }

  // ------------------------------------------------------------------ lines

  /**
   * POST /cart/items: adds `quantity` (default 1) to the line in one statement (cart upsert, then
   * `INSERT ... ON CONFLICT DO UPDATE SET quantity = cart_items.quantity + EXCLUDED.quantity`), so concurrent adds
   * never lose an increment; the resulting quantity must obey the quantity rule, else the transaction rolls back.
   */
  async addItem(ctx: RequestContext, dto: AddCartItemDto): Promise<CartDto> {
    const owner = ownerOf(ctx);
    const quantity = dto.quantity ?? 1;
    // one statement checks the rule, writes, and reads what the answer needs (issue 34); outside a transaction only
    if (!ctx.manager) {
      const added = await this.guardOverflow(() => this.carts.addChecked(ctx, owner, dto.article_id, quantity.toFixed(3)));
      if (!added.rule) throw AppError.unprocessable('article_id does not name a published, active variant of this shop');
      if (added.quantity !== null && added.cart) {
        // the lines as they are now: the ones read before the write, the added one at its new quantity (a new line last)
        const items = added.items.some((i) => i.variant_id === dto.article_id)
          ? added.items.map((i) => (i.variant_id === dto.article_id ? { ...i, quantity: added.quantity! } : i))
          : [...added.items, { variant_id: dto.article_id, quantity: added.quantity }];
        return mapCart(await this.priceCart(ctx, { written: added.cart, lines: linesSold(items, added.sold) }));
      }
      const violation = quantityRuleViolation(added.wanted, added.rule);
      if (violation) throw AppError.unprocessable(violation);
      // the rule held on the line as read but not on the line as written: another add came in between; decide again
    }
    const cart = await this.carts.transaction(ctx, async (tx) => {
      const rule = await this.visibleVariant(tx, dto.article_id);
      const added = await this.guardOverflow(() => this.carts.addToLine(tx, owner, dto.article_id, quantity.toFixed(3)));
      const violation = quantityRuleViolation(added.quantity, rule);
      if (violation) throw AppError.unprocessable(violation);
      return added.cart;
    });
    // the cart row as the add wrote it prices the answer (issue 34: no read of it after the commit)
    return mapCart(await this.priceCart(ctx, { written: cart }));
  }

  /** PUT /cart/items/{id}: the absolute quantity (adds the line when absent); 0 removes the line. */
  async setItem(ctx: RequestContext, variantId: string, dto: UpdateCartItemDto): Promise<CartDto> {
    const owner = ownerOf(ctx);
    if (dto.quantity === 0) return this.removeItem(ctx, variantId);
    const rule = await this.visibleVariant(ctx, variantId);
    const violation = quantityRuleViolation(dto.quantity, rule);
    if (violation) throw AppError.unprocessable(violation);
    await this.carts.setLine(ctx, owner, variantId, dto.quantity.toFixed(3));
    return this.get(ctx);
  }

  /** DELETE /cart/items/{id}: idempotent. */
  async removeItem(ctx: RequestContext, variantId: string): Promise<CartDto> {
    await this.carts.removeLine(ctx, ownerOf(ctx), variantId);
    return this.get(ctx);
  }

  /** DELETE /cart: removes every line and the coupon (the chosen currency stays); idempotent. */
  async clear(ctx: RequestContext): Promise<CartDto> {
    await this.empty(ctx);
    return this.get(ctx);
  }

  /** Empties the owner's cart (the checkout calls this once the order is placed). */
  async empty(ctx: RequestContext): Promise<void> {
    // one statement (issue 34): the owner's cart row loses its coupon, its lines go
    await this.carts.empty(ctx, ownerOf(ctx));
  }

  // ------------------------------------------------------------------ currency and coupon

  /** PUT /cart/currency: by id (wins) or ISO code (case-insensitive); 422 unless the shop publishes it. */
  async setCurrency(ctx: RequestContext, dto: SetCartCurrencyDto): Promise<CartDto> {
    const config = await this.tenancy.config(ctx.tenantId);
    let currency;
    if (dto.currency_id) {
      currency = config.currencies.find((c) => c.id === dto.currency_id && c.published);
      if (!currency) throw AppError.unprocessable('currency_id names no currency this shop offers');
    } else if (typeof dto.code === 'string' && dto.code.trim()) {
      const code = dto.code.trim().toUpperCase();
      currency = config.currencies.find((c) => c.code === code && c.published);
      if (!currency) throw AppError.unprocessable(`currency ${dto.code} is not offered by this shop`);
    } else {
      throw AppError.unprocessable('currency_id or code is required');
    }
    await this.carts.setCurrency(ctx, ownerOf(ctx), currency.id);
    const info: CurrencyInfo = { id: currency.id, code: currency.code, rate: currency.rate, precision: currency.precision, isDefault: currency.isDefault };
    ctx.currency = info;
    return mapCart(await this.priceCart(ctx, { currency: info }));
  }

  /** POST /cart/discount_code: exact match; a refusal is 422 with its CONTRACT 4 code and leaves the cart unchanged. */
  async applyDiscountCode(ctx: RequestContext, dto: ApplyDiscountCodeDto): Promise<CartDto> {
    const priced = await this.priceCart(ctx);
    const config = await this.tenancy.config(ctx.tenantId);
    const row = await this.discounts.findByCode(ctx, dto.code);
    const result = evaluateCoupon(row ? couponInputOf(row) : null, priced.subtotal, priced.currency, config.defaultCurrency.id);
    // no discount code of that name: an active promotion's code (issue 32) is kept the same way
    const promotion = row ? null : await this.evaluation.byCode(ctx, dto.code);
    if (!result.ok && !promotion) throw AppError.unprocessable(result.message, result.code);
    await this.carts.setDiscountCode(ctx, ownerOf(ctx), promotion ? promotion.code : row!.code);
    return this.get(ctx);
  }

  /** DELETE /cart/discount_code: clears the coupon (and a dropped coupon's reason); idempotent. */
  async removeDiscountCode(ctx: RequestContext): Promise<CartDto> {
    await this.carts.clearDiscountCode(ctx, ownerOf(ctx));
    return this.get(ctx);
  }

  // ------------------------------------------------------------------ sign-in

  /**
   * Carries a visitor's cart over to a shopper at sign-in: without a shopper cart the visitor's cart becomes it;
   * otherwise the visitor's lines are added to the shopper's (quantities summed), the visitor's currency and
   * coupon win when set, and the visitor's cart is deleted. Idempotent; runs in the caller's transaction if any.
   */
  async mergeVisitorIntoCustomer(ctx: RequestContext, visitorId: string, customerId: string): Promise<void> {
    await this.carts.transaction(ctx, async (tx) => {
      const visitor = await this.carts.lockVisitorCart(tx, visitorId);
      if (!visitor) return;
      const mine = await this.carts.lockCustomerCart(tx, customerId);
      if (!mine) await this.carts.giveToCustomer(tx, visitor.id, customerId);
      else await this.carts.mergeInto(tx, mine.id, visitor);
    });
  }

  // ------------------------------------------------------------------ pieces

  /** Net display: the shop's setting, or a corporate or reseller shopper. */
  async showNetPrices(ctx: RequestContext): Promise<boolean> {
    const config = await this.tenancy.config(ctx.tenantId);
    if (config.settings.show_net_prices) return true;
    if (ctx.actor.type !== 'customer') return false;
    const type = await this.carts.customerType(ctx, ctx.actor.customerId);
    return type === 'corporate' || type === 'reseller';
  }

  /** The quantity rule of a variant the storefront may sell (a visible variant of this shop, per the catalogue), else 422. */
  private async visibleVariant(ctx: RequestContext, variantId: string): Promise<QuantityRuleRow> {
    const rule = await this.carts.sellableVariantRule(ctx, variantId);
    if (!rule) throw AppError.unprocessable('article_id does not name a published, active variant of this shop');
    return rule;
  }

  /** The cart's lines whose variant is still visible (per the catalogue), oldest first, with what the response shows. */
  private async lineRows(ctx: RequestContext, cartId: string): Promise<LineRow[]> {
    const { items, sold } = await this.carts.itemsSold(ctx, cartId);
    return linesSold(items, sold);
  }

  private async guardOverflow<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      const code = (err as { driverError?: { code?: string }; code?: string })?.driverError?.code ?? (err as { code?: string })?.code;
      if (code === NUMERIC_OVERFLOW) throw AppError.unprocessable('quantity is too large');
      throw err;
    }
  }
}

/** The lines (oldest first) whose variant is still sold, with its catalogue row (`sold`). */
function linesSold(items: readonly CartItemRow[], sold: readonly SellableVariantRow[]): LineRow[] {
  const byId = new Map(sold.map((r) => [r.variant_id, r]));
  return items.flatMap((i) => {
    const v = byId.get(i.variant_id);
    return v ? [{ ...v, quantity: i.quantity }] : [];
  });
}
