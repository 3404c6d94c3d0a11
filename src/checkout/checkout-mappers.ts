import type { TaxedTotals } from '../tax/index.js';
import type { RequestContext } from '../common/context/request-context.js';
import { translate } from '../common/i18n.js';
import { fromMinor } from '../pricing/index.js';
import { mapDiscounts, mapLinePromotions } from '../promotions/index.js';
import type { CheckoutTotals } from '../pricing/index.js';
import type { CheckoutLineRow } from './checkout-state.service.js';
import type { AdminCheckoutAddressDto, AdminCheckoutTotalsDto } from './dto/admin-checkout.dto.js';
import type { CheckoutAddressDto, CheckoutLineDto, CheckoutTotalsDto } from './dto/checkout.dto.js';
import type { OrderLineDto, OrderReceiptBaseDto, OrderReceiptDto, OrderSummaryDto } from './dto/order.dto.js';
import type { AddressData, Order, OrderLine, OrderRefund } from './entities/checkout.entities.js';

export const ADDRESS_FIELDS = [
  'first_name',
  'last_name',
  'company',
  'department',
  'vat_number',
  'street',
  'house_number',
  'po_box',
  'zip_code',
  'location',
  'email',
  'phone_number',
  'mobile_number',
  'country_code',
] as const;

/** Country code to name in the active language. */
export type CountryNames = Map<string, string | null>;

export function mapAddress(a: AddressData | null | undefined, names: CountryNames): CheckoutAddressDto {
  const out: Record<string, string | null> = { id: null };
  for (const f of ADDRESS_FIELDS) out[f] = (a?.[f] as string | null | undefined) ?? null;
  const code = out.country_code;
  out.country_name = a?.country_name ?? (code ? (names.get(code) ?? null) : null);
  if (a?.region) out.region = a.region; // only when set: every other address keeps SPEC's members exactly
  return out as unknown as CheckoutAddressDto;
}

export function mapAdminAddress(a: AddressData | null | undefined, names: CountryNames): AdminCheckoutAddressDto {
  const street = [a?.street, a?.house_number].filter((x) => x && String(x).trim()).join(' ') || null;
  const code = a?.country_code ?? null;
  return {
    id: null,
    first_name: a?.first_name ?? null,
    last_name: a?.last_name ?? null,
    company: a?.company ?? null,
    department: a?.department ?? null,
    street,
    po_box: a?.po_box ?? null,
    zip_code: a?.zip_code ?? null,
    location: a?.location ?? null,
    email: a?.email ?? null,
    phone_number: a?.phone_number ?? null,
    mobile_number: a?.mobile_number ?? null,
    country_code: code,
    country_name: code ? (names.get(code) ?? null) : null,
  };
}

/** Lines of an open checkout, priced now (net and gross per unit and line). */
export function mapLiveLines(ctx: RequestContext, rows: CheckoutLineRow[], totals: CheckoutTotals): CheckoutLineDto[] {
  const p = totals.currency.precision;
  return totals.lines.map((l, i) => ({
    id: rows[i].id,
    article_id: l.variantId,
    title: translate(rows[i].title, ctx),
    sku: rows[i].sku,
    quantity: l.quantity,
    unit_price: fromMinor(l.unitNet, p),
    unit_price_with_tax: fromMinor(l.unitGross, p),
    line_total: fromMinor(l.lineNet, p),
    line_total_with_tax: fromMinor(l.lineGross, p),
    image_url: rows[i].image_src,
    ...(totals.promotions ? { promotions: mapLinePromotions(totals.promotions.lines[i].promotions, p) } : {}),
  }));
}

export function mapLiveTotals(t: CheckoutTotals): CheckoutTotalsDto {
  const p = t.currency.precision;
  return {
    subtotal: fromMinor(t.subtotal, p),
    subtotal_before_discount: fromMinor(t.subtotalBeforeDiscount, p),
    tax_amount: fromMinor(t.taxAmount, p),
    shipping_amount: fromMinor(t.shippingAmount, p),
    shipping_tax_rate: t.shippingTaxRate,
    shipping_method_name: t.shippingMethodName,
    discount: fromMinor(t.discount, p),
    coupon_text: t.couponText,
    total: fromMinor(t.total, p),
    currency: t.currency.code,
    price_includes_tax: t.priceIncludesTax,
    tax_lines: t.taxLines.map((x) => ({ name: x.name, rate: x.rate, amount: fromMinor(x.amount, p) })),
    ...destinationTaxes(t),
    ...(t.promotions ? { discounts: mapDiscounts(t.promotions.discounts, p) } : {}),
  };
}

/** The members a destination-taxed shop adds to the totals (none for any other shop: its answers stay as they were). */
function destinationTaxes(t: CheckoutTotals): Pick<CheckoutTotalsDto, 'excise_amount' | 'tax_zone' | 'gross_price_policy'> {
  if (!('lineTaxes' in t)) return {};
  const taxed = t as TaxedTotals;
  return {
    excise_amount: fromMinor(taxed.exciseAmount, t.currency.precision),
    tax_zone: taxed.taxZone?.name ?? null,
    gross_price_policy: taxed.grossPricePolicy,
  };
}

/** Lines of a completed checkout: the order's, as charged. */
export function mapOrderLinesAsCheckoutLines(lines: OrderLine[], withPromotions = false): CheckoutLineDto[] {
  return lines.map((l) => ({
    id: l.id,
    article_id: l.variantId,
    title: l.title,
    sku: l.sku,
    quantity: Number(l.quantity),
    unit_price: Number(l.unitPrice),
    unit_price_with_tax: Number(l.unitPriceWithTax),
    line_total: Number(l.lineTotal),
    line_total_with_tax: Number(l.lineTotalWithTax),
    image_url: l.imageUrl,
    ...(withPromotions ? { promotions: l.promotions ?? [] } : {}),
  }));
}

export function mapOrderTotals(o: Order): CheckoutTotalsDto {
  const sbd = Number(o.subtotal);
  const discount = Number(o.discount);
  return {
    subtotal: round(sbd - discount, o.currencyPrecision),
    subtotal_before_discount: sbd,
    tax_amount: Number(o.taxAmount),
    shipping_amount: Number(o.shippingAmount),
    shipping_tax_rate: Number(o.shippingTaxRate),
    shipping_method_name: o.shippingMethodName,
    discount,
    coupon_text: o.couponText,
    total: Number(o.total),
    currency: o.currencyCode,
    price_includes_tax: o.priceIncludesTax,
    tax_lines: o.taxLines,
    ...(o.promotions?.length ? { discounts: o.promotions } : {}),
  };
}

export function adminTotals(t: CheckoutTotalsDto): AdminCheckoutTotalsDto {
  return {
    subtotal: t.subtotal,
    tax_amount: t.tax_amount,
    shipping_amount: t.shipping_amount,
    discount: t.discount,
    total: t.total,
    currency_code: t.currency,
    price_includes_tax: t.price_includes_tax,
  };
}

export function mapOrderLine(l: OrderLine, priceIncludesTax: boolean, withPromotions = false): OrderLineDto {
  return {
    id: l.id,
    variant_id: l.variantId,
    product_id: l.productId,
    title: l.title,
    sku: l.sku,
    description: l.description,
    quantity: Number(l.quantity),
    unit_price: Number(l.unitPrice),
    unit_price_with_tax: Number(l.unitPriceWithTax),
    line_total: Number(priceIncludesTax ? l.lineTotalWithTax : l.lineTotal),
    ...(withPromotions ? { promotions: l.promotions ?? [] } : {}),
  };
}

export function mapReceipt(o: Order, lines: OrderLine[], names: CountryNames, refunds: OrderRefund[]): OrderReceiptDto {
  return { ...mapReceiptBase(o, lines, names), refunds: refunds.map((r) => ({ created_at: r.createdAt.toISOString(), amount: Number(r.amount) })) };
}

export function mapReceiptBase(o: Order, lines: OrderLine[], names: CountryNames): OrderReceiptBaseDto {
  return {
    id: o.id,
    number: o.number === null ? null : String(o.number),
    status: o.status,
    date: o.placedAt.toISOString(),
    currency: o.currencyCode,
    price_includes_tax: o.priceIncludesTax,
    line_items: lines.map((l) => mapOrderLine(l, o.priceIncludesTax, o.promotions?.length > 0)),
    subtotal: Number(o.subtotal),
    discount: Number(o.discount),
    discount_code: o.discountCode,
    shipping_amount: Number(o.shippingAmount),
    shipping_method_name: o.shippingMethodName,
    tax_amount: Number(o.taxAmount),
    tax_lines: o.taxLines,
    total: Number(o.total),
    comments: o.comments,
    payment_type: o.paymentTypeName,
    payment_status: o.paymentStatus,
    financial_status: o.financialStatus,
    fulfillment_status: o.fulfillmentStatus,
    cancelled_at: o.cancelledAt ? o.cancelledAt.toISOString() : null,
    cancel_reason: o.cancelReason,
    refunded_amount: Number(o.refundedAmount),
    tracking_url: o.trackingUrl,
    shipping_address: mapAddress(o.shippingAddress, names),
    billing_address: mapAddress(o.billingAddress, names),
    ...(o.grossPricePolicy ? { gross_price_policy: o.grossPricePolicy } : {}),
    ...(o.promotions?.length ? { discounts: o.promotions } : {}),
  };
}

/** SPEC's order summary; `currency` only when asked (`include=currency`): SPEC says it is not part of the summary. */
export function mapOrderSummary(o: Order, lineCount: number, withCurrency = false): OrderSummaryDto {
  return {
    id: o.id,
    number: String(o.number),
    status: o.status,
    date: o.placedAt.toISOString(),
    total: Number(o.total),
    ...(withCurrency ? { currency: o.currencyCode } : {}),
    line_items: lineCount,
  };
}

function round(x: number, precision: number): number {
  return Number(x.toFixed(precision));
}
