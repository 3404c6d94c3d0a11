import { Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { RequestContext } from '../common/context/request-context.js';
import { AppError } from '../common/http/app-error.js';
import { translate } from '../common/i18n.js';
import { CountryNames, mapOrderSummary, mapReceipt } from './checkout-mappers.js';
import { OrderReceiptDto, OrderSummaryDto } from './dto/order.dto.js';
import type { Order } from './entities/checkout.entities.js';
import { OrderLifecycleService } from './order-lifecycle.service.js';
import { OrdersRepository } from './repositories/orders.repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type PaymentOutcome = 'paid' | 'cancelled';

/**
 * Placed orders: the receipt (SPEC "Placed order"), read by id and hash (guest, CONTRACT 4), by the owning
 * shopper (`listForCustomer`, `getForCustomer`, for GET /customers/me/orders), payment outcomes (issue 17: through the order lifecycle).
 */
@Injectable()
export class OrdersService {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly lifecycle: OrderLifecycleService,
  ) {}

  /** GET /orders/{id}?hash=: a wrong or missing hash is 404, like an unknown id. */
  async guestRead(ctx: RequestContext, id: string, hash: unknown): Promise<OrderReceiptDto> {
    const order = await this.findOrder(ctx, id);
    if (!order || typeof hash !== 'string' || !sameSecret(order.hash, hash)) throw AppError.notFound('order');
    return this.receipt(ctx, order);
  }

  /** The shopper's orders, newest first by date (limit/offset; the caller clamps). */
  async listForCustomer(ctx: RequestContext, customerId: string, limit: number, offset: number, withCurrency = false): Promise<OrderSummaryDto[]> {
    const rows = await this.orders.ofCustomer(ctx, customerId, limit, offset);
    if (rows.length === 0) return [];
    const counts = await this.orders.lineCounts(
      ctx,
      rows.map((r) => r.id),
    );
    const byOrder = new Map(counts.map((c) => [c.order_id, Number(c.n)]));
    return rows.map((o) => mapOrderSummary(o, byOrder.get(o.id) ?? 0, withCurrency));
  }

  /** One of the shopper's orders; another's (or an unknown id) is 404. */
  async getForCustomer(ctx: RequestContext, customerId: string, id: string): Promise<OrderReceiptDto> {
    const order = await this.findOrder(ctx, id);
    if (!order || order.customerId !== customerId) throw AppError.notFound('order');
    return this.receipt(ctx, order);
  }

  /**
   * Records a provider's payment outcome on the locked order. `paid`: captured through the provider (order.paid)
   * while the order is pending and not cancelled; a confirmation arriving after a cancel or expiry changes nothing.
   * `cancelled` (the buyer abandoned the redirect payment): the order is cancelled at once like an expired payment
   * (stock and code released, authorization voided, order.cancelled with reason `payment_cancelled`).
   * Returns the order after the change.
   */
  async recordPayment(ctx: RequestContext, id: string, outcome: PaymentOutcome): Promise<Order> {
    return this.lifecycle.run(ctx, async (tx) => {
      const order = await this.lifecycle.lock(tx, id);
      if (outcome === 'paid') await this.lifecycle.capture(tx, order);
      else if (!order.cancelledAt && order.financialStatus === 'pending') {
        await this.lifecycle.cancelLocked(tx, order, { reason: 'payment_cancelled', restock: true, refund: true, note: null });
      }
      return this.lifecycle.lock(tx, id);
    });
  }

  /** The order with this id and hash in any shop (the test payment page has no shop context), else null. */
  async findByIdAndHash(id: string, hash: unknown): Promise<Order | null> {
    if (!UUID.test(id) || typeof hash !== 'string') return null;
    const order = await this.orders.findInAnyShop(id);
    return order && sameSecret(order.hash, hash) ? order : null;
  }

  async receipt(ctx: RequestContext, order: Order): Promise<OrderReceiptDto> {
    const lines = await this.orders.lines(ctx, order.id);
    const countries = await this.orders.countries(ctx);
    const names: CountryNames = new Map(countries.map((c) => [c.code, translate(c.name, ctx)]));
    const refunds = await this.orders.refunds(ctx, order.id);
    return mapReceipt(order, lines, names, refunds);
  }

  private async findOrder(ctx: RequestContext, id: string): Promise<Order | null> {
    if (!UUID.test(id)) return null;
    return this.orders.find(ctx, id);
  }
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
