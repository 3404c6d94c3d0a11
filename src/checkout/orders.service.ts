import { Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { DataSource } from 'typeorm';
import { RequestContext } from '../common/context/request-context.js';
import { inTransaction, managerOf, repoOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { isHttpUrl } from '../common/http/url.js';
import { translate } from '../common/i18n.js';
import { DomainEvents } from '../events/domain-events.service.js';
import { CountryNames, mapOrderSummary, mapReceipt } from './checkout-mappers.js';
import { OrderReceiptDto, OrderSummaryDto } from './dto/order.dto.js';
import { returning } from './sql.js';
import { Order, OrderLine } from './entities/checkout.entities.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type PaymentOutcome = 'paid' | 'cancelled';

/**
 * Placed orders: the receipt (SPEC "Placed order"), read by id and hash (guest, CONTRACT 4), by the owning
 * shopper (`listForCustomer`, `getForCustomer`, for GET /customers/me/orders), by staff; payment outcomes and shipping.
 */
@Injectable()
export class OrdersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly events: DomainEvents,
  ) {}

  /** GET /orders/{id}?hash=: a wrong or missing hash is 404, like an unknown id. */
  async guestRead(ctx: RequestContext, id: string, hash: unknown): Promise<OrderReceiptDto> {
    const order = await this.findOrder(ctx, id);
    if (!order || typeof hash !== 'string' || !sameSecret(order.hash, hash)) throw AppError.notFound('order');
    return this.receipt(ctx, order);
  }

  /** The shopper's orders, newest first by date (limit/offset; the caller clamps). */
  async listForCustomer(ctx: RequestContext, customerId: string, limit: number, offset: number): Promise<OrderSummaryDto[]> {
    const rows = await repoOf(ctx, this.dataSource, Order)
      .createQueryBuilder('o')
      .where('o.tenant_id = :tenant AND o.customer_id = :customer', { tenant: ctx.tenantId, customer: customerId })
      .orderBy('o.placed_at', 'DESC')
      .addOrderBy('o.id', 'DESC')
      .limit(limit)
      .offset(offset)
      .getMany();
    if (rows.length === 0) return [];
    const counts: Array<{ order_id: string; n: string }> = await managerOf(ctx, this.dataSource).query(
      `SELECT order_id, count(*) AS n FROM order_lines WHERE tenant_id = $1 AND order_id = ANY($2::uuid[]) GROUP BY order_id`,
      [ctx.tenantId, rows.map((r) => r.id)],
    );
    const byOrder = new Map(counts.map((c) => [c.order_id, Number(c.n)]));
    return rows.map((o) => mapOrderSummary(o, byOrder.get(o.id) ?? 0));
  }

  /** One of the shopper's orders; another's (or an unknown id) is 404. */
  async getForCustomer(ctx: RequestContext, customerId: string, id: string): Promise<OrderReceiptDto> {
    const order = await this.findOrder(ctx, id);
    if (!order || order.customerId !== customerId) throw AppError.notFound('order');
    return this.receipt(ctx, order);
  }

  async adminGet(ctx: RequestContext, id: string): Promise<OrderReceiptDto> {
    const order = await this.findOrder(ctx, id);
    if (!order) throw AppError.notFound('order');
    return this.receipt(ctx, order);
  }

  /** Marks an order shipped with its tracking URL (status `Shipped`); repeatable to correct the URL. */
  async fulfill(ctx: RequestContext, id: string, trackingUrl: string): Promise<OrderReceiptDto> {
    const url = trackingUrl.trim();
    if (!isHttpUrl(url)) throw AppError.unprocessable('tracking_url must be an absolute http(s) URL');
    const order = await inTransaction(ctx, this.dataSource, async (tx) => {
      const rows = await returning<{ id: string; number: string }>(
        managerOf(tx, this.dataSource),
        `UPDATE orders SET tracking_url = $3, status = CASE WHEN status = 'Open' THEN 'Shipped' ELSE status END, shipped_at = coalesce(shipped_at, now()), updated_at = now()
         WHERE id = $1 AND tenant_id = $2 AND status <> 'Cancelled' RETURNING id, number`,
        [id, tx.tenantId, url],
      );
      if (rows.length === 0) {
        if (await this.findOrder(tx, id)) throw AppError.conflict('a cancelled order cannot ship');
        throw AppError.notFound('order');
      }
      await this.events.emit(tx, 'order.shipped', { order: { id, number: String(rows[0].number), tracking_url: url } });
      return (await this.findOrder(tx, id))!;
    });
    return this.receipt(ctx, order);
  }

  /**
   * Records a provider's payment outcome: `paid` from pending or cancelled (emits order.paid), `cancelled` from
   * pending only; anything else leaves the order as it is. Returns the order after the change.
   */
  async recordPayment(ctx: RequestContext, id: string, outcome: PaymentOutcome): Promise<Order> {
    return inTransaction(ctx, this.dataSource, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      const rows =
        outcome === 'paid'
          ? await returning<{ id: string }>(m, `UPDATE orders SET payment_status = 'paid', paid_at = now(), updated_at = now() WHERE id = $1 AND tenant_id = $2 AND payment_status IN ('pending', 'cancelled') RETURNING id`, [id, tx.tenantId])
          : await returning<{ id: string }>(m, `UPDATE orders SET payment_status = 'cancelled', updated_at = now() WHERE id = $1 AND tenant_id = $2 AND payment_status = 'pending' RETURNING id`, [id, tx.tenantId]);
      const order = await this.findOrder(tx, id);
      if (!order) throw AppError.notFound('order');
      if (rows.length > 0 && outcome === 'paid') {
        await this.events.emit(tx, 'order.paid', { order: { id, number: String(order.number), total: Number(order.total), currency: order.currencyCode } });
      }
      return order;
    });
  }

  /** The order with this id and hash in any shop (the test payment page has no shop context), else null. */
  async findByIdAndHash(id: string, hash: unknown): Promise<Order | null> {
    if (!UUID.test(id) || typeof hash !== 'string') return null;
    const order = await this.dataSource.getRepository(Order).findOne({ where: { id } });
    return order && sameSecret(order.hash, hash) ? order : null;
  }

  async receipt(ctx: RequestContext, order: Order): Promise<OrderReceiptDto> {
    const lines = await repoOf(ctx, this.dataSource, OrderLine).find({ where: { orderId: order.id, tenantId: ctx.tenantId }, order: { position: 'ASC' } });
    const countries: Array<{ code: string; name: Record<string, string> }> = await managerOf(ctx, this.dataSource).query(`SELECT code, name FROM countries WHERE tenant_id = $1`, [ctx.tenantId]);
    const names: CountryNames = new Map(countries.map((c) => [c.code, translate(c.name, ctx)]));
    return mapReceipt(order, lines, names);
  }

  private async findOrder(ctx: RequestContext, id: string): Promise<Order | null> {
    if (!UUID.test(id)) return null;
    return repoOf(ctx, this.dataSource, Order).findOne({ where: { id, tenantId: ctx.tenantId } });
  }
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
