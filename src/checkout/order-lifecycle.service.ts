import { Injectable, Logger } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context.js';
import { AppError } from '../common/http/app-error.js';
import { fromMinor, minorToDecimalString, toMinor } from '../pricing/index.js';
import { StockService } from '../catalogue/index.js';
import { DomainEvents } from '../events/index.js';
import { BalancePayments } from '../gift-cards/index.js';
import type { Order, OrderLine, OrderRefund, RefundLineData } from './entities/checkout.entities.js';
import { PaymentOperation, PaymentOperationResult, PaymentProvider, PaymentProviders } from './payments/payment-provider.js';
import { OrderLifecycleRepository } from './repositories/order-lifecycle.repository.js';

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
    private readonly orders: OrderLifecycleRepository,
    private readonly stock: StockService,
    private readonly providers: PaymentProviders,
    private readonly events: DomainEvents,
    private readonly balances: BalancePayments,
  ) {}

  /** Loads the order and holds its row lock until the transaction ends. */
  lock(tx: RequestContext, id: string): Promise<Order> {
    return this.orders.lockOrder(tx, id);
  }

  lines(ctx: RequestContext, orderId: string): Promise<OrderLine[]> {
    return this.orders.lines(ctx, orderId);
  }

  /** Runs `work` in a transaction (its stock changes reach the catalogue index as deltas at commit). */
  run<R>(ctx: RequestContext, work: (tx: RequestContext) => Promise<R>): Promise<R> {
    return this.orders.transaction(ctx, work);
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
    const row = await this.orders.markCancelled(tx, order.id, input.reason);
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
    const rows = await this.orders.openMovements(tx, line.variantId, [taken, back]);
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
      await this.orders.addRestocked(tx, line.id, (returned / 1000).toFixed(3));
      line.restockedQuantity = ((milli(line.restockedQuantity) + returned) / 1000).toFixed(3);
    }
    return returned;
  }

  /** A single-use code this order redeemed becomes usable again. True when one was released. */
  private async releaseCode(tx: RequestContext, order: Order): Promise<boolean> {
    if (!order.discountCode) return false;
    return this.orders.releaseDiscountCode(tx, order.discountCode);
  }

  /**
   * Refunds through the order's payment provider and records the refund, its transaction, the order's refunded
   * amount and financial status, and `order.refunded`. The caller has checked the amount against what is left.
   */
  async refundMoney(tx: RequestContext, order: Order, r: RefundRecord): Promise<OrderRefund> {
    const p = order.currencyPrecision;
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
    const refund = await this.orders.insertRefund(tx, {
      tenantId: tx.tenantId,
      orderId: order.id,
      amount: dec(r.amount),
      shipping: dec(r.shipping),
      lines: r.lines,
      note: r.note,
    });
    for (const [amount, name, reference] of [
      [credit ? r.amount : toProvider, providerName, result.reference],
      [toBalances, 'balance', null],
    ] as const) {
      if (amount <= 0) continue;
      await this.orders.insertRefundTransaction(tx, order.id, { amount: dec(amount), provider: name, reference, refundId: refund.id });
    }
    const row = await this.orders.addRefund(tx, order.id, { amount: dec(r.amount), shipping: dec(r.shipping), balances: dec(toBalances) });
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
    await this.orders.insertVoidTransaction(tx, order.id, {
      amount: minorToDecimalString(unpaid, p),
      provider: provider?.name ?? order.paymentProvider,
      reference,
    });
    await this.orders.settlePendingAuthorization(tx, order.id, 'failed');
    // a partly paid order keeps what it was paid; only an unpaid one is `voided`
    order.financialStatus = await this.orders.markVoided(tx, order.id);
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
    let provider: string | null = 'manual';
    let result: PaymentOperationResult = { status: 'succeeded', reference: r.reference };
    if (r.kind === 'capture') {
      const psp = this.provider(order);
      provider = psp.name;
      result = await psp.capture(tx, this.operation(order, r.amount));
    }
    const amount = minorToDecimalString(r.amount, p);
    const txId = await this.orders.insertPaymentTransaction(tx, order.id, {
      kind: r.kind,
      amount,
      status: result.status,
      provider,
      reference: r.reference ?? result.reference,
      recordedBy: r.recordedBy,
      note: r.note,
    });
    if (result.status !== 'succeeded') return { succeeded: false, transactionId: txId };
    const row = await this.orders.addPayment(tx, order.id, amount);
    if (row.financial_status === 'paid') await this.orders.settlePendingAuthorization(tx, order.id, 'succeeded');
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
      payment: { id: txId, kind: r.kind, amount: fromMinor(r.amount, p), reference: r.reference ?? result.reference },
    });
    return { succeeded: true, transactionId: txId };
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
