import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CurrencyInfo, RequestContext } from '../common/context/request-context.js';
import { inTransaction, managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import {
  catalogueLineOf,
  sellableVariantRule,
  sellableVariants,
  variantPromotionFacts,
  type QuantityRuleRow,
  type SellableVariantRow,
} from '../catalogue/index.js';
import { customerType } from '../customers/index.js';
import { couponInputOf, DiscountCode, DiscountCodesService } from '../discounts/index.js';
import { TenancyService } from '../tenancy/index.js';
import { PriceAdjustments } from '../extensions/index.js';
import { Owner, ownerClause, ownerColumns, ownerOf } from './cart-owner.js';
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

interface CartRow {
  id: string;
  currency_id: string | null;
  discount_code: string | null;
  discount_code_error: CouponRefusal | null;
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
    private readonly dataSource: DataSource,
    private readonly tenancy: TenancyService,
    private readonly discounts: DiscountCodesService,
    private readonly prices: PriceAdjustments,
    private readonly evaluation: PromotionEvaluation,
  ) {}

  /** The visitor's cart currency, for the API guard (`CartCurrency`; CONTRACT 4: the storefront's active currency after `?currency`). */
  async cartCurrencyId(ctx: RequestContext): Promise<string | null> {
    // a visitor id minted by this request (no cookie came) owns no cart: no query
    if (ctx.actor.type !== 'customer' && (!ctx.visitorId || ctx.visitorId === ctx.mintedVisitorId)) return null;
    const row = await this.findCart(ctx, ownerOf(ctx));
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
    options: { currency?: CurrencyInfo; basis?: 'display' | 'net' | 'gross'; reuseGuardRead?: boolean } = {},
  ): Promise<PricedCart> {
    const currency = options.currency ?? ctx.activeCurrency;
    const basis = options.basis ?? 'display';
    const owner = ownerOf(ctx);
    // `reuseGuardRead`: a request that wrote no cart row since its guard read it takes that row (POST /checkouts)
    const reused = options.reuseGuardRead && !ctx.manager ? this.guardReads.get(ctx) : undefined;
    const cart = reused !== undefined ? reused : await this.findCart(ctx, owner);
    const showNet = basis === 'display' ? await this.showNetPrices(ctx) : basis === 'net';
    const rows = cart ? await this.lineRows(ctx, cart.id) : [];
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
        if (basis === 'display') {
          await managerOf(ctx, this.dataSource).query(
            `UPDATE carts SET discount_code = NULL, discount_code_error = $3, updated_at = now() WHERE id = $1 AND tenant_id = $2 AND discount_code = $4`,
            [cart.id, ctx.tenantId, result.code, discountCode],
          );
        }
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
      facts: (ids) => variantPromotionFacts(managerOf(ctx, this.dataSource), ctx.tenantId, ids),
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
    await inTransaction(ctx, this.dataSource, async (tx) => {
      const rule = await this.visibleVariant(tx, dto.article_id);
      const o = ownerColumns(owner);
      const rows: Array<{ quantity: string }> = await this.guardOverflow(() =>
        managerOf(tx, this.dataSource).query(
          `WITH cart AS (
             INSERT INTO carts (tenant_id, visitor_id, customer_id) VALUES ($1, $2, $3)
             ON CONFLICT ${o.conflict} DO UPDATE SET updated_at = now()
             RETURNING id)
           INSERT INTO cart_items (tenant_id, cart_id, variant_id, quantity)
           SELECT $1, cart.id, $4, $5::numeric FROM cart
           ON CONFLICT (tenant_id, cart_id, variant_id) DO UPDATE SET quantity = cart_items.quantity + EXCLUDED.quantity, updated_at = now()
           RETURNING quantity`,
          [tx.tenantId, o.visitorId, o.customerId, dto.article_id, quantity.toFixed(3)],
        ),
      );
      const violation = quantityRuleViolation(rows[0].quantity, rule);
      if (violation) throw AppError.unprocessable(violation);
    });
    return this.get(ctx);
  }

  /** PUT /cart/items/{id}: the absolute quantity (adds the line when absent); 0 removes the line. */
  async setItem(ctx: RequestContext, variantId: string, dto: UpdateCartItemDto): Promise<CartDto> {
    const owner = ownerOf(ctx);
    if (dto.quantity === 0) return this.removeItem(ctx, variantId);
    const rule = await this.visibleVariant(ctx, variantId);
    const violation = quantityRuleViolation(dto.quantity, rule);
    if (violation) throw AppError.unprocessable(violation);
    const o = ownerColumns(owner);
    await managerOf(ctx, this.dataSource).query(
      `WITH cart AS (
         INSERT INTO carts (tenant_id, visitor_id, customer_id) VALUES ($1, $2, $3)
         ON CONFLICT ${o.conflict} DO UPDATE SET updated_at = now()
         RETURNING id)
       INSERT INTO cart_items (tenant_id, cart_id, variant_id, quantity)
       SELECT $1, cart.id, $4, $5::numeric FROM cart
       ON CONFLICT (tenant_id, cart_id, variant_id) DO UPDATE SET quantity = EXCLUDED.quantity, updated_at = now()`,
      [ctx.tenantId, o.visitorId, o.customerId, variantId, dto.quantity.toFixed(3)],
    );
    return this.get(ctx);
  }

  /** DELETE /cart/items/{id}: idempotent. */
  async removeItem(ctx: RequestContext, variantId: string): Promise<CartDto> {
    const params: unknown[] = [ctx.tenantId, variantId];
    await managerOf(ctx, this.dataSource).query(
      `DELETE FROM cart_items ci USING carts c WHERE ci.cart_id = c.id AND c.tenant_id = $1 AND ci.variant_id = $2 AND ${ownerClause(ownerOf(ctx), params, 'c')}`,
      params,
    );
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
    const params: unknown[] = [ctx.tenantId];
    await managerOf(ctx, this.dataSource).query(
      `WITH cart AS (
         UPDATE carts SET discount_code = NULL, discount_code_error = NULL, updated_at = now() WHERE tenant_id = $1 AND ${ownerClause(ownerOf(ctx), params)} RETURNING id)
       DELETE FROM cart_items WHERE tenant_id = $1 AND cart_id IN (SELECT id FROM cart)`,
      params,
    );
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
    const o = ownerColumns(ownerOf(ctx));
    await managerOf(ctx, this.dataSource).query(
      `INSERT INTO carts (tenant_id, visitor_id, customer_id, currency_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT ${o.conflict} DO UPDATE SET currency_id = EXCLUDED.currency_id, updated_at = now()`,
      [ctx.tenantId, o.visitorId, o.customerId, currency.id],
    );
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
    const o = ownerColumns(ownerOf(ctx));
    await managerOf(ctx, this.dataSource).query(
      `INSERT INTO carts (tenant_id, visitor_id, customer_id, discount_code) VALUES ($1, $2, $3, $4)
       ON CONFLICT ${o.conflict} DO UPDATE SET discount_code = EXCLUDED.discount_code, discount_code_error = NULL, updated_at = now()`,
      [ctx.tenantId, o.visitorId, o.customerId, promotion ? promotion.code : row!.code],
    );
    return this.get(ctx);
  }

  /** DELETE /cart/discount_code: clears the coupon (and a dropped coupon's reason); idempotent. */
  async removeDiscountCode(ctx: RequestContext): Promise<CartDto> {
    const params: unknown[] = [ctx.tenantId];
    await managerOf(ctx, this.dataSource).query(
      `UPDATE carts SET discount_code = NULL, discount_code_error = NULL, updated_at = now() WHERE tenant_id = $1 AND ${ownerClause(ownerOf(ctx), params)}
         AND (discount_code IS NOT NULL OR discount_code_error IS NOT NULL)`,
      params,
    );
    return this.get(ctx);
  }

  // ------------------------------------------------------------------ sign-in

  /**
   * Carries a visitor's cart over to a shopper at sign-in: without a shopper cart the visitor's cart becomes it;
   * otherwise the visitor's lines are added to the shopper's (quantities summed), the visitor's currency and
   * coupon win when set, and the visitor's cart is deleted. Idempotent; runs in the caller's transaction if any.
   */
  async mergeVisitorIntoCustomer(ctx: RequestContext, visitorId: string, customerId: string): Promise<void> {
    await inTransaction(ctx, this.dataSource, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      const [visitor]: CartRow[] = await m.query(
        `SELECT id, currency_id, discount_code FROM carts WHERE tenant_id = $1 AND visitor_id = $2 AND customer_id IS NULL FOR UPDATE`,
        [tx.tenantId, visitorId],
      );
      if (!visitor) return;
      const [mine]: CartRow[] = await m.query(`SELECT id FROM carts WHERE tenant_id = $1 AND customer_id = $2 FOR UPDATE`, [tx.tenantId, customerId]);
      if (!mine) {
        await m.query(`UPDATE carts SET customer_id = $3, visitor_id = NULL, updated_at = now() WHERE id = $1 AND tenant_id = $2`, [
          visitor.id,
          tx.tenantId,
          customerId,
        ]);
        return;
      }
      await m.query(
        `INSERT INTO cart_items (tenant_id, cart_id, variant_id, quantity)
         SELECT tenant_id, $2, variant_id, quantity FROM cart_items WHERE tenant_id = $1 AND cart_id = $3
         ON CONFLICT (tenant_id, cart_id, variant_id) DO UPDATE SET quantity = cart_items.quantity + EXCLUDED.quantity, updated_at = now()`,
        [tx.tenantId, mine.id, visitor.id],
      );
      await m.query(
        `UPDATE carts SET currency_id = coalesce($3, currency_id), discount_code = coalesce($4, discount_code),
           discount_code_error = CASE WHEN $4::text IS NULL THEN discount_code_error END, updated_at = now()
         WHERE id = $1 AND tenant_id = $2`,
        [mine.id, tx.tenantId, visitor.currency_id, visitor.discount_code],
      );
      await m.query(`DELETE FROM carts WHERE id = $1 AND tenant_id = $2`, [visitor.id, tx.tenantId]);
    });
  }

  // ------------------------------------------------------------------ pieces

  private async findCart(ctx: RequestContext, owner: Owner): Promise<CartRow | null> {
    const params: unknown[] = [ctx.tenantId];
    const rows: CartRow[] = await managerOf(ctx, this.dataSource).query(
      `SELECT id, currency_id, discount_code, discount_code_error FROM carts WHERE tenant_id = $1 AND ${ownerClause(owner, params)}`,
      params,
    );
    return rows[0] ?? null;
  }

  /** Net display: the shop's setting, or a corporate or reseller shopper. */
  async showNetPrices(ctx: RequestContext): Promise<boolean> {
    const config = await this.tenancy.config(ctx.tenantId);
    if (config.settings.show_net_prices) return true;
    if (ctx.actor.type !== 'customer') return false;
    const type = await customerType(managerOf(ctx, this.dataSource), ctx.tenantId, ctx.actor.customerId);
    return type === 'corporate' || type === 'reseller';
  }

  /** The quantity rule of a variant the storefront may sell (a visible variant of this shop, per the catalogue), else 422. */
  private async visibleVariant(ctx: RequestContext, variantId: string): Promise<QuantityRuleRow> {
    const rule = await sellableVariantRule(managerOf(ctx, this.dataSource), ctx.tenantId, variantId);
    if (!rule) throw AppError.unprocessable('article_id does not name a published, active variant of this shop');
    return rule;
  }

  /** The cart's lines whose variant is still visible (per the catalogue), oldest first, with what the response shows. */
  private async lineRows(ctx: RequestContext, cartId: string): Promise<LineRow[]> {
    const m = managerOf(ctx, this.dataSource);
    const items: Array<{ variant_id: string; quantity: string }> = await m.query(
      `SELECT ci.variant_id, ci.quantity FROM cart_items ci WHERE ci.tenant_id = $1 AND ci.cart_id = $2 ORDER BY ci.created_at, ci.id`,
      [ctx.tenantId, cartId],
    );
    const sold = await sellableVariants(
      m,
      ctx.tenantId,
      items.map((i) => i.variant_id),
    );
    return items.flatMap((i) => {
      const v = sold.get(i.variant_id);
      return v ? [{ ...v, quantity: i.quantity }] : [];
    });
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
