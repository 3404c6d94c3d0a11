import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context.js';
import { AppError } from '../common/http/app-error.js';
import { fromMinor, toMinor } from '../pricing/index.js';
import type { CreateRefundDto } from './dto/admin-order.dto.js';
import type { Order, OrderLine, RefundLineData } from './entities/checkout.entities.js';
import { OrderFulfillmentsService } from './order-fulfillments.service.js';
import { OrderLifecycleService } from './order-lifecycle.service.js';
import { OrderLifecycleRepository } from './repositories/order-lifecycle.repository.js';

const milli = (q: string | number) => toMinor(q, 3);

/** Half-up integer division of non-negative bigints. */
function divHalfUp(num: bigint, den: bigint): number {
  return Number((num * 2n + den) / (2n * den));
}

/**
 * What `quantityMilli` of a line cost the buyer, tax included, in minor units, rounded once: the line as charged
 * (gross line total in a gross shop; net line total plus its tax rate in a net shop) less what promotions took off
 * this line (issue 32), less its pro-rata share of the rest of the order-level discount (the coupon), for the part of
 * the quantity refunded: (line - line promotions) x (subtotal - discount) / (subtotal - all line promotions). Excise
 * duty is not in it (see `lineRefundParts`).
 */
export function lineRefundMinor(order: Order, line: OrderLine, quantityMilli: number): number {
  return goodsParts(order, line, quantityMilli).gross;
}

/** The gross and net of `quantityMilli` of a line after its discount share, minor units, each rounded once. */
function goodsParts(order: Order, line: OrderLine, quantityMilli: number): { gross: number; net: number } {
  const p = order.currencyPrecision;
  const sbd = BigInt(toMinor(order.subtotal, p));
  const promoted = BigInt(toMinor(order.promotionDiscount ?? '0', p)); // every line's promotion parts
  const kept = sbd - BigInt(toMinor(order.discount, p)); // what the lines cost after the discount
  const q = BigInt(quantityMilli);
  const whole = BigInt(milli(line.quantity));
  const base = sbd - promoted; // what the lines cost after their promotions, before the coupon
  const share = base > 0n ? [kept, base] : [1n, 1n];
  const own = BigInt(toMinor(line.promotionDiscount ?? '0', p));
  const rate = BigInt(toMinor(line.taxRate, 3)); // percent in thousandths
  if (order.priceIncludesTax) {
    // the tax inside a gross amount as the order's tax lines take it: gross x r / (100 + r), rounded once
    const gross = divHalfUp((BigInt(toMinor(line.lineTotalWithTax, p)) - own) * q * share[0], whole * share[1]);
    return { gross, net: gross - divHalfUp(BigInt(gross) * rate, 100_000n + rate) };
  }
  const lineNet = BigInt(toMinor(line.lineTotal, p)) - own;
  const net = divHalfUp(lineNet * q * share[0], whole * share[1]);
  return { gross: divHalfUp(lineNet * q * share[0] * (100_000n + rate), whole * share[1] * 100_000n), net };
}

/**
 * A refunded part of a line split (issue 31): `amount` = the goods as charged after the discount share (tax
 * included) + the line's excise duty and the VAT on it (when charged) pro rata of the quantity; `tax` = the goods'
 * VAT and the excise's VAT given back; `excise` = the excise given back. Minor units, each rounded once.
 */
export function lineRefundParts(order: Order, line: OrderLine, quantityMilli: number): { amount: number; tax: number; excise: number } {
  const { gross, net } = goodsParts(order, line, quantityMilli);
  const share = (charged: string | undefined) =>
    divHalfUp(BigInt(toMinor(charged ?? '0', order.currencyPrecision)) * BigInt(quantityMilli), BigInt(milli(line.quantity)));
  const excise = share(line.exciseAmount);
  const exciseTax = share(line.exciseTax); // the VAT on the excise, where the zone's VAT base includes it
  return { amount: gross + excise + exciseTax, tax: gross - net + exciseTax, excise };
}

/** What the buyer paid for shipping, tax included, in minor units. */
export function shippingChargedMinor(order: Order): number {
  const p = order.currencyPrecision;
  const net = toMinor(order.shippingAmount, p);
  if (order.priceIncludesTax) return net;
  return divHalfUp(BigInt(net) * (100_000n + BigInt(toMinor(order.shippingTaxRate, 3))), 100_000n);
}

/** POST /admin/orders/{id}/refunds: partial or full refunds through the payment provider. */
@Injectable()
export class OrderRefundsService {
  constructor(
    private readonly orders: OrderLifecycleRepository,
    private readonly lifecycle: OrderLifecycleService,
    private readonly fulfillments: OrderFulfillmentsService,
  ) {}

  /**
   * Under the order's row lock (two refunds racing for the last amount serialize; the second sees the first):
   * lines checked against what is left to refund (422 naming the member), the amount computed from the lines and
   * shipping unless given, never more than paid minus refunded (422 `refund_exceeds_paid`), restock per line, then
   * the provider's refund and `order.refunded`.
   */
  create(ctx: RequestContext, id: string, dto: CreateRefundDto, opts: { storeCreditCustomerId?: string | null } = {}): Promise<Order> {
    return this.lifecycle.run(ctx, async (tx) => {
      const order = await this.lifecycle.lock(tx, id);
      // unknown members are stripped: without this, {amount: 1, currency: "EUR"} would refund 1 of the order's currency
      if (dto.currency != null && dto.currency.toUpperCase() !== order.currencyCode.toUpperCase())
        throw AppError.unprocessable(`currency must be the order's currency (${order.currencyCode})`, 'currency_mismatch');
      const p = order.currencyPrecision;
      const lines = await this.lifecycle.lines(tx, order.id);
      const byId = new Map(lines.map((l) => [l.id, l]));
      const parts: Array<{ line: OrderLine; quantity: number; restock: boolean; amount: number; tax: number; excise: number }> = [];
      (dto.lines ?? []).forEach((input, i) => {
        const line = byId.get(input.line_id);
        if (!line) throw AppError.unprocessable(`lines[${i}].line_id names no line of this order`);
        if (parts.some((x) => x.line.id === line.id)) throw AppError.unprocessable(`lines[${i}].line_id appears twice`);
        const quantity = milli(input.quantity);
        const left = milli(line.quantity) - milli(line.refundedQuantity);
        if (quantity > left) throw AppError.unprocessable(`lines[${i}].quantity exceeds what is left to refund of this line (${left / 1000})`);
        parts.push({ line, quantity, restock: input.restock === true, ...lineRefundParts(order, line, quantity) });
      });
      const shippingLeft = shippingChargedMinor(order) - toMinor(order.refundedShipping, p);
      const shipping = dto.shipping == null ? 0 : toMinor(dto.shipping, p);
      if (shipping > shippingLeft) throw AppError.unprocessable(`shipping exceeds the shipping charged and not yet refunded (${fromMinor(shippingLeft, p)})`);

      const remaining = toMinor(order.paidAmount, p) - toMinor(order.refundedAmount, p);
      const computed = parts.reduce((a, x) => a + x.amount, 0) + shipping;
      // the refund that covers everything still refundable takes exactly what is left (no cent lost to rounding)
      const everything =
        (parts.length > 0 || shipping > 0) &&
        lines.every((l) => milli(l.quantity) - milli(l.refundedQuantity) === (parts.find((x) => x.line.id === l.id)?.quantity ?? 0)) &&
        shipping === shippingLeft;
      const amount = dto.amount != null ? toMinor(dto.amount, p) : everything && remaining > 0 ? remaining : computed;
      if (amount <= 0) throw AppError.unprocessable('nothing to refund: give lines, shipping or amount');
      if (amount > remaining) {
        throw AppError.unprocessable(
          `the refund (${fromMinor(amount, p)}) exceeds what was paid and not yet refunded (${fromMinor(Math.max(0, remaining), p)})`,
          'refund_exceeds_paid',
        );
      }

      const recorded: RefundLineData[] = [];
      for (const x of [...parts].sort((a, b) => (a.line.variantId ?? '').localeCompare(b.line.variantId ?? ''))) {
        if (x.restock) await this.lifecycle.restock(tx, order, x.line, x.quantity);
        await this.orders.addRefunded(tx, x.line.id, (x.quantity / 1000).toFixed(3));
      }
      // an order taxed by destination records each line's VAT and excise given back; every other order's refund
      // lines stay as they were (the tax report derives their VAT from the amount and the line's rate)
      const destinationTaxed = order.taxZone !== null || lines.some((l) => l.taxZone !== null);
      for (const x of parts)
        recorded.push({
          line_id: x.line.id,
          quantity: x.quantity / 1000,
          restock: x.restock,
          amount: fromMinor(x.amount, p),
          ...(destinationTaxed ? { tax: fromMinor(x.tax, p), excise: fromMinor(x.excise, p) } : {}),
        });
      await this.lifecycle.refundMoney(tx, order, {
        amount,
        shipping,
        lines: recorded,
        note: dto.note ?? null,
        storeCreditCustomerId: opts.storeCreditCustomerId ?? null,
      });
      // units returned to stock are not shipped any more: the rest may now be the whole shipment
      if (parts.some((x) => x.restock)) await this.fulfillments.settleAfterRestock(tx, order);
      return this.lifecycle.lock(tx, order.id);
    });
  }
}
