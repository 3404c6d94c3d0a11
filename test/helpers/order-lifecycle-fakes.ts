import { Test } from '@nestjs/testing';
import type { DeepPartial } from 'typeorm';
import { StockService } from '../../src/catalogue/index.js';
import { RequestContext } from '../../src/common/context/request-context.js';
import { AppError } from '../../src/common/http/app-error.js';
import { DomainEvents } from '../../src/events/index.js';
import { BalancePayments } from '../../src/gift-cards/index.js';
import { FinancialStatus, Order, OrderFulfillment, OrderLine, OrderRefund } from '../../src/checkout/entities/checkout.entities.js';
import { OrderFulfillmentsService } from '../../src/checkout/order-fulfillments.service.js';
import { OrderLifecycleService } from '../../src/checkout/order-lifecycle.service.js';
import { OrderRefundsService } from '../../src/checkout/order-refunds.service.js';
import { PaymentProvider, PaymentProviders, type PaymentOperation, type PaymentOperationResult } from '../../src/checkout/payments/payment-provider.js';
import { OrderLifecycleRepository } from '../../src/checkout/repositories/order-lifecycle.repository.js';

/**
 * Fakes for the unit specs of the order's life after placement (src/checkout/order-lifecycle.service.spec.ts,
 * order-refunds.service.spec.ts): one order in memory behind `OrderLifecycleRepository`, a recording payment
 * provider, stock, balances and events, wired by a Nest testing module (`setupOrder`).
 */

export const TENANT = '00000000-0000-0000-0000-000000000001';
export const ORDER = '00000000-0000-0000-0000-0000000000a1';
export const VARIANT_A = '00000000-0000-0000-0000-0000000000b1';
export const VARIANT_B = '00000000-0000-0000-0000-0000000000b2';
export const ctx = RequestContext.forTenant(TENANT);

const add = (a: string, b: string, scale: number) => ((Math.round(Number(a) * 10 ** scale) + Math.round(Number(b) * 10 ** scale)) / 10 ** scale).toFixed(scale);

/** One order in memory; the statements' effects as the repository's contract describes them. */
export class FakeOrders {
  order: Order;
  rows: OrderLine[];
  /** What is still out per variant and location (what the order took from stock). */
  out = new Map<string, Array<{ location_id: string; open: string }>>();
  transactions: Array<{ kind: string; amount: string; status: string; provider: string | null }> = [];
  refunds: OrderRefund[] = [];
  released: string[] = [];

  constructor(order: Partial<Order>, lines: Array<Partial<OrderLine>>) {
    this.order = Object.assign(new Order(), {
      id: ORDER,
      tenantId: TENANT,
      number: '1001',
      currencyCode: 'CHF',
      currencyPrecision: 2,
      priceIncludesTax: true,
      subtotal: '100.00',
      discount: '0',
      promotionDiscount: '0',
      shippingAmount: '0',
      shippingTaxRate: '8.1',
      refundedShipping: '0',
      total: '100.00',
      paidAmount: '100.00',
      refundedAmount: '0',
      balancePaid: '0',
      balanceRefunded: '0',
      financialStatus: 'paid' as FinancialStatus,
      fulfillmentStatus: 'unfulfilled',
      paymentProvider: 'psp',
      paymentKind: 'redirect',
      paymentReference: 'ref',
      cancelledAt: null,
      discountCode: null,
      taxZone: null,
      ...order,
    });
    this.rows = lines.map((l, i) =>
      Object.assign(new OrderLine(), {
        id: `line-${i}`,
        tenantId: TENANT,
        orderId: ORDER,
        position: i,
        variantId: VARIANT_A,
        quantity: '1.000',
        fulfilledQuantity: '0.000',
        refundedQuantity: '0.000',
        restockedQuantity: '0.000',
        lineTotal: '50.00',
        lineTotalWithTax: '50.00',
        taxRate: '0',
        promotionDiscount: '0',
        exciseAmount: '0',
        exciseTax: '0',
        taxZone: null,
        ...l,
      }),
    );
  }

  transaction<R>(c: RequestContext, work: (tx: RequestContext) => Promise<R>): Promise<R> {
    return work(c);
  }
  lockOrder(_tx: RequestContext, id: string): Promise<Order> {
    return id === this.order.id ? Promise.resolve(Object.assign(new Order(), this.order)) : Promise.reject(AppError.notFound('order'));
  }
  lines(_ctx: RequestContext, _orderId: string): Promise<OrderLine[]> {
    return Promise.resolve(this.rows.map((l) => Object.assign(new OrderLine(), l)));
  }
  openMovements(_tx: RequestContext, variantId: string): Promise<Array<{ location_id: string; open: string }>> {
    return Promise.resolve(this.out.get(variantId) ?? []);
  }
  releaseDiscountCode(_tx: RequestContext, code: string): Promise<boolean> {
    this.released.push(code);
    return Promise.resolve(true);
  }
  markCancelled(_tx: RequestContext, _orderId: string, reason: string | null): Promise<{ cancelled_at: Date }> {
    const at = new Date('2026-01-02T03:04:05Z');
    Object.assign(this.order, { status: 'Cancelled', cancelledAt: at, cancelReason: reason });
    return Promise.resolve({ cancelled_at: at });
  }
  private line(id: string): OrderLine {
    const line = this.rows.find((l) => l.id === id);
    if (!line) throw new Error(`no line ${id}`);
    return line;
  }
  addRestocked(_tx: RequestContext, lineId: string, quantity: string): Promise<void> {
    const l = this.line(lineId);
    l.restockedQuantity = add(l.restockedQuantity, quantity, 3);
    return Promise.resolve();
  }
  addRefunded(_tx: RequestContext, lineId: string, quantity: string): Promise<void> {
    const l = this.line(lineId);
    l.refundedQuantity = add(l.refundedQuantity, quantity, 3);
    return Promise.resolve();
  }
  addFulfilled(_tx: RequestContext, lineId: string, quantity: string): Promise<void> {
    const l = this.line(lineId);
    l.fulfilledQuantity = add(l.fulfilledQuantity, quantity, 3);
    return Promise.resolve();
  }
  insertRefund(_tx: RequestContext, fields: DeepPartial<OrderRefund>): Promise<OrderRefund> {
    const refund = Object.assign(new OrderRefund(), fields, { id: `refund-${this.refunds.length + 1}`, createdAt: new Date('2026-01-02T00:00:00Z') });
    this.refunds.push(refund);
    return Promise.resolve(refund);
  }
  insertFulfillment(_tx: RequestContext, fields: DeepPartial<OrderFulfillment>): Promise<OrderFulfillment> {
    return Promise.resolve(Object.assign(new OrderFulfillment(), fields, { id: 'f1', createdAt: new Date() }));
  }
  addRefund(_tx: RequestContext, _orderId: string, r: { amount: string; shipping: string; balances: string }) {
    const o = this.order;
    o.refundedAmount = add(o.refundedAmount, r.amount, 2);
    o.refundedShipping = add(o.refundedShipping, r.shipping, 2);
    o.balanceRefunded = add(o.balanceRefunded, r.balances, 2);
    o.financialStatus = Number(o.refundedAmount) >= Number(o.paidAmount) ? 'refunded' : 'partially_refunded';
    return Promise.resolve({ financial_status: o.financialStatus, refunded_amount: o.refundedAmount, balance_refunded: o.balanceRefunded });
  }
  insertRefundTransaction(_tx: RequestContext, _orderId: string, t: { amount: string; provider: string }): Promise<void> {
    this.transactions.push({ kind: 'refund', amount: t.amount, status: 'succeeded', provider: t.provider });
    return Promise.resolve();
  }
  insertVoidTransaction(_tx: RequestContext, _orderId: string, t: { amount: string; provider: string | null }): Promise<void> {
    this.transactions.push({ kind: 'void', amount: t.amount, status: 'succeeded', provider: t.provider });
    return Promise.resolve();
  }
  insertPaymentTransaction(
    _tx: RequestContext,
    _orderId: string,
    t: { kind: string; amount: string; status: string; provider: string | null },
  ): Promise<string> {
    this.transactions.push({ kind: t.kind, amount: t.amount, status: t.status, provider: t.provider });
    return Promise.resolve(`tx-${this.transactions.length}`);
  }
  settlePendingAuthorization(): Promise<void> {
    return Promise.resolve();
  }
  markVoided(): Promise<FinancialStatus> {
    if (Number(this.order.paidAmount) === 0) this.order.financialStatus = 'voided';
    this.order.paymentExpiresAt = null;
    return Promise.resolve(this.order.financialStatus);
  }
  addPayment(_tx: RequestContext, _orderId: string, amount: string) {
    const o = this.order;
    o.paidAmount = add(o.paidAmount, amount, 2);
    o.financialStatus = Number(o.paidAmount) >= Number(o.total) ? 'paid' : 'partially_paid';
    return Promise.resolve({ financial_status: o.financialStatus, paid_amount: o.paidAmount });
  }
  markShipment(): Promise<void> {
    return Promise.resolve();
  }
  markFulfilled(): Promise<void> {
    this.order.fulfillmentStatus = 'fulfilled';
    return Promise.resolve();
  }
  setTrackingUrl(): Promise<void> {
    return Promise.resolve();
  }
}

/** A provider that records its calls and answers `answer`. */
export class FakeProvider extends PaymentProvider {
  readonly name = 'psp';
  readonly kinds = ['redirect'];
  readonly redirects = true;
  calls: Array<{ op: string; amount: number }> = [];
  answer: PaymentOperationResult = { status: 'succeeded', reference: 'r' };
  initiate() {
    return Promise.resolve({ paymentUrl: null, reference: null });
  }
  private call(op: string, o: PaymentOperation) {
    this.calls.push({ op, amount: o.amount });
    return Promise.resolve(this.answer);
  }
  capture(_ctx: RequestContext, o: PaymentOperation) {
    return this.call('capture', o);
  }
  refund(_ctx: RequestContext, o: PaymentOperation) {
    return this.call('refund', o);
  }
  void(_ctx: RequestContext, o: PaymentOperation) {
    return this.call('void', o);
  }
}

class FakeStock {
  movements: Array<{ variantId: string; locationId: string; delta: number; reason: string }> = [];
  recordMovement(_ctx: RequestContext, variantId: string, locationId: string, delta: number, reason: string): Promise<number> {
    this.movements.push({ variantId, locationId, delta, reason });
    return Promise.resolve(0);
  }
}

class FakeBalances {
  returned: number[] = [];
  credited: Array<{ customerId: string; amount: number }> = [];
  returnToAccounts(_tx: RequestContext, _orderId: string, amount: number): Promise<number> {
    this.returned.push(amount);
    return Promise.resolve(amount);
  }
  issueStoreCredit(_tx: RequestContext, customerId: string, _currency: string, _precision: number, amount: number): Promise<void> {
    this.credited.push({ customerId, amount });
    return Promise.resolve();
  }
}

class FakeEvents {
  emitted: Array<{ topic: string; payload: unknown }> = [];
  emit(_ctx: RequestContext, topic: string, payload: unknown): Promise<void> {
    this.emitted.push({ topic, payload });
    return Promise.resolve();
  }
  topics() {
    return this.emitted.map((e) => e.topic);
  }
}

export async function setupOrder(order: Partial<Order> = {}, lines: Array<Partial<OrderLine>> = [{}, { variantId: VARIANT_B }], registered = true) {
  const repo = new FakeOrders(order, lines);
  const provider = new FakeProvider();
  const stock = new FakeStock();
  const balances = new FakeBalances();
  const events = new FakeEvents();
  const providers = { named: (n: string | null) => (registered && n === 'psp' ? provider : null), forKind: () => null };
  const module = await Test.createTestingModule({
    providers: [
      OrderLifecycleService,
      OrderRefundsService,
      OrderFulfillmentsService,
      { provide: OrderLifecycleRepository, useValue: repo },
      { provide: StockService, useValue: stock },
      { provide: PaymentProviders, useValue: providers },
      { provide: DomainEvents, useValue: events },
      { provide: BalancePayments, useValue: balances },
    ],
  }).compile();
  return {
    lifecycle: module.get(OrderLifecycleService),
    refunds: module.get(OrderRefundsService),
    repo,
    provider,
    stock,
    balances,
    events,
  };
}

export async function failure(p: Promise<unknown>): Promise<{ status: number; message: string; code?: string }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, message: err.message, code: err.code };
    throw err;
  }
  throw new Error('expected a failure');
}
