import { Injectable } from '@nestjs/common';
import type { CurrencyInfo, RequestContext } from '../common/context/request-context.js';
import { translate } from '../common/i18n.js';
import type { CouponInput } from '../pricing/index.js';
import { catalogueLineOf, type SellableVariantRow } from '../catalogue/index.js';
import { PromotionEvaluation } from '../promotions/index.js';
import { couponInputOf, DiscountCodesService } from '../discounts/index.js';
import type { TenantSettings } from '../tenancy/index.js';
import { TenancyService, TenantConfig } from '../tenancy/index.js';
import { CheckoutTotals, computeTotals, evaluateCoupon, priceLines, type ShippingInput } from '../pricing/index.js';
import { Compliance, complianceOf } from './compliance.js';
import type { Checkout } from './entities/checkout.entities.js';
import { ShippingMethodRow, ShippingService } from './shipping.service.js';
import { PriceAdjustments } from '../extensions/index.js';
import { matchingZones, TaxService } from '../tax/index.js';
import { isConfigured, measureOrder, ShippingQuotes, type AddressForZones, type Quote } from '../shipping/index.js';
import { CheckoutStateRepository } from './repositories/checkout-state.repository.js';

/** Where the goods go: the shipping address, else the billing address (nothing ships), else none. */
function destinationOf(c: Checkout): { country: string | null; region: string | null; postcode: string | null } | null {
  const a = c.shippingAddress?.country_code ? c.shippingAddress : c.billingSameAsShipping ? null : c.billingAddress;
  return a?.country_code ? { country: a.country_code, region: a.region ?? null, postcode: a.zip_code ?? null } : null;
}

/** A checkout line (its id and quantity) with the catalogue's row of its variant as it is now. */
export type CheckoutLineRow = SellableVariantRow & { id: string; quantity: string };
/** A checkout's own line as stored: its id, variant and quantity (decimal text). */
export type OwnCheckoutLine = { id: string; variant_id: string; quantity: string };

/** Everything a checkout read or placement needs, priced now. */
export interface CheckoutState {
  checkout: Checkout;
  currency: CurrencyInfo;
  settings: TenantSettings;
  defaultCurrencyId: string;
  lines: CheckoutLineRow[];
  totals: CheckoutTotals;
  /** Methods offered for the shipping country (all when no country is set yet). */
  offered: ShippingMethodRow[];
  selectedMethod: ShippingMethodRow | null;
  /** Computed prices of the offered methods; null in a shop whose methods are all flat (priced as before issue 31). */
  quotes: Map<string, Quote> | null;
  shippingCountry: string | null;
  compliance: Compliance;
}

/**
 * Prices a checkout from its own lines and the catalogue as it is now, through the cart's pricing (CONTRACT 7;
 * see checkout-totals.ts), and works out shipping options and compliance. Reads run in the caller's transaction
 * when one is open (the placement re-prices under its locks).
 */
@Injectable()
export class CheckoutStateService {
  constructor(
    private readonly repo: CheckoutStateRepository,
    private readonly tenancy: TenancyService,
    private readonly discounts: DiscountCodesService,
    private readonly shipping: ShippingService,
    private readonly prices: PriceAdjustments,
    private readonly taxes: TaxService,
    private readonly shippingQuotes: ShippingQuotes,
    private readonly evaluation: PromotionEvaluation,
  ) {}

  /**
   * `config`: pass it when calling inside a transaction (loading it then would need a second pool connection).
   * `preloaded`: the checkout's lines as just written with the catalogue rows just read (the create: issue 34).
   */
  async state(ctx: RequestContext, checkout: Checkout, config?: TenantConfig, preloaded?: CheckoutLineRow[]): Promise<CheckoutState> {
    config ??= await this.tenancy.config(ctx.tenantId);
    const currency = config.currencies.find((c) => c.id === checkout.currencyId) ?? config.defaultCurrency;
    const lines = preloaded ?? (await this.lineRows(ctx, checkout.id));
    const shippingCountry = checkout.shippingAddress?.country_code?.toUpperCase() ?? null;
    const methods = await this.shipping.methods(ctx);
    let offered = this.shipping.offeredFor(methods, shippingCountry);
    let selectedMethod = checkout.shippingMethodId ? (offered.find((m) => m.id === checkout.shippingMethodId) ?? null) : null;
    let coupon: CouponInput | null = null;
    let couponCode = checkout.discountCode;
    const promotionCodes: string[] = [];
    if (checkout.discountCode) {
      const row = await this.discounts.findByCode(ctx, checkout.discountCode);
      coupon = row ? couponInputOf(row) : null;
      // a code naming no discount code but an active promotion's is that promotion's condition (issue 32)
      if (!row && (await this.evaluation.byCode(ctx, checkout.discountCode))) {
        promotionCodes.push(checkout.discountCode);
        couponCode = null;
      }
    }
    // the pricing extension point (PriceAdjuster providers) may replace a line's unit price first
    const customerId = checkout.customerId ?? (ctx.actor.type === 'customer' ? ctx.actor.customerId : null);
    const catalogueLines = await this.prices.apply(ctx, customerId, lines.map(catalogueLineOf));
    const promotions = await this.evaluation.prepare(ctx, {
      currency,
      customerId,
      email: checkout.email,
      codes: promotionCodes,
      // a discount code that applies sets aside the promotions not combining with codes (a refused one does not)
      hasDiscountCode:
        coupon !== null &&
        couponCode !== null &&
        evaluateCoupon(coupon, priceLines(catalogueLines, currency, !config.settings.prices_include_tax).subtotal, currency, config.defaultCurrency.id).ok,
      shipping: {
        methodId: checkout.shippingMethodId,
        country: shippingCountry,
        zones: async () =>
          shippingCountry
            ? matchingZones(await this.repo.zones(ctx), {
                country: shippingCountry,
                postcode: checkout.shippingAddress?.zip_code ?? null,
              }).flatMap((m) => (m.zone.key === null ? [m.zone.id] : [m.zone.key, m.zone.id]))
            : [],
      },
      facts: (ids) => this.repo.variantPromotionFacts(ctx, ids),
      variantIds: lines.map((l) => l.variant_id),
    });
    const input = {
      lines: catalogueLines,
      currency: { id: currency.id, code: currency.code, rate: currency.rate, precision: currency.precision, isDefault: currency.isDefault },
      pricesIncludeTax: config.settings.prices_include_tax,
      couponCode,
      coupon,
      defaultCurrencyId: config.defaultCurrency.id,
      promote: promotions?.promote,
    };
    // a shop taxing by destination (issue 31) re-prices for the shipping address's zone; every other shop as before
    // the checkout's transactions never write tax settings or destination rules: the per-tenant copies serve them too (issue 34)
    const taxRules = await this.taxes.rules(ctx, { reuseInTransaction: true });
    const taxed = taxRules
      ? {
          day: new Date().toISOString().slice(0, 10),
          destination: destinationOf(checkout),
          variants: await this.taxes.variantTaxes(ctx, lines),
          currencies: config.currencies.map((c) => ({ code: c.code, rate: c.rate })),
        }
      : null;
    const priced = (shipping: ShippingInput | null): Promise<CheckoutTotals> =>
      taxRules && taxed ? this.taxes.totals(ctx, taxRules, { ...input, shipping, ...taxed }) : Promise.resolve(computeTotals({ ...input, shipping }));
    const address: AddressForZones = {
      country: shippingCountry,
      region: checkout.shippingAddress?.region ?? null,
      postcode: checkout.shippingAddress?.zip_code ?? null,
    };
    let quotes: Map<string, Quote> | null = null;
    let totals: CheckoutTotals;
    if (!methods.some(isConfigured)) {
      // a shop of flat prices: exactly as before rate tables, zones and carrier rates existed
      totals = await priced(
        selectedMethod
          ? { name: translate(selectedMethod.name, ctx), price: selectedMethod.price, taxRate: selectedMethod.tax_rate, freeOver: selectedMethod.free_over }
          : null,
      );
    } else {
      // the subtotal first (the value a table prices by, and free_over), then the methods' quotes
      const unshipped = await priced(null);
      const parcel = catalogueLines.map((l) => ({ variantId: l.variantId, quantity: Number(l.quantity), grams: l.grams }));
      const q = await this.shippingQuotes.quotes(ctx, methods, { address, lines: parcel, value: unshipped.subtotal, currency });
      quotes = q;
      offered = methods.filter((m) => q.has(m.id));
      selectedMethod = checkout.shippingMethodId ? (offered.find((m) => m.id === checkout.shippingMethodId) ?? null) : null;
      const chosen = selectedMethod ? q.get(selectedMethod.id) : undefined;
      totals =
        selectedMethod && chosen
          ? await priced({
              name: translate(selectedMethod.name, ctx),
              price: selectedMethod.price,
              taxRate: selectedMethod.tax_rate,
              freeOver: null,
              amount: chosen.price,
            })
          : unshipped;
    }
    // litres from each variant's stored volume_ml, else its size text (loaded only when the shop has destination rules)
    const ruleLines = async () => {
      const volumes = await this.taxes.storedVolumes(
        ctx,
        lines.map((l) => l.variant_id),
      );
      return lines.map((l) => ({ quantity: Number(l.quantity), alcohol_volume: l.alcohol_volume, size: l.size, volume_ml: volumes.get(l.variant_id) ?? null }));
    };
    const verdict = await this.shippingQuotes.judge(ctx, address, ruleLines, () => this.litresOrderedThisYear(ctx, checkout.email), {
      reuseInTransaction: true,
    });
    return {
      checkout,
      currency,
      settings: config.settings,
      defaultCurrencyId: config.defaultCurrency.id,
      lines,
      totals,
      offered,
      selectedMethod,
      quotes,
      shippingCountry,
      compliance: complianceOf(
        config.settings,
        lines.map((l) => l.alcohol_volume),
        shippingCountry,
        verdict,
      ),
    };
  }

  /** Litres of alcoholic products the buyer (by email) ordered this calendar year; null without an email. */
  private async litresOrderedThisYear(ctx: RequestContext, email: string | null): Promise<number | null> {
    if (!email) return null;
    const ordered = await this.repo.orderedThisYear(ctx, email);
    if (ordered.length === 0) return 0;
    const volumes = new Map(
      (
        await this.repo.variantVolumes(
          ctx,
          ordered.map((o) => o.variant_id),
        )
      ).map((v) => [v.variant_id, v]),
    );
    const stored = await this.taxes.storedVolumes(
      ctx,
      ordered.map((o) => o.variant_id),
    );
    return measureOrder(
      ordered.map((o) => ({
        quantity: Number(o.quantity),
        alcohol_volume: volumes.get(o.variant_id)?.alcohol_volume ?? null,
        size: volumes.get(o.variant_id)?.size ?? null,
        volume_ml: stored.get(o.variant_id) ?? null,
      })),
    ).litres;
  }

  /** The checkout's lines whose variant is still sold (a visible variant, through the catalogue), in order. */
  async lineRows(ctx: RequestContext, checkoutId: string): Promise<CheckoutLineRow[]> {
    return this.sellableLines(ctx, await this.repo.lines(ctx, checkoutId));
  }

  /** As `lineRows`, from the checkout's own lines already read with its row (issue 34: one statement less). */
  async sellableLines(ctx: RequestContext, own: readonly OwnCheckoutLine[]): Promise<CheckoutLineRow[]> {
    const sold = await this.repo.sellableVariants(
      ctx,
      own.map((l) => l.variant_id),
    );
    return linesSold(own, sold);
  }
}

/** The checkout's own lines whose variant is still sold (`sold`: the catalogue's rows by variant id), in order. */
export function linesSold(own: readonly OwnCheckoutLine[], sold: ReadonlyMap<string, SellableVariantRow>): CheckoutLineRow[] {
  return own.flatMap((l) => {
    const v = sold.get(l.variant_id);
    if (!v) return [];
    return [{ ...v, id: l.id, quantity: l.quantity }];
  });
}
