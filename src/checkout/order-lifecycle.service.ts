import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { getOrThrow, inTransaction, managerOf, repoOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { fromMinor, minorToDecimalString, toMinor } from '../pricing/index.js';
import { openMovementsByLocation, StockService } from '../catalogue/index.js';
import { releaseDiscountCode } from '../discounts/index.js';
import { DomainEvents } from '../events/index.js';
import { BalancePayments } from '../gift-cards/index.js';
import { FinancialStatus, Order, OrderLine, OrderRefund, RefundLineData } from './entities/checkout.entities.js';
import { PaymentOperation, PaymentOperationResult, PaymentProvider, PaymentProviders } from './payments/payment-provider.js';
import { returning } from '../common/db/returning.js';

export interface CancelInput {
  reason: string | null;
  restock: boolean;
  refund: boolean;
  note: string | null;
}

export interface RefundRecord {
  /** Minor units of the order's currency. */
  amount: number;
  shipping: number;
  lines: RefundLineData[];
  note: string | null;
  /** Refund as store credit of this customer instead of through the provider (returns, claims; issue 33). */
  storeCreditCustomerId?: string | null;
}

/** A payment received on an order (issue 33). */
export interface PaymentRecord {
  /** Minor units of the order's currency. */
  amount: number;
  /** `capture` through the order's provider, or `manual` (received outside it). */
  kind: 'capture' | 'manual';
  reference: string | null;
  note: string | null;
  /** The staff user who recorded it. */
  recordedBy: string | null;
}

const milli = (q: string | number) => toMinor(q, 3);

/** Thousandths of a line still to ship: ordered, less shipped, less what refunds and cancels returned to stock. */
export function unshippedMilli(line: Pick<OrderLine, 'quantity' | 'fulfilledQuantity' | 'restockedQuantity'>): number {
  return milli(line.quantity) - milli(line.fulfilledQuantity) - milli(line.restockedQuantity);
}

/**
 * The order's state machine after placement (issue 17), shared by the admin endpoints, the payment pages and the
 * payment-expiry job. Every change runs in one transaction that first locks the order row, then (for stock) the
 * variant rows sorted by id, then the discount code row: the same order placement takes (checkout, variants, code),
 * so concurrent placements, cancels, refunds and payment confirmations serialize per order and never deadlock.
 * The payment provider is called last, after every check, so only a failed commit can separate the provider's
 * action from the order's state (and a provider `failed` answer rolls the whole change back).
 */
@Injectable()
export class OrderLifecycleService {
  private readonly logger = new Logger('OrderLifecycle');

  constructor(
    private readonly dataSource: DataSource,
    private readonly stock: StockService,
    private readonly providers: PaymentProviders,
    private readonly events: DomainEvents,
    private readonly balances: BalancePayments,
  ) {}

  /** Loads the order and holds its row lock until the transaction ends. */
  lock(tx: RequestContext, id: string): Promise<Order> {
    return getOrThrow(tx, this.dataSource, Order, id, 'order', { lock: 'pessimistic_write' });
  }

  lines(ctx: RequestContext, orderId: string): Promise<OrderLine[]> {
    return repoOf(ctx, this.dataSource, OrderLine).find({ where: { orderId, tenantId: ctx.tenantId }, order: { position: 'ASC' } });
  }

  /** Runs `work` in a transaction (its stock changes reach the catalogue index as deltas at commit). */
  run<R>(ctx: RequestContext, work: (tx: RequestContext) => Promise<R>): Promise<R> {
    return inTransaction(ctx, this.dataSource, work);
  }

  /** POST /admin/orders/{id}/cancel. */
  cancel(ctx: RequestContext, id: string, input: CancelInput): Promise<Order> {
    return this.run(ctx, async (tx) => {
      const order = await this.lock(tx, id);
      return this.cancelLocked(tx, order, input);
    });
  }

  /**
   * Cancels a locked order: 409 when already cancelled or fully fulfilled; stock of every unfulfilled line back to
   * where it was taken from (`restock`), the single-use code released, what was paid refunded (`refund`) or the
   * unpaid authorization voided, then `order.cancelled`.
   */
  async cancelLocked(tx: RequestContext, order: Order, input: CancelInput): Promise<Order> {
    if (order.cancelledAt) throw AppError.conflict('the order is already cancelled');
    if (order.fulfillmentStatus === 'fulfilled') throw AppError.conflict('a fully fulfilled order cannot be cancelled');
    const p = order.currencyPrecision;
    const lines = await this.lines(tx, order.id);
    let restocked = 0;
    if (input.restock) {
      for (const line of [...lines].sort((a, b) => (a.variantId ?? '').localeCompare(b.variantId ?? ''))) {
        const open = unshippedMilli(line);
        if (open > 0) restocked += await this.restock(tx, order, line, open);
      }
    }
    const released = await this.releaseCode(tx, order);
    const remaining = toMinor(order.paidAmount, p) - toMinor(order.refundedAmount, p);
    let refund: OrderRefund | null = null;
    // nothing captured by the provider: its authorization is voided (what gift cards paid is returned below)
    if (toMinor(order.paidAmount, p) === toMinor(order.balancePaid, p) && order.paymentProvider !== 'balance') await this.voidPayment(tx, order);
    if (input.refund && remaining > 0) refund = await this.refundMoney(tx, order, { amount: remaining, shipping: 0, lines: [], note: input.note });
    const [row] = await returning<{ cancelled_at: Date }>(
      managerOf(tx, this.dataSource),
      `UPDATE orders SET status = 'Cancelled', cancelled_at = now(), cancel_reason = $3, payment_expires_at = NULL,
         payment_status = CASE WHEN payment_status = 'pending' THEN 'cancelled' ELSE payment_status END, updated_at = now()
       WHERE id = $1 AND tenant_id = $2 RETURNING cancelled_at`,
      [order.id, tx.tenantId, input.reason],
    );
    const after = await this.lock(tx, order.id);
    await this.events.emit(tx, 'order.cancelled', {
      order: {
        id: order.id,
        number: String(order.number),
        reason: input.reason,
        note: input.note,
        cancelled_at: new Date(row.cancelled_at).toISOString(),
        financial_status: after.financialStatus,
        refunded_amount: Number(after.refundedAmount),
        currency: order.currencyCode,
        restocked_quantity: restocked / 1000,
        discount_code_released: released,
      },
      refund: refund ? { id: refund.id, amount: Number(refund.amount) } : null,
    });
    return after;
  }

  /**
   * Returns up to `quantityMilli` of a line to the locations its order took it from (less what earlier restocks
   * returned), through the stock ledger (`StockService.recordMovement`: catalogue availability and events follow).
   * Returns the quantity returned (milli-units); an untracked variant returns nothing.
   */
  async restock(tx: RequestContext, order: Order, line: OrderLine, quantityMilli: number): Promise<number> {
    if (!line.variantId) return 0;
    const cap = milli(line.quantity) - milli(line.restockedQuantity);
    let left = Math.min(quantityMilli, cap);
    if (left <= 0) return 0;
    const taken = `order ${order.id}`;
    const back = `restock order ${order.id}`;
    // taken movements are negative, earlier restocks positive: -sum is what is still out
    const rows = await openMovementsByLocation(managerOf(tx, this.dataSource), tx.tenantId, line.variantId, [taken, back]);
    let returned = 0;
    for (const r of rows) {
      const give = Math.min(left, milli(r.open));
      if (give <= 0) continue;
      await this.stock.recordMovement(tx, line.variantId, r.location_id, give / 1000, back);
      left -= give;
      returned += give;
      if (left <= 0) break;
    }
    if (returned > 0) {
      await managerOf(tx, this.dataSource).query(
        `UPDATE order_lines SET restocked_quantity = restocked_quantity + $3, updated_at = now() WHERE id = $1 AND tenant_id = $2`,
        [line.id, tx.tenantId, (returned / 1000).toFixed(3)],
      );
      line.restockedQuantity = ((milli(line.restockedQuantity) + returned) / 1000).toFixed(3);
    }
    return returned;
  }

  /** A single-use code this order redeemed becomes usable again. True when one was released. */
  private async releaseCode(tx: RequestContext, order: Order): Promise<boolean> {
    if (!order.discountCode) return false;
    return releaseDiscountCode(managerOf(tx, this.dataSource), tx.tenantId, order.discountCode);
  }

  /**
   * Refunds through the order's payment provider and records the refund, its transaction, the order's refunded
   * amount and financial status, and `order.refunded`. The caller has checked the amount against what is left.
   */
  async refundMoney(tx: RequestContext, order: Order, r: RefundRecord): Promise<OrderRefund> {
    const p = order.currencyPrecision;
    const m = managerOf(tx, this.dataSource);
    // the provider's money first, then what gift cards and store credit paid goes back to them
    const m4 = (x: string) => toMinor(x, p);
    const providerLeft = m4(order.paidAmount) - m4(order.balancePaid) - (m4(order.refundedAmount) - m4(order.balanceRefunded));
    const credit = r.storeCreditCustomerId ?? null;
    const toProvider = credit ? 0 : Math.min(r.amount, Math.max(0, providerLeft));
    const toBalances = credit ? 0 : r.amount - toProvider;
    let result: PaymentOperationResult = { status: 'succeeded', reference: null };
    let providerName = credit ? 'store_credit' : 'balance';
    if (toProvider > 0) {
      const provider = this.provider(order);
      providerName = provider.name;
      result = await provider.refund(tx, this.operation(order, toProvider));
    }
    if (result.status !== 'succeeded')
      throw AppError.unprocessable(`the payment provider declined the refund${result.message ? `: ${result.message}` : ''}`, 'payment_provider_declined');
    if (toBalances > 0 && (await this.balances.returnToAccounts(tx, order.id, toBalances, p, r.note)) !== toBalances)
      throw new Error(`order ${order.id}: the gift cards and store credit cannot take back ${toBalances}`);
    if (credit) await this.balances.issueStoreCredit(tx, credit, order.currencyCode, p, r.amount, order.id, r.note);
    const dec = (minor: number) => minorToDecimalString(minor, p);
    const refund = await m
      .getRepository(OrderRefund)
      .save(
        m
          .getRepository(OrderRefund)
          .create({ tenantId: tx.tenantId, orderId: order.id, amount: dec(r.amount), shipping: dec(r.shipping), lines: r.lines, note: r.note }),
      );
    for (const [amount, name, reference] of [
      [credit ? r.amount : toProvider, providerName, result.reference],
      [toBalances, 'balance', null],
    ] as const) {
      if (amount <= 0) continue;
      await m.query(
        `INSERT INTO order_transactions (tenant_id, order_id, kind, amount, status, provider, reference, refund_id) VALUES ($1, $2, 'refund', $3, 'succeeded', $4, $5, $6)`,
        [tx.tenantId, order.id, dec(amount), name, reference, refund.id],
      );
    }
    const [row] = await returning<{ financial_status: FinancialStatus; refunded_amount: string; balance_refunded: string }>(
      m,
      `UPDATE orders SET refunded_amount = refunded_amount + $3, refunded_shipping = refunded_shipping + $4, balance_refunded = balance_refunded + $5,
         financial_status = CASE WHEN refunded_amount + $3 >= paid_amount THEN 'refunded' ELSE 'partially_refunded' END, updated_at = now()
       WHERE id = $1 AND tenant_id = $2 RETURNING financial_status, refunded_amount, balance_refunded`,
      [order.id, tx.tenantId, dec(r.amount), dec(r.shipping), dec(toBalances)],
    );
    order.refundedAmount = row.refunded_amount;
    order.balanceRefunded = row.balance_refunded;
    order.financialStatus = row.financial_status;
    await this.events.emit(tx, 'order.refunded', {
      order: {
        id: order.id,
        number: String(order.number),
        financial_status: row.financial_status,
        refunded_amount: Number(row.refunded_amount),
        currency: order.currencyCode,
      },
      refund: {
        id: refund.id,
        created_at: refund.createdAt.toISOString(),
        amount: fromMinor(r.amount, p),
        shipping: fromMinor(r.shipping, p),
        lines: r.lines,
        note: r.note,
      },
    });
    return refund;
  }

  /**
   * Drops an unpaid order's authorization through its provider (financial status `voided`). When the provider that
   * took the authorization is no longer registered (configuration changed since), no money moved: the void is
   * recorded without a provider call (reference null) so the order can still be cancelled or expire.
   */
  async voidPayment(tx: RequestContext, order: Order): Promise<void> {
    if (order.financialStatus === 'voided') return;
    const provider = this.findProvider(order);
    let reference: string | null = null;
    const p = order.currencyPrecision;
    const unpaid = toMinor(order.total, p) - toMinor(order.paidAmount, p);
    if (provider) {
      const result = await provider.void(tx, this.operation(order, unpaid));
      if (result.status !== 'succeeded')
        throw AppError.unprocessable(`the payment provider declined the void${result.message ? `: ${result.message}` : ''}`, 'payment_provider_declined');
      reference = result.reference;
    } else {
      this.logger.warn(
        `order ${order.id}: payment provider "${order.paymentProvider}" is not registered; its pending authorization is voided without a provider call`,
      );
    }
    const m = managerOf(tx, this.dataSource);
    await m.query(
      `INSERT INTO order_transactions (tenant_id, order_id, kind, amount, status, provider, reference) VALUES ($1, $2, 'void', $3, 'succeeded', $4, $5)`,
      [tx.tenantId, order.id, minorToDecimalString(unpaid, p), provider?.name ?? order.paymentProvider, reference],
    );
    await m.query(
      `UPDATE order_transactions SET status = 'failed', updated_at = now() WHERE tenant_id = $1 AND order_id = $2 AND kind = 'authorization' AND status = 'pending'`,
      [tx.tenantId, order.id],
    );
    // a partly paid order keeps what it was paid; only an unpaid one is `voided`
    const [row] = await returning<{ financial_status: FinancialStatus }>(
      m,
      `UPDATE orders SET financial_status = CASE WHEN paid_amount = 0 THEN 'voided' ELSE financial_status END, payment_expires_at = NULL, updated_at = now()
       WHERE id = $1 AND tenant_id = $2 RETURNING financial_status`,
      [order.id, tx.tenantId],
    );
    order.financialStatus = row.financial_status;
  }

  /**
   * A confirmed payment on a locked order: what is still unpaid captured through the provider unless the order was
   * cancelled or is no longer pending (then nothing changes and false is returned: the expiry job or staff got there
   * first).
   */
  async capture(tx: RequestContext, order: Order): Promise<boolean> {
    if (order.cancelledAt || order.financialStatus !== 'pending') return false;
    const p = order.currencyPrecision;
    const due = toMinor(order.total, p) - toMinor(order.paidAmount, p);
    return (await this.receive(tx, order, { amount: due, kind: 'capture', reference: null, note: null, recordedBy: null })).succeeded;
  }

  /**
   * Money received on a locked order (the caller checked it against what is unpaid): a `capture` goes through the
   * order's provider (a failed answer is recorded and changes nothing else), a `manual` payment is only recorded.
   * The order's paid amount grows; `financial_status` becomes `paid` once the total is paid, else `partially_paid`;
   * the pending authorization succeeds with the last part; `order.paid` names the payment.
   */
  async receive(tx: RequestContext, order: Order, r: PaymentRecord): Promise<{ succeeded: boolean; transactionId: string }> {
    const p = order.currencyPrecision;
    const m = managerOf(tx, this.dataSource);
    let provider: string | null = 'manual';
    let result: PaymentOperationResult = { status: 'succeeded', reference: r.reference };
    if (r.kind === 'capture') {
      const psp = this.provider(order);
      provider = psp.name;
      result = await psp.capture(tx, this.operation(order, r.amount));
    }
    const amount = minorToDecimalString(r.amount, p);
    const [txRow] = await returning<{ id: string }>(
      m,
      `INSERT INTO order_transactions (tenant_id, order_id, kind, amount, status, provider, reference, recorded_by, note)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [tx.tenantId, order.id, r.kind, amount, result.status, provider, r.reference ?? result.reference, r.recordedBy, r.note],
    );
    if (result.status !== 'succeeded') return { succeeded: false, transactionId: txRow.id };
    const [row] = await returning<{ financial_status: FinancialStatus; paid_amount: string }>(
      m,
      `UPDATE orders SET paid_amount = paid_amount + $3,
         financial_status = CASE WHEN paid_amount + $3 >= total THEN 'paid' ELSE 'partially_paid' END,
         payment_status = CASE WHEN paid_amount + $3 >= total THEN 'paid' ELSE payment_status END,
         paid_at = CASE WHEN paid_amount + $3 >= total THEN now() ELSE paid_at END,
         payment_expires_at = NULL, updated_at = now()
       WHERE id = $1 AND tenant_id = $2 RETURNING financial_status, paid_amount`,
      [order.id, tx.tenantId, amount],
    );
    if (row.financial_status === 'paid') {
      await m.query(
        `UPDATE order_transactions SET status = 'succeeded', updated_at = now() WHERE tenant_id = $1 AND order_id = $2 AND kind = 'authorization' AND status = 'pending'`,
        [tx.tenantId, order.id],
      );
    }
    order.paidAmount = row.paid_amount;
    order.financialStatus = row.financial_status;
    await this.events.emit(tx, 'order.paid', {
      order: {
        id: order.id,
        number: String(order.number),
        total: Number(order.total),
        currency: order.currencyCode,
        financial_status: row.financial_status,
        paid_amount: Number(row.paid_amount),
      },
      payment: { id: txRow.id, kind: r.kind, amount: fromMinor(r.amount, p), reference: r.reference ?? result.reference },
    });
    return { succeeded: true, transactionId: txRow.id };
  }

  private findProvider(order: Order): PaymentProvider | null {
    return this.providers.named(order.paymentProvider) ?? (order.paymentKind ? this.providers.forKind(order.paymentKind) : null);
  }

  private provider(order: Order): PaymentProvider {
    const provider = this.findProvider(order);
    if (!provider) throw AppError.unprocessable(`the order's payment provider "${order.paymentProvider}" is not available`, 'payment_provider_unavailable');
    return provider;
  }

  private operation(order: Order, amount: number): PaymentOperation {
    return { orderId: order.id, reference: order.paymentReference, amount, currency: order.currencyCode, precision: order.currencyPrecision };
  }
}
