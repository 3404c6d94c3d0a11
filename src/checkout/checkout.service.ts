import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { getOrThrow, inTransaction, isUuid, managerOf, repoOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { translate } from '../common/i18n.js';
import { Page } from '../common/paging/page.js';
import { PageRequest, Pager } from '../common/paging/pager.service.js';
import { CartService } from '../cart/index.js';
import { customerEmail, defaultAddressName } from '../customers/index.js';
import { TenancyService, type CountryRow, type TenantConfig } from '../tenancy/index.js';
import { AppliedBalance, BalancePayments } from '../gift-cards/index.js';
import { fromMinor } from '../pricing/index.js';
import { isConfigured } from '../shipping/index.js';
import {
  adminTotals,
  ADDRESS_FIELDS,
  CountryNames,
  mapAddress,
  mapAdminAddress,
  mapLiveLines,
  mapLiveTotals,
  mapOrderLinesAsCheckoutLines,
  mapOrderTotals,
} from './checkout-mappers.js';
import { CheckoutState, CheckoutStateService, linesSold, type CheckoutLineRow } from './checkout-state.service.js';
import { AdminCheckoutDto, AdminCheckoutSummaryDto, UpdateAdminCheckoutDto } from './dto/admin-checkout.dto.js';
import { CheckoutAddressDto, CheckoutLineDto, CheckoutTotalsDto, StorefrontCheckoutDto, UpdateCheckoutDto } from './dto/checkout.dto.js';
import { AddressData, Checkout, Order, OrderLine } from './entities/checkout.entities.js';
import { ShippingService } from './shipping.service.js';
import {
  checkoutsPage,
  checkoutWithVersion,
  insertCheckoutWithLines,
  recordShownPromotions,
  saveCheckoutChoices,
  saveCheckoutChoicesAt,
} from './checkout.repository.js';
import { appliedPromotionIds, sameIds } from './shown-promotions.js';

/** Reads and writes of one storefront update before it answers 409 (each retry means another write landed in between). */
const UPDATE_ATTEMPTS = 5;

export const guestCheckoutDisabled = () => new AppError(401, 'this shop does not accept guest checkouts: sign in first', 'guest_checkout_disabled');

/**
 * Checkouts before and after completion (SPEC "Storefront checkout", "Admin checkout"). An open checkout is priced
 * at every read and update from its own lines; a completed one shows its order's lines and totals, as charged.
 */
@Injectable()
export class CheckoutService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly tenancy: TenancyService,
    private readonly cart: CartService,
    private readonly states: CheckoutStateService,
    private readonly shipping: ShippingService,
    private readonly pager: Pager,
    private readonly balances: BalancePayments,
  ) {}

  // ------------------------------------------------------------------ storefront

  /** POST /checkouts: a checkout from the visitor's cart (its lines, currency and coupon); 422 when the cart is empty. */
  async create(ctx: RequestContext): Promise<StorefrontCheckoutDto> {
    const config = await this.tenancy.config(ctx.tenantId);
    if (!config.settings.guest_checkout_enabled && ctx.actor.type !== 'customer') throw guestCheckoutDisabled();
    // the cart row the API guard read for this request serves (issue 34: the cart is read once)
    const priced = await this.cart.priceCart(ctx, { reuseGuardRead: true });
    if (priced.lines.length === 0) throw AppError.unprocessable('the cart is empty');
    const m = managerOf(ctx, this.dataSource);
    const customerId = ctx.actor.type === 'customer' ? ctx.actor.customerId : null;
    const email = customerId ? await customerEmail(m, ctx.tenantId, customerId) : null;
    // one statement writes the checkout and its lines (issue 34: no transaction around two inserts)
    const { checkout, lines: written } = await insertCheckoutWithLines(
      m,
      {
        tenantId: ctx.tenantId,
        visitorId: customerId ? null : ctx.visitorId,
        customerId,
        currencyId: priced.currency.id,
        language: ctx.language,
        email,
        discountCode: priced.discountCode,
      },
      priced.lines.map((l) => ({ variantId: l.variantId, productId: l.productId, quantity: l.quantity.toFixed(3) })),
    );
    // the lines as written, beside the catalogue rows the cart's pricing just read (in the lines' order)
    const byPosition = new Map(written.map((w) => [w.position, w]));
    const lines: CheckoutLineRow[] = priced.rows.map((r, i) => ({ ...r, id: byPosition.get(i)!.id, quantity: byPosition.get(i)!.quantity }));
    // the row and lines as written answer (issue 34: no read of them after the commit)
    return this.storefrontView(ctx, checkout, undefined, lines);
  }

  async get(ctx: RequestContext, token: string): Promise<StorefrontCheckoutDto> {
    return this.storefrontView(ctx, await this.find(ctx, token));
  }

  /** PUT /checkouts/{token}: addresses, billing_same_as_shipping, shipping method, payment type, comments. */
  async update(ctx: RequestContext, token: string, dto: UpdateCheckoutDto): Promise<StorefrontCheckoutDto> {
    const config = await this.tenancy.config(ctx.tenantId);
    const m = managerOf(ctx, this.dataSource);
    // no transaction and no row lock (issue 34: two statements less): the checkout is read with its row version and
    // written only over that version; a write in between (another update, the completion) makes it read again
    for (let attempt = 1; ; attempt++) {
      const read = isUuid(token) ? await checkoutWithVersion(m, ctx.tenantId, token) : null;
      if (!read) throw AppError.notFound('checkout');
      if (read.checkout.status === 'Completed') throw AppError.conflict('the checkout is already completed');
      // its lines came with the row; the catalogue's rows of them price the rules' check and the answer
      const lines = linesSold(read.lines, new Map(read.sold.map((r) => [r.variant_id, r])));
      const { checkout, countries } = await this.applyChoices(ctx, read.checkout, dto, config, lines);
      const saved = await saveCheckoutChoicesAt(m, checkout, read.version);
      // the countries just read serve the answer too (issue 34: one statement less per update)
      if (saved) return this.storefrontView(ctx, saved, countries, lines);
      if (attempt >= UPDATE_ATTEMPTS) throw AppError.conflict('the checkout was changed by another request meanwhile: try again');
    }
  }

  /** The storefront update's rules on `c` as read (validated against the shop's countries, methods, payment types). */
  private async applyChoices(
    ctx: RequestContext,
    c: Checkout,
    dto: UpdateCheckoutDto,
    config: TenantConfig,
    lines: CheckoutLineRow[],
  ): Promise<{ checkout: Checkout; countries: CountryRow[] }> {
    const countries = await this.shipping.countries(ctx);
    const checkCountry = (a: AddressData | null, member: string) => {
      if (a?.region && a.region.slice(0, 2) !== a.country_code?.toUpperCase())
        throw AppError.unprocessable(`${member}.region: ${a.region} is not a subdivision of the address's country_code`);
      if (!a?.country_code) return;
      a.country_code = a.country_code.toUpperCase();
      if (countries.length > 0 && !countries.some((x) => x.code === a.country_code))
        throw AppError.unprocessable(`${member}.country_code: the shop does not deliver to ${a.country_code}`);
    };
    if (dto.shipping_address !== undefined) {
      c.shippingAddress = toAddressData(dto.shipping_address);
      checkCountry(c.shippingAddress, 'shipping_address');
    }
    if (dto.billing_address !== undefined) {
      c.billingAddress = toAddressData(dto.billing_address);
      if (c.billingAddress?.country_code) c.billingAddress.country_code = c.billingAddress.country_code.toUpperCase();
      if (c.billingAddress?.region && c.billingAddress.region.slice(0, 2) !== c.billingAddress.country_code)
        throw AppError.unprocessable(`billing_address.region: ${c.billingAddress.region} is not a subdivision of the address's country_code`);
    }
    if (dto.billing_same_as_shipping !== undefined) c.billingSameAsShipping = dto.billing_same_as_shipping;
    const email = dto.billing_address?.email ?? dto.shipping_address?.email;
    if (email) c.email = email;
    if (dto.comments !== undefined) c.comments = dto.comments;
    const country = c.shippingAddress?.country_code ?? null;
    const methods = await this.shipping.methods(ctx);
    // methods with rate tables, zones or carrier rates are offered when they can serve this address and these lines
    const offered = methods.some(isConfigured) ? (await this.states.state(ctx, c, config, lines)).offered : this.shipping.offeredFor(methods, country);
    if (dto.shipping_method_id !== undefined && dto.shipping_method_id !== null) {
      if (!offered.some((m) => m.id === dto.shipping_method_id)) {
        throw AppError.unprocessable(
          country ? `shipping_method_id is not offered for ${country}` : 'shipping_method_id names no shipping method of this shop',
          'shipping_method_not_offered',
        );
      }
      c.shippingMethodId = dto.shipping_method_id;
    } else if (dto.shipping_method_id === null) {
      c.shippingMethodId = null;
    } else if (c.shippingMethodId && !offered.some((m) => m.id === c.shippingMethodId)) {
      // the delivery country changed to one the chosen method does not serve
      c.shippingMethodId = null;
    }
    if (dto.payment_type_id !== undefined) {
      if (dto.payment_type_id !== null && !(await this.shipping.paymentType(ctx, dto.payment_type_id)))
        throw AppError.unprocessable('payment_type_id names no payment type of this shop');
      c.paymentTypeId = dto.payment_type_id;
    }
    return { checkout: c, countries };
  }

  // ------------------------------------------------------------------ admin

  async list(ctx: RequestContext, page: PageRequest): Promise<Page<AdminCheckoutSummaryDto>> {
    const rows = await checkoutsPage(managerOf(ctx, this.dataSource), this.pager, ctx.tenantId, page);
    const items: AdminCheckoutSummaryDto[] = [];
    for (const c of rows.items) {
      const { lines, totals } = await this.linesAndTotals(ctx, c);
      items.push({
        token: c.id,
        email: c.email,
        currency_code: totals.currency,
        status: c.status,
        total: totals.total,
        line_items_count: lines.length,
        created_at: c.createdAt.toISOString(),
        updated_at: c.updatedAt ? c.updatedAt.toISOString() : null,
      });
    }
    return new Page(items, rows.limit, rows.nextPageInfo);
  }

  async adminGet(ctx: RequestContext, token: string): Promise<AdminCheckoutDto> {
    return this.adminView(ctx, await this.find(ctx, token));
  }

  /** PUT /admin/checkouts/{token}: note and email only; 409 once completed. */
  async adminUpdate(ctx: RequestContext, token: string, dto: UpdateAdminCheckoutDto): Promise<AdminCheckoutDto> {
    const checkout = await inTransaction(ctx, this.dataSource, async (tx) => {
      const c = await getOrThrow(tx, this.dataSource, Checkout, token, 'checkout', { lock: 'pessimistic_write' });
      if (c.status === 'Completed') throw AppError.conflict('the checkout is already completed');
      if (dto.note !== undefined) c.note = dto.note;
      if (dto.email !== undefined) c.email = dto.email === null ? null : dto.email.trim();
      return saveCheckoutChoices(managerOf(tx, this.dataSource), c);
    });
    return this.adminView(ctx, checkout);
  }

  // ------------------------------------------------------------------ views

  find(ctx: RequestContext, token: string): Promise<Checkout> {
    return getOrThrow(ctx, this.dataSource, Checkout, token, 'checkout');
  }

  private async storefrontView(
    ctx: RequestContext,
    c: Checkout,
    shippingCountries?: CountryRow[],
    preloaded?: CheckoutLineRow[],
  ): Promise<StorefrontCheckoutDto> {
    const state = await this.states.state(ctx, c, undefined, preloaded);
    if (c.status !== 'Completed') await this.recordShown(ctx, c, state);
    const config = await this.tenancy.config(ctx.tenantId);
    const [countries, paymentTypes] = await Promise.all([shippingCountries ?? this.shipping.countries(ctx), this.shipping.paymentTypes(ctx)]);
    const names: CountryNames = new Map(countries.map((x) => [x.code, translate(x.name, ctx)]));
    const { lines, totals } = await this.linesAndTotals(ctx, c, state);
    const shippingAddress = mapAddress(c.shippingAddress, names);
    return {
      id: c.id,
      currency: totals.currency,
      is_completed: c.status === 'Completed',
      guest_checkout_enabled: config.settings.guest_checkout_enabled,
      comments: c.comments,
      line_items: lines,
      totals,
      shipping_options: this.shipping.mapOptions(ctx, state.offered, state.currency, state.totals.subtotal, state.quotes),
      selected_shipping_method_id: c.shippingMethodId,
      payment_types: this.shipping.mapPaymentTypes(ctx, paymentTypes),
      selected_payment_type_id: c.paymentTypeId,
      shipping_address: shippingAddress,
      billing_address: c.billingSameAsShipping ? { ...shippingAddress } : mapAddress(c.billingAddress, names),
      billing_same_as_shipping: c.billingSameAsShipping,
      available_countries: this.shipping.mapCountries(ctx, countries),
      compliance: state.compliance,
      ...(await this.balanceView(ctx, c, state)),
    };
  }

  /**
   * The promotions this answer shows, recorded when they differ from what the last answer showed (one statement then,
   * none otherwise): the completion keeps them or refuses with 422 (issue 32, shown-promotions.ts).
   */
  private async recordShown(ctx: RequestContext, c: Checkout, state: CheckoutState): Promise<void> {
    const shown = appliedPromotionIds(state.totals);
    if (sameIds(shown, c.shownPromotionIds ?? [])) return;
    await recordShownPromotions(managerOf(ctx, this.dataSource), ctx.tenantId, c.id, shown);
    c.shownPromotionIds = shown;
  }

  /**
   * What the applied gift cards and store credit pay of an open checkout, and what is left to pay: only while one is
   * applied, so a checkout without them keeps SPEC's members exactly (CONTRACT conformance).
   */
  private async balanceView(ctx: RequestContext, c: Checkout, state: CheckoutState): Promise<{ gift_cards?: AppliedBalance[]; amount_due?: number }> {
    if (c.status === 'Completed') return {};
    const { code, precision } = state.currency;
    const cover = await this.balances.coverage(ctx, c.id, code, precision, state.totals.total);
    if (cover.accounts.length === 0) return {};
    return { gift_cards: cover.accounts, amount_due: fromMinor(state.totals.total - cover.covered, precision) };
  }

  /** POST /checkouts/{token}/gift_cards {code}, or (`code` null) the signed-in shopper's store credit. */
  async applyBalance(ctx: RequestContext, token: string, code: string | null): Promise<StorefrontCheckoutDto> {
    const c = await this.openCheckout(ctx, token);
    const { currency } = await this.states.state(ctx, c);
    if (code !== null) await this.balances.applyGiftCard(ctx, c.id, code, currency.code, currency.precision);
    else {
      if (ctx.actor.type !== 'customer') throw AppError.unauthorized('sign in to spend store credit');
      await this.balances.applyStoreCredit(ctx, c.id, ctx.actor.customerId, currency.code, currency.precision);
    }
    return this.get(ctx, token);
  }

  /** DELETE /checkouts/{token}/gift_cards/{id}: 404 when that card (or credit) is not applied. */
  async removeBalance(ctx: RequestContext, token: string, accountId: string): Promise<StorefrontCheckoutDto> {
    const c = await this.openCheckout(ctx, token);
    await this.balances.remove(ctx, c.id, accountId);
    return this.get(ctx, token);
  }

  private async openCheckout(ctx: RequestContext, token: string): Promise<Checkout> {
    const c = await this.find(ctx, token);
    if (c.status === 'Completed') throw AppError.conflict('the checkout is already completed');
    return c;
  }

  private async adminView(ctx: RequestContext, c: Checkout): Promise<AdminCheckoutDto> {
    const countries = await this.shipping.countries(ctx);
    const names: CountryNames = new Map(countries.map((x) => [x.code, translate(x.name, ctx)]));
    const { lines, totals } = await this.linesAndTotals(ctx, c);
    const billing = c.billingSameAsShipping ? c.shippingAddress : c.billingAddress;
    return {
      token: c.id,
      email: c.email,
      currency_code: totals.currency,
      status: c.status,
      is_completed: c.status === 'Completed',
      note: c.note,
      customer_name: await this.customerName(ctx, c, billing),
      line_items: lines,
      totals: adminTotals(totals),
      shipping_address: mapAdminAddress(c.shippingAddress, names),
      billing_address: mapAdminAddress(billing, names),
      created_at: c.createdAt.toISOString(),
      updated_at: c.updatedAt ? c.updatedAt.toISOString() : null,
    };
  }

  /** Open: priced now; completed: the order's, as charged. */
  private async linesAndTotals(ctx: RequestContext, c: Checkout, state?: CheckoutState): Promise<{ lines: CheckoutLineDto[]; totals: CheckoutTotalsDto }> {
    if (c.status === 'Completed' && c.orderId) {
      const order = await repoOf(ctx, this.dataSource, Order).findOne({ where: { id: c.orderId, tenantId: ctx.tenantId } });
      if (order) {
        const lines = await repoOf(ctx, this.dataSource, OrderLine).find({ where: { orderId: order.id, tenantId: ctx.tenantId }, order: { position: 'ASC' } });
        return { lines: mapOrderLinesAsCheckoutLines(lines, order.promotions?.length > 0), totals: mapOrderTotals(order) };
      }
    }
    const s = state ?? (await this.states.state(ctx, c));
    return { lines: mapLiveLines(ctx, s.lines, s.totals), totals: mapLiveTotals(s.totals) };
  }

  private async customerName(ctx: RequestContext, c: Checkout, billing: AddressData | null): Promise<string | null> {
    const fromAddress = [billing?.first_name, billing?.last_name].filter((x) => x && x.trim()).join(' ');
    if (fromAddress) return fromAddress;
    if (!c.customerId) return null;
    const row = await defaultAddressName(managerOf(ctx, this.dataSource), ctx.tenantId, c.customerId);
    const name = [row?.first_name, row?.last_name].filter((x) => x && x.trim()).join(' ');
    return name || null;
  }
}

/** The stored form of a checkout address (known members only, blanks as null); null clears it. */
export function toAddressData(dto: CheckoutAddressDto | null): AddressData | null {
  if (dto === null) return null;
  const out: AddressData = {};
  for (const f of ADDRESS_FIELDS) {
    const v = dto[f];
    out[f] = typeof v === 'string' && v.trim() ? v.trim() : null;
  }
  if (typeof dto.region === 'string' && dto.region.trim()) out.region = dto.region.trim().toUpperCase();
  return out;
}
