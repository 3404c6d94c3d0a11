import { Injectable } from '@nestjs/common';
import { DataSource, type DeepPartial, type EntityManager } from 'typeorm';
import { openMovementsByLocation } from '../../catalogue/index.js';
import type { RequestContext } from '../../common/context/request-context.js';
import { returning } from '../../common/db/returning.js';
import { getOrThrow, inTransaction, managerOf, repoOf } from '../../common/db/tenant-scope.js';
import { releaseDiscountCode } from '../../discounts/index.js';
import { FinancialStatus, FulfillmentStatus, Order, OrderFulfillment, OrderLine, OrderRefund } from '../entities/checkout.entities.js';

/**
 * Every statement of the order's life after placement (`OrderLifecycleService`, `OrderRefundsService`,
 * `OrderFulfillmentsService`), in the context's transaction (`ctx.manager`). The services hold the rules (what may
 * be cancelled, refunded, fulfilled, and how much) and are unit-tested with this class faked.
 */
@Injectable()
export class OrderLifecycleRepository {
  constructor(private readonly dataSource: DataSource) {}

  private m(ctx: RequestContext): EntityManager {
    return managerOf(ctx, this.dataSource);
  }

  /** Runs `work` in one transaction (reusing an open one) with the context bound to it. */
  transaction<R>(ctx: RequestContext, work: (tx: RequestContext) => Promise<R>): Promise<R> {
    return inTransaction(ctx, this.dataSource, work);
  }

  /** The shop's order `id` with its row locked until commit, or 404 `order`. */
  lockOrder(tx: RequestContext, id: string): Promise<Order> {
    return getOrThrow(tx, this.dataSource, Order, id, 'order', { lock: 'pessimistic_write' });
  }

  /** The order's lines by position. */
  lines(ctx: RequestContext, orderId: string): Promise<OrderLine[]> {
    return repoOf(ctx, this.dataSource, OrderLine).find({ where: { orderId, tenantId: ctx.tenantId }, order: { position: 'ASC' } });
  }

  /** What is still out per location of the stock movements with these reasons (taken negative, returned positive). */
  openMovements(tx: RequestContext, variantId: string, reasons: [string, string]): Promise<Array<{ location_id: string; open: string }>> {
    return openMovementsByLocation(this.m(tx), tx.tenantId, variantId, reasons);
  }

  /** A single-use discount code becomes usable again; true when one was released. */
  releaseDiscountCode(tx: RequestContext, code: string): Promise<boolean> {
    return releaseDiscountCode(this.m(tx), tx.tenantId, code);
  }

  /** The order is cancelled (with its reason); returns when. */
  async markCancelled(tx: RequestContext, orderId: string, reason: string | null): Promise<{ cancelled_at: Date }> {
    const [row] = await returning<{ cancelled_at: Date }>(
      this.m(tx),
      `UPDATE orders SET status = 'Cancelled', cancelled_at = now(), cancel_reason = $3, payment_expires_at = NULL,
         payment_status = CASE WHEN payment_status = 'pending' THEN 'cancelled' ELSE payment_status END, updated_at = now()
       WHERE id = $1 AND tenant_id = $2 RETURNING cancelled_at`,
      [orderId, tx.tenantId, reason],
    );
    return row;
  }

  /** Adds `quantity` (decimal) to the line's restocked quantity. */
  async addRestocked(tx: RequestContext, lineId: string, quantity: string): Promise<void> {
    await this.m(tx).query(`UPDATE order_lines SET restocked_quantity = restocked_quantity + $3, updated_at = now() WHERE id = $1 AND tenant_id = $2`, [
      lineId,
      tx.tenantId,
      quantity,
    ]);
  }

  /** Adds `quantity` (decimal) to the line's refunded quantity. */
  async addRefunded(tx: RequestContext, lineId: string, quantity: string): Promise<void> {
    await this.m(tx).query(`UPDATE order_lines SET refunded_quantity = refunded_quantity + $3, updated_at = now() WHERE id = $1 AND tenant_id = $2`, [
      lineId,
      tx.tenantId,
      quantity,
    ]);
  }

  /** Adds `quantity` (decimal) to the line's fulfilled quantity. */
  async addFulfilled(tx: RequestContext, lineId: string, quantity: string): Promise<void> {
    await this.m(tx).query(`UPDATE order_lines SET fulfilled_quantity = fulfilled_quantity + $3, updated_at = now() WHERE id = $1 AND tenant_id = $2`, [
      lineId,
      tx.tenantId,
      quantity,
    ]);
  }

  /** Inserts a refund row, returned as written. */
  insertRefund(tx: RequestContext, fields: DeepPartial<OrderRefund>): Promise<OrderRefund> {
    const repo = this.m(tx).getRepository(OrderRefund);
    return repo.save(repo.create(fields));
  }

  /** Inserts a fulfillment row, returned as written. */
  insertFulfillment(tx: RequestContext, fields: DeepPartial<OrderFulfillment>): Promise<OrderFulfillment> {
    const repo = this.m(tx).getRepository(OrderFulfillment);
    return repo.save(repo.create(fields));
  }

  /** A refund's money on the order: refunded amounts grow, the financial status follows. */
  async addRefund(
    tx: RequestContext,
    orderId: string,
    r: { amount: string; shipping: string; balances: string },
  ): Promise<{ financial_status: FinancialStatus; refunded_amount: string; balance_refunded: string }> {
    const [row] = await returning<{ financial_status: FinancialStatus; refunded_amount: string; balance_refunded: string }>(
      this.m(tx),
      `UPDATE orders SET refunded_amount = refunded_amount + $3, refunded_shipping = refunded_shipping + $4, balance_refunded = balance_refunded + $5,
         financial_status = CASE WHEN refunded_amount + $3 >= paid_amount THEN 'refunded' ELSE 'partially_refunded' END, updated_at = now()
       WHERE id = $1 AND tenant_id = $2 RETURNING financial_status, refunded_amount, balance_refunded`,
      [orderId, tx.tenantId, r.amount, r.shipping, r.balances],
    );
    return row;
  }

  /** A succeeded refund transaction of `refundId` (amount decimal). */
  async insertRefundTransaction(
    tx: RequestContext,
    orderId: string,
    t: { amount: string; provider: string; reference: string | null; refundId: string },
  ): Promise<void> {
    await this.m(tx).query(
      `INSERT INTO order_transactions (tenant_id, order_id, kind, amount, status, provider, reference, refund_id) VALUES ($1, $2, 'refund', $3, 'succeeded', $4, $5, $6)`,
      [tx.tenantId, orderId, t.amount, t.provider, t.reference, t.refundId],
    );
  }

  /** A succeeded void transaction (amount decimal). */
  async insertVoidTransaction(tx: RequestContext, orderId: string, t: { amount: string; provider: string | null; reference: string | null }): Promise<void> {
    await this.m(tx).query(
      `INSERT INTO order_transactions (tenant_id, order_id, kind, amount, status, provider, reference) VALUES ($1, $2, 'void', $3, 'succeeded', $4, $5)`,
      [tx.tenantId, orderId, t.amount, t.provider, t.reference],
    );
  }

  /** A payment transaction (`capture` or `manual`, amount decimal) as the provider answered; returns its id. */
  async insertPaymentTransaction(
    tx: RequestContext,
    orderId: string,
    t: {
      kind: 'capture' | 'manual';
      amount: string;
      status: string;
      provider: string | null;
      reference: string | null;
      recordedBy: string | null;
      note: string | null;
    },
  ): Promise<string> {
    const [row] = await returning<{ id: string }>(
      this.m(tx),
      `INSERT INTO order_transactions (tenant_id, order_id, kind, amount, status, provider, reference, recorded_by, note)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [tx.tenantId, orderId, t.kind, t.amount, t.status, t.provider, t.reference, t.recordedBy, t.note],
    );
    return row.id;
  }

  /** The order's pending authorization ends `failed` (a void) or `succeeded` (fully paid). */
  async settlePendingAuthorization(tx: RequestContext, orderId: string, status: 'failed' | 'succeeded'): Promise<void> {
    await this.m(tx).query(
      status === 'failed'
        ? `UPDATE order_transactions SET status = 'failed', updated_at = now() WHERE tenant_id = $1 AND order_id = $2 AND kind = 'authorization' AND status = 'pending'`
        : `UPDATE order_transactions SET status = 'succeeded', updated_at = now() WHERE tenant_id = $1 AND order_id = $2 AND kind = 'authorization' AND status = 'pending'`,
      [tx.tenantId, orderId],
    );
  }

  /** The authorization is voided: an unpaid order's status becomes `voided`; no payment expiry any more. */
  async markVoided(tx: RequestContext, orderId: string): Promise<FinancialStatus> {
    const [row] = await returning<{ financial_status: FinancialStatus }>(
      this.m(tx),
      `UPDATE orders SET financial_status = CASE WHEN paid_amount = 0 THEN 'voided' ELSE financial_status END, payment_expires_at = NULL, updated_at = now()
       WHERE id = $1 AND tenant_id = $2 RETURNING financial_status`,
      [orderId, tx.tenantId],
    );
    return row.financial_status;
  }

  /** Money received: the paid amount grows; at the total the order is paid. */
  async addPayment(tx: RequestContext, orderId: string, amount: string): Promise<{ financial_status: FinancialStatus; paid_amount: string }> {
    const [row] = await returning<{ financial_status: FinancialStatus; paid_amount: string }>(
      this.m(tx),
      `UPDATE orders SET paid_amount = paid_amount + $3,
         financial_status = CASE WHEN paid_amount + $3 >= total THEN 'paid' ELSE 'partially_paid' END,
         payment_status = CASE WHEN paid_amount + $3 >= total THEN 'paid' ELSE payment_status END,
         paid_at = CASE WHEN paid_amount + $3 >= total THEN now() ELSE paid_at END,
         payment_expires_at = NULL, updated_at = now()
       WHERE id = $1 AND tenant_id = $2 RETURNING financial_status, paid_amount`,
      [orderId, tx.tenantId, amount],
    );
    return row;
  }

  /** A shipment's effect on the order: its fulfillment status, tracking URL, and `Shipped` once `done`. */
  async markShipment(tx: RequestContext, orderId: string, status: FulfillmentStatus, trackingUrl: string | null, done: boolean): Promise<void> {
    await this.m(tx).query(
      `UPDATE orders SET fulfillment_status = $3, tracking_url = coalesce($4, tracking_url),
         status = CASE WHEN $5 AND status = 'Open' THEN 'Shipped' ELSE status END, shipped_at = CASE WHEN $5 THEN coalesce(shipped_at, now()) ELSE shipped_at END, updated_at = now()
       WHERE id = $1 AND tenant_id = $2`,
      [orderId, tx.tenantId, status, trackingUrl, done],
    );
  }

  /** The order has shipped whole (after a restock left nothing unshipped). */
  async markFulfilled(tx: RequestContext, orderId: string): Promise<void> {
    await this.m(tx).query(
      `UPDATE orders SET fulfillment_status = 'fulfilled', status = CASE WHEN status = 'Open' THEN 'Shipped' ELSE status END,
         shipped_at = coalesce(shipped_at, now()), updated_at = now()
       WHERE id = $1 AND tenant_id = $2`,
      [orderId, tx.tenantId],
    );
  }

  /** Corrects the order's tracking URL. */
  async setTrackingUrl(tx: RequestContext, orderId: string, url: string): Promise<void> {
    await this.m(tx).query(`UPDATE orders SET tracking_url = $3, updated_at = now() WHERE id = $1 AND tenant_id = $2`, [orderId, tx.tenantId, url]);
  }
}
