import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context.js';
import { AppError } from '../common/http/app-error.js';
import { isHttpUrl } from '../common/http/url.js';
import { toMinor } from '../pricing/index.js';
import { DomainEvents } from '../events/index.js';
import type { CreateFulfillmentDto } from './dto/admin-order.dto.js';
import type { FulfillmentLineData, FulfillmentStatus, Order } from './entities/checkout.entities.js';
import { OrderLifecycleService, unshippedMilli } from './order-lifecycle.service.js';
import { OrderLifecycleRepository } from './repositories/order-lifecycle.repository.js';

const milli = (q: string | number) => toMinor(q, 3);

/** POST /admin/orders/{id}/fulfillments (and the older POST /admin/orders/{id}/fulfillment). */
@Injectable()
export class OrderFulfillmentsService {
  constructor(
    private readonly orders: OrderLifecycleRepository,
    private readonly lifecycle: OrderLifecycleService,
    private readonly events: DomainEvents,
  ) {}

  /**
   * A (partial) shipment, under the order's row lock: 409 for a cancelled order or when nothing is left to fulfil;
   * each line's quantity at most what is left (ordered, less shipped, less what refunds returned to stock) (422 naming the member); `fulfillment_status` follows; emits
   * `order.fulfilled`, and `order.shipped` when the whole order has now shipped (status `Shipped`).
   */
  create(ctx: RequestContext, id: string, dto: CreateFulfillmentDto): Promise<Order> {
    return this.lifecycle.run(ctx, async (tx) => {
      const order = await this.lifecycle.lock(tx, id);
      if (order.cancelledAt) throw AppError.conflict('a cancelled order cannot be fulfilled');
      const trackingUrl = dto.tracking_url?.trim() || null;
      if (trackingUrl && !isHttpUrl(trackingUrl)) throw AppError.unprocessable('tracking_url must be an absolute http(s) URL');
      const lines = await this.lifecycle.lines(tx, order.id);
      // units a refund returned to stock are not shipped any more: a restock counts against the unshipped units first
      const left = new Map(lines.map((l) => [l.id, Math.max(0, unshippedMilli(l))]));
      const take: FulfillmentLineData[] = [];
      if (dto.lines === undefined || dto.lines === null) {
        for (const l of lines) if (left.get(l.id)! > 0) take.push({ line_id: l.id, quantity: left.get(l.id)! / 1000 });
        if (take.length === 0) throw AppError.conflict('the order is already fully fulfilled');
      } else {
        if (dto.lines.length === 0) throw AppError.unprocessable('lines must not be empty (omit it to fulfil everything left)');
        dto.lines.forEach((input, i) => {
          if (!left.has(input.line_id)) throw AppError.unprocessable(`lines[${i}].line_id names no line of this order`);
          if (take.some((x) => x.line_id === input.line_id)) throw AppError.unprocessable(`lines[${i}].line_id appears twice`);
          const q = milli(input.quantity);
          if (q > left.get(input.line_id)!)
            throw AppError.unprocessable(`lines[${i}].quantity exceeds what is left to fulfil of this line (${left.get(input.line_id)! / 1000})`);
          take.push({ line_id: input.line_id, quantity: q / 1000 });
        });
      }
      for (const x of take) {
        await this.orders.addFulfilled(tx, x.line_id, x.quantity.toFixed(3));
        left.set(x.line_id, left.get(x.line_id)! - milli(x.quantity));
      }
      const done = [...left.values()].every((v) => v <= 0);
      const status: FulfillmentStatus = done ? 'fulfilled' : 'partial';
      const fulfillment = await this.orders.insertFulfillment(tx, {
        tenantId: tx.tenantId,
        orderId: order.id,
        lines: take,
        trackingNumber: dto.tracking_number?.trim() || null,
        trackingUrl,
        carrier: dto.carrier?.trim() || null,
        notifyCustomer: dto.notify_customer === true,
      });
      await this.orders.markShipment(tx, order.id, status, trackingUrl, done);
      const after = await this.lifecycle.lock(tx, order.id);
      await this.events.emit(tx, 'order.fulfilled', {
        order: { id: order.id, number: String(order.number), email: order.email, fulfillment_status: status },
        fulfillment: {
          id: fulfillment.id,
          created_at: fulfillment.createdAt.toISOString(),
          lines: take,
          tracking_number: fulfillment.trackingNumber,
          tracking_url: trackingUrl,
          carrier: fulfillment.carrier,
        },
        notify_customer: fulfillment.notifyCustomer,
      });
      if (done) await this.events.emit(tx, 'order.shipped', { order: { id: order.id, number: String(order.number), tracking_url: after.trackingUrl } });
      return after;
    });
  }

  /**
   * After a refund returned units to stock (in the caller's transaction, under the order's lock): when some units
   * have shipped and nothing is left to ship (ordered, less shipped, less restocked), the order is fulfilled — status
   * `Shipped` and `order.shipped`, as the shipment that completes an order would make it.
   */
  async settleAfterRestock(tx: RequestContext, order: Order): Promise<void> {
    if (order.cancelledAt || order.fulfillmentStatus === 'fulfilled') return;
    const lines = await this.lifecycle.lines(tx, order.id);
    const shipped = lines.some((l) => milli(l.fulfilledQuantity) > 0);
    const done = lines.every((l) => unshippedMilli(l) <= 0);
    if (!shipped || !done) return;
    await this.orders.markFulfilled(tx, order.id);
    const after = await this.lifecycle.lock(tx, order.id);
    await this.events.emit(tx, 'order.shipped', { order: { id: order.id, number: String(order.number), tracking_url: after.trackingUrl } });
  }

  /**
   * The older single-call shipment: fulfils everything left with this tracking URL, or (when nothing is left)
   * corrects the tracking URL; emits `order.shipped` either way.
   */
  async shipAll(ctx: RequestContext, id: string, trackingUrl: string): Promise<Order> {
    const url = trackingUrl.trim();
    if (!isHttpUrl(url)) throw AppError.unprocessable('tracking_url must be an absolute http(s) URL');
    return this.lifecycle.run(ctx, async (tx) => {
      const order = await this.lifecycle.lock(tx, id);
      if (order.cancelledAt) throw AppError.conflict('a cancelled order cannot ship');
      if (order.fulfillmentStatus !== 'fulfilled') return this.create(tx, id, { tracking_url: url });
      await this.orders.setTrackingUrl(tx, id, url);
      await this.events.emit(tx, 'order.shipped', { order: { id, number: String(order.number), tracking_url: url } });
      return this.lifecycle.lock(tx, id);
    });
  }
}
