import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { repoOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { fromMinor, toMinor } from '../pricing/index.js';
import type { RecordPaymentDto } from './dto/admin-order.dto.js';
import { FinancialStatus, Order, OrderTransaction } from './entities/checkout.entities.js';
import { OrderLifecycleService } from './order-lifecycle.service.js';

/** Statuses in which an order may still receive money (a refunded one may not: refunds follow payments). */
const PAYABLE: readonly FinancialStatus[] = ['pending', 'partially_paid', 'voided'];

/**
 * Payments after placement (issue 33): staff record money received for an offline payment type, or capture an
 * authorized provider payment, in parts, never beyond the order's total; and void a pending authorization. Each runs
 * under the order's row lock, the lock every order change takes first, so a payment racing a cancel gives one
 * outcome (payment first: the cancel refunds it; cancel first: the payment is 409).
 */
@Injectable()
export class OrderPaymentsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lifecycle: OrderLifecycleService,
  ) {}

  /** POST /admin/orders/{id}/payments. */
  record(ctx: RequestContext, id: string, dto: RecordPaymentDto): Promise<Order> {
    return this.lifecycle.run(ctx, async (tx) => {
      const order = await this.lifecycle.lock(tx, id);
      if (order.cancelledAt) throw AppError.conflict('the order is cancelled', 'order_cancelled');
      // as for refunds: {amount: 1, currency: "EUR"} must not record 1 of the order's currency
      if (dto.currency != null && dto.currency.toUpperCase() !== order.currencyCode.toUpperCase())
        throw AppError.unprocessable(`currency must be the order's currency (${order.currencyCode})`, 'currency_mismatch');
      const p = order.currencyPrecision;
      const unpaid = toMinor(order.total, p) - toMinor(order.paidAmount, p);
      if (!PAYABLE.includes(order.financialStatus) || unpaid <= 0)
        throw AppError.conflict(`the order is ${order.financialStatus}: nothing is left to pay`, 'order_already_paid');
      const amount = dto.amount == null ? unpaid : toMinor(dto.amount, p);
      if (dto.amount != null && fromMinor(amount, p) !== dto.amount)
        throw AppError.unprocessable(`amount has more decimals than ${order.currencyCode} allows (${p})`);
      if (amount > unpaid)
        throw AppError.unprocessable(
          `amount (${fromMinor(amount, p)}) exceeds what is unpaid of the order (${fromMinor(unpaid, p)})`,
          'payment_exceeds_unpaid',
        );
      const kind = dto.kind ?? 'manual';
      if (kind === 'capture' && !(await this.pendingAuthorization(tx, order.id)))
        throw AppError.conflict('the order has no pending authorization to capture', 'no_pending_authorization');
      const result = await this.lifecycle.receive(tx, order, {
        amount,
        kind,
        reference: dto.reference?.trim() || null,
        note: dto.note ?? null,
        recordedBy: tx.actor.type === 'staff' ? tx.actor.staffId : null,
      });
      if (!result.succeeded) throw AppError.unprocessable('the payment provider declined the capture', 'payment_provider_declined');
      return this.lifecycle.lock(tx, order.id);
    });
  }

  /** POST /admin/orders/{id}/payments/{pid}/void: only a pending authorization (else 409); unknown or foreign pid 404. */
  void(ctx: RequestContext, id: string, paymentId: string): Promise<Order> {
    return this.lifecycle.run(ctx, async (tx) => {
      const order = await this.lifecycle.lock(tx, id);
      const payment = await repoOf(tx, this.dataSource, OrderTransaction).findOne({ where: { id: paymentId, orderId: order.id, tenantId: tx.tenantId } });
      if (!payment) throw AppError.notFound('payment');
      if (payment.kind !== 'authorization' || payment.status !== 'pending')
        throw AppError.conflict(`only a pending authorization can be voided (this is a ${payment.status} ${payment.kind})`, 'payment_not_voidable');
      if (order.cancelledAt) throw AppError.conflict('the order is cancelled', 'order_cancelled');
      await this.lifecycle.voidPayment(tx, order);
      return this.lifecycle.lock(tx, order.id);
    });
  }

  private async pendingAuthorization(tx: RequestContext, orderId: string): Promise<boolean> {
    return repoOf(tx, this.dataSource, OrderTransaction).exists({ where: { orderId, tenantId: tx.tenantId, kind: 'authorization', status: 'pending' } });
  }
}
