import { Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { RequestContext } from '../common/context/request-context.js';
import { inTransaction, isUuid, managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { isHttpUrl } from '../common/http/url.js';
import { translate } from '../common/i18n.js';
import { fromMinor, minorToDecimalString, toMinor } from '../pricing/index.js';
import { mapDiscounts, PromotionEvaluation } from '../promotions/index.js';
import { redeemDiscountCode, type RedeemedCodeRow } from '../discounts/index.js';
import { saveAddressUnlessKnown } from '../customers/index.js';
import { AppConfig } from '../config/app-config.js';
import { DomainEvents } from '../events/index.js';
import { BalancePayments } from '../gift-cards/index.js';
import { Metrics } from '../observability/index.js';
import { inSpan } from '../observability/index.js';
import { TenancyService, TenantConfig } from '../tenancy/index.js';
import { CheckoutStateService, linesSold } from './checkout-state.service.js';
import { guestCheckoutDisabled } from './checkout.service.js';
import { CompleteCheckoutDto, CompleteResultDto } from './dto/checkout.dto.js';
import { AddressData, Checkout } from './entities/checkout.entities.js';
import { type OrderApplied } from './checkout.repository.js';
import type { TaxedTotals } from '../tax/index.js';
import { OFFLINE_KINDS, PaymentProviders } from './payments/payment-provider.js';
import { ShippingService } from './shipping.service.js';
import { droppedPromotionIds } from './shown-promotions.js';
import { OrderStock } from './order-stock.js';
import {
  insertPlacedOrder,
  lockCheckoutWithLines,
  PLACED_ORDER_NUMBER,
  PLACED_ORDER_PARAMETERS,
  type OrderTransactionInsert,
} from './repositories/order-placement.repository.js';

/**
 * POST /checkouts/{token}/complete (SPEC, CONTRACT 5): everything in ONE transaction, taking its locks in one order
 * (checkout row, variant rows sorted by id, discount code row, the shop's order counter last) so concurrent
 * placements never deadlock and the counter (which serializes a shop's placements) is held only briefly:
 *
 * 1. the checkout row FOR UPDATE: a second complete of the same checkout waits, then sees it completed (409);
 * 2. payment type, return_url, consent gates, shipping choice, coupon validity, priced under the transaction;
 * 2b. a promotion the buyer's last read of the checkout showed and this pricing no longer applies (used up, ended, no
 *     longer holding) refuses the completion with 422 `promotion_usage_limit_reached` or `promotion_unavailable`, so
 *     no order is placed at a total the buyer was not shown (shown-promotions.ts);
 * 3. stock: tracked variants locked, on-hand re-read from the ledger, 422 `insufficient_stock` unless backorder,
 *    then decremented through the ledger (`StockService.recordMovement`) — never below zero without backorder;
 * 4. a single-use coupon redeemed by `UPDATE ... WHERE NOT is_used` (the loser gets `discount_code_already_used`);
 *    each applied promotion's use taken under its row lock (ids sorted; past `usage_limit` or the buyer's
 *    `usage_limit_per_customer` the loser gets `promotion_usage_limit_reached`);
 * 5. the payment provider initiated (payment_url for redirect kinds);
 * 6. the order numbered from the per-shop counter row (gapless: a rolled-back placement frees its number), written
 *    with its lines as charged; the checkout marked completed, the cart emptied, the events recorded.
 */
@Injectable()
export class OrderPlacementService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly tenancy: TenancyService,
    private readonly states: CheckoutStateService,
    private readonly shipping: ShippingService,
    private readonly orderStock: OrderStock,
    private readonly providers: PaymentProviders,
    private readonly events: DomainEvents,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
    private readonly balances: BalancePayments,
    private readonly promotions: PromotionEvaluation,
  ) {}

  async complete(ctx: RequestContext, token: string, dto: CompleteCheckoutDto, baseUrl: string): Promise<CompleteResultDto> {
    // loaded before the transaction: inside it, a cache miss would wait for a second pool connection
    const config = await this.tenancy.config(ctx.tenantId);
    try {
      const placed = await inSpan('checkout.place_order', { 'tenant.id': ctx.tenantId, 'request.id': ctx.requestId }, () =>
        this.place(ctx, token, dto, baseUrl, config),
      );
      this.metrics.ordersPlaced.inc();
      return placed;
    } catch (err) {
      this.metrics.checkoutFailed(err);
      throw err;
    }
  }

  private place(ctx: RequestContext, token: string, dto: CompleteCheckoutDto, baseUrl: string, config: TenantConfig): Promise<CompleteResultDto> {
    return inTransaction(ctx, this.dataSource, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      // the row locked, its lines and the gift cards applied to it, in one statement (issue 34)
      const locked = isUuid(token) ? await lockCheckoutWithLines(m, tx.tenantId, token) : null;
      if (!locked) throw AppError.notFound('checkout');
      const c = locked.checkout;
      // a shopper places orders only from its own checkout (or its visitor's): another's is as unknown as a foreign id
      if (tx.actor.type === 'customer' && !shopperOwns(tx, c, tx.actor.customerId)) throw AppError.notFound('checkout');
      if (c.status === 'Completed') throw AppError.conflict('the checkout is already completed');
      if (!config.settings.guest_checkout_enabled && tx.actor.type !== 'customer') throw guestCheckoutDisabled();

      const sold = new Map(locked.sold.map((r) => [r.variant_id, r]));
      const state = await this.states.state(tx, c, config, linesSold(locked.lines, sold));
      // gift cards and store credit pay first: a checkout they cover needs no payment type (re-checked after redeeming)
      const preview = await this.balances.coverage(tx, c.id, state.currency.code, state.currency.precision, state.totals.total, locked.applied);
      const paymentType = dto.payment_type_id ? await this.shipping.paymentType(tx, dto.payment_type_id) : null;
      if (!paymentType && (dto.payment_type_id || preview.covered < state.totals.total)) {
        throw AppError.unprocessable(
          dto.payment_type_id ? 'payment_type_id names no payment type of this shop' : 'payment_type_id is required',
          'payment_required',
        );
      }
      const provider = paymentType ? this.providers.forKind(paymentType.kind) : null;
      if (paymentType && !provider)
        throw AppError.unprocessable(`no payment provider serves payment type kind "${paymentType.kind}"`, 'payment_type_unavailable');
      const offline = !paymentType || (OFFLINE_KINDS as readonly string[]).includes(paymentType.kind.toLowerCase());
      const returnUrl = dto.return_url?.trim() || null;
      if (!offline && !returnUrl) throw AppError.unprocessable('return_url is required for this payment type', 'return_url_required');
      if (returnUrl && !isHttpUrl(returnUrl)) throw AppError.unprocessable('return_url must be an absolute http(s) URL');
      if (dto.comments !== undefined) c.comments = dto.comments;

      if (state.lines.length === 0) throw AppError.unprocessable('the checkout has no line that can still be bought', 'checkout_empty');
      if (state.compliance.terms.required && dto.accepted_terms !== true)
        throw AppError.unprocessable('the terms must be accepted (accepted_terms: true)', 'terms_acceptance_required');
      const destination = state.compliance.destination;
      const refusal = destination?.allowed === false ? destination.reasons.find((r) => r.code !== 'age_requirement') : undefined;
      if (refusal) throw AppError.unprocessable(refusal.message, refusal.code);
      if (state.compliance.age_verification.required && dto.age_confirmed !== true) {
        // a zone's minimum age names its rule; the shop-wide age setting keeps its code
        const zoneAge = destination?.reasons.some((r) => r.code === 'age_requirement');
        throw AppError.unprocessable(
          `the buyer must confirm being at least ${state.compliance.age_verification.min_age} (age_confirmed: true)`,
          zoneAge ? 'age_requirement' : 'age_verification_required',
        );
      }
      if (state.offered.length > 0 && !state.selectedMethod)
        throw AppError.unprocessable('choose a shipping method (shipping_method_id) first', 'shipping_method_required');
      if (state.totals.couponRefusal)
        throw AppError.unprocessable(state.totals.couponRefusalMessage ?? 'the discount code no longer applies', state.totals.couponRefusal);

      // a promotion the buyer's last read showed and this pricing no longer applies: no order at a total not shown
      const customerId = c.customerId ?? (tx.actor.type === 'customer' ? tx.actor.customerId : null);
      const billing = c.billingSameAsShipping ? c.shippingAddress : c.billingAddress;
      const email = c.email ?? billing?.email ?? c.shippingAddress?.email ?? null;
      const dropped = droppedPromotionIds(c.shownPromotionIds, state.totals);
      if (dropped.length) await this.promotions.refuseDropped(tx, dropped, customerId, email);

      const orderId = randomUUID();
      await this.orderStock.take(tx, state.lines, orderId); // each movement emits its inventory_level.updated
      const redeemed = state.totals.couponCode ? await this.redeem(tx, state.totals.couponCode) : null;
      const t = state.totals;
      await this.promotions.redeem(tx, orderId, t.promotions?.discounts.map((d) => d.promotionId) ?? [], customerId, email);
      const precision = state.currency.precision;
      // under the accounts' row locks: the balances are re-read, each pays at most what it holds
      const fromBalances = await this.balances.redeem(tx, c.id, orderId, state.currency.code, precision, t.total, preview);
      const due = t.total - fromBalances.paid;
      if (due > 0 && !provider)
        throw AppError.unprocessable('the gift cards and store credit no longer cover the total: choose a payment type', 'payment_required');

      const hash = randomBytes(24).toString('base64url');
      const payment =
        !provider || !paymentType
          ? { paymentUrl: null, reference: null }
          : await provider.initiate(tx, {
              orderId,
              hash,
              amount: due,
              currency: state.currency.code,
              precision,
              paymentType: { id: paymentType.id, key: paymentType.key, kind: paymentType.kind },
              returnUrl,
              baseUrl,
            });

      const dec = (minor: number) => minorToDecimalString(minor, precision);
      const names = new Map((await this.shipping.countries(tx)).map((x) => [x.code, translate(x.name, tx)]));
      const withName = (a: AddressData | null) => (a ? { ...a, country_name: a.country_code ? (names.get(a.country_code) ?? null) : null } : null);
      // the saved address needs no order number: written before the counter's lock is taken
      if (customerId && c.shippingAddress) await this.saveAddress(tx, customerId, c.shippingAddress);

      // what priced shipping and taxes (admin order `shipping` and `taxes`), written with the order (issue 34)
      const chosen = state.selectedMethod ? (state.quotes?.get(state.selectedMethod.id) ?? null) : null;
      const applied: OrderApplied = {
        taxZone: 'lineTaxes' in t ? ((t as TaxedTotals).taxZone?.name ?? null) : null,
        grossPricePolicy: 'lineTaxes' in t ? (t as TaxedTotals).grossPricePolicy : null,
        shippingMethodId: state.selectedMethod?.id ?? null,
        shippingZone: chosen?.zone ?? null,
        shippingRate: state.selectedMethod
          ? (chosen?.rate ?? {
              source: 'flat',
              basis: null,
              from: null,
              to: null,
              price: Number(state.selectedMethod.price),
              beyond_blocks: 0,
              free: t.shippingAmount === 0 && toMinor(state.selectedMethod.price, precision) > 0,
            })
          : null,
      };
      const taxLines = t.taxLines.map((x) => ({ name: x.name, rate: x.rate, amount: fromMinor(x.amount, precision) }));
      const lineTaxes = 'lineTaxes' in t ? (t as TaxedTotals).lineTaxes : null;
      const transactions: OrderTransactionInsert[] = fromBalances.parts.map((part) => ({
        kind: 'capture',
        amount: dec(part.amount),
        status: 'succeeded',
        provider: part.kind,
        reference: part.lastCharacters ? `…${part.lastCharacters}` : null,
      }));
      if (due > 0 && provider)
        transactions.push({ kind: 'authorization', amount: dec(due), status: 'pending', provider: provider.name, reference: payment.reference });
      const rows = state.lines;
      // the order's events, written by the placement's statement with its number (`fill`)
      const orderPayload = {
        id: orderId,
        number: '', // set by the placement's statement (fill)
        customer_id: customerId,
        email,
        total: fromMinor(t.total, precision),
        currency: state.currency.code,
        payment_type: paymentType ? translate(paymentType.name, tx) : null,
        checkout_token: c.id,
      };
      await this.events.emit(tx, 'order.placed', { order: orderPayload }, { fill: ['order', 'number'] });
      await this.events.emit(
        tx,
        'checkout.completed',
        { checkout: { token: c.id, order_id: orderId, order_number: '' } },
        { fill: ['checkout', 'order_number'] },
      );
      if (redeemed) await this.events.emit(tx, 'discount_code.redeemed', { discount_code: redeemed, order_id: orderId });
      if (due === 0) {
        await this.events.emit(
          tx,
          'order.paid',
          {
            order: {
              id: orderId,
              number: '',
              total: fromMinor(t.total, precision),
              currency: state.currency.code,
              financial_status: 'paid',
              paid_amount: fromMinor(t.total, precision),
            },
            payment: { id: orderId, kind: 'capture', amount: fromMinor(fromBalances.paid, precision), reference: 'gift cards and store credit' },
          },
          { fill: ['order', 'number'] },
        );
      }
      // the counter row is locked from this statement to commit (every placement of this shop waits on it): the order,
      // its lines and transactions, the checkout's completion and the transaction's events are written in the same
      // statement, so that the next statement is the COMMIT (issue 34)
      const number = await this.events.writeWith(
        tx,
        { offset: PLACED_ORDER_PARAMETERS, fillValue: PLACED_ORDER_NUMBER },
        (outbox) =>
          insertPlacedOrder(
            m,
            {
              id: orderId,
              tenantId: tx.tenantId,
              checkoutId: c.id,
              customerId,
              hash,
              paymentTypeId: paymentType?.id ?? null,
              paymentTypeName: paymentType ? translate(paymentType.name, tx) : null,
              paymentKind: paymentType?.kind ?? null,
              paymentProvider: due > 0 && provider ? provider.name : 'balance',
              paymentReference: payment.reference,
              returnUrl,
              currencyCode: state.currency.code,
              currencyPrecision: precision,
              priceIncludesTax: t.priceIncludesTax,
              subtotal: dec(t.subtotalBeforeDiscount),
              discount: dec(t.discount),
              discountCode: t.couponCode,
              couponText: t.couponText,
              shippingAmount: dec(t.shippingAmount),
              shippingTaxRate: t.shippingTaxRate,
              shippingMethodName: t.shippingMethodName,
              taxAmount: dec(t.taxAmount),
              taxLines: JSON.stringify(taxLines),
              total: dec(t.total),
              email,
              comments: c.comments,
              language: tx.language,
              shippingAddress: JSON.stringify(withName(c.shippingAddress)),
              billingAddress: JSON.stringify(withName(billing)),
              // a redirect payment not confirmed in time is voided by the payment-expiry job (null: never expires)
              paymentTtlSeconds: due > 0 && provider?.redirects ? this.config.PAYMENT_PENDING_TTL_MINUTES * 60 : null,
              balancePaid: dec(fromBalances.paid),
              paid: due === 0,
              promotions: JSON.stringify(mapDiscounts(t.promotions?.discounts ?? [], precision)),
              promotionDiscount: dec(t.lineDiscounts.reduce((a, b) => a + b, 0)),
              taxZone: applied.taxZone,
              grossPricePolicy: applied.grossPricePolicy,
              shippingMethodId: applied.shippingMethodId,
              shippingZone: applied.shippingZone,
              shippingRate: applied.shippingRate === null ? null : JSON.stringify(applied.shippingRate),
            },
            t.lines.map((l, i) => ({
              variantId: l.variantId,
              productId: l.productId,
              title: translate(rows[i].title, tx),
              sku: rows[i].sku,
              description: translate(rows[i].variant_title, tx),
              imageUrl: rows[i].image_src,
              quantity: l.quantity.toFixed(3),
              taxRate: String(l.taxRate),
              unitPrice: dec(l.unitNet),
              unitPriceWithTax: dec(l.unitGross),
              lineTotal: dec(l.lineNet),
              lineTotalWithTax: dec(l.lineGross),
              promotions: JSON.stringify(
                (t.promotions?.lines[i].promotions ?? []).map((x) => ({ promotion_id: x.promotionId, name: x.name, amount: fromMinor(x.amount, precision) })),
              ),
              promotionDiscount: dec(t.lineDiscounts[i]),
              taxCategory: lineTaxes ? lineTaxes[i].category : null,
              taxZone: lineTaxes ? lineTaxes[i].zone : null,
              excise: lineTaxes ? dec(lineTaxes[i].excise) : null,
              exciseTax: lineTaxes ? dec(lineTaxes[i].exciseTax) : null,
            })),
            transactions,
            // the owner's cart is emptied by the same statement (issue 34; was a statement of its own)
            { checkoutId: c.id, paymentTypeId: paymentType?.id ?? null, comments: c.comments, cartCustomerId: c.customerId, cartVisitorId: c.visitorId },
            outbox,
          ),
        (n) => n,
      );
      return { success: true, payment_url: payment.paymentUrl, order_id: orderId, order_number: number, hash };
    });
  }

  /** Redeems the coupon: single-use codes only while unused (a conditional UPDATE: exactly one concurrent winner). */
  private async redeem(tx: RequestContext, code: string): Promise<RedeemedCodeRow> {
    const hit = await redeemDiscountCode(managerOf(tx, this.dataSource), tx.tenantId, code);
    if (!hit) throw AppError.unprocessable(`discount code ${code} has already been used`, 'discount_code_already_used');
    return hit;
  }

  /** CONTRACT 7: the checkout owner's delivery address is saved unless an identical one exists or the saved-address cap is reached. */
  private async saveAddress(tx: RequestContext, customerId: string, a: AddressData): Promise<void> {
    await saveAddressUnlessKnown(managerOf(tx, this.dataSource), tx.tenantId, customerId, {
      first_name: a.first_name ?? null,
      last_name: a.last_name ?? null,
      company: a.company ?? null,
      department: a.department ?? null,
      street: a.street ?? null,
      house_number: a.house_number ?? null,
      zip_code: a.zip_code ?? null,
      location: a.location ?? null,
      country_code: a.country_code ?? null,
      phone_number: a.phone_number ?? null,
      mobile_number: a.mobile_number ?? null,
      email: a.email ?? null,
    });
  }
}

/** The checkout is the shopper's own, or was opened by the visitor the shopper is now signed in as. */
function shopperOwns(ctx: RequestContext, c: Checkout, customerId: string): boolean {
  if (c.customerId) return c.customerId === customerId;
  return c.visitorId !== null && c.visitorId === ctx.visitorId;
}
