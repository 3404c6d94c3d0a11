import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../common/context/request-context.js';

/** What a provider gets when an order is placed (inside the placing transaction, before the order is numbered). */
export interface PaymentRequest {
  orderId: string;
  hash: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  precision: number;
  paymentType: { id: string; key: string; kind: string };
  /** Where the buyer returns; null for offline kinds. */
  returnUrl: string | null;
  /** Scheme and host the request came in on (for URLs back into this service). */
  baseUrl: string;
}

export interface PaymentInitiation {
  /** Where to send the buyer (null: no redirect). */
  paymentUrl: string | null;
  /** The provider's reference (session id, ...), stored on the order. */
  reference: string | null;
}

/** A capture, refund or void of an order's payment (issue 17). */
export interface PaymentOperation {
  orderId: string;
  /** The provider's reference from `initiate()` (or of the capture being refunded). */
  reference: string | null;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  precision: number;
}

export interface PaymentOperationResult {
  /** `failed` leaves the order unchanged: the caller answers 422 `payment_provider_declined`. */
  status: 'succeeded' | 'failed';
  /** The provider's reference of this operation, stored on the order's transaction. */
  reference: string | null;
  /** Why it failed, for the error message. */
  message?: string;
}

/**
 * One interface for every payment provider. A provider serves payment types by `kind` (the import's
 * `payment_types[].kind`); a module adds one with `PaymentProviders.register(provider)` in its onModuleInit.
 * A provider reports the outcome later by calling `OrdersService.recordPayment(ctx, orderId, 'paid' | 'cancelled')`
 * (the built-in test provider does so from its test page).
 */
export interface PaymentProvider {
  /** Stable name, stored on the order. */
  readonly name: string;
  /** Payment type kinds it serves. */
  readonly kinds: readonly string[];
  /** True when the buyer must be redirected (return_url then required). */
  readonly redirects: boolean;
  initiate(ctx: RequestContext, request: PaymentRequest): Promise<PaymentInitiation>;
  /** Takes the authorized money when the payment is confirmed (`OrdersService.recordPayment(..., 'paid')`). */
  capture(ctx: RequestContext, op: PaymentOperation): Promise<PaymentOperationResult>;
  /** Returns captured money (a refund or a cancellation of a paid order). */
  refund(ctx: RequestContext, op: PaymentOperation): Promise<PaymentOperationResult>;
  /** Drops an authorization that was never captured (a cancelled or expired unpaid order). */
  void(ctx: RequestContext, op: PaymentOperation): Promise<PaymentOperationResult>;
}

/** Kinds that never need a return_url (SPEC: required for every payment method except prepayment and invoice). */
export const OFFLINE_KINDS = ['prepayment', 'invoice'] as const;

@Injectable()
export class PaymentProviders {
  private readonly byKind = new Map<string, PaymentProvider>();
  private readonly byName = new Map<string, PaymentProvider>();

  /**
   * The built-in providers; a module replaces one by registering another for the same kind. The test provider (which
   * lets a buyer mark an order paid) exists only with `PAYMENT_TEST_PROVIDER=on`.
   */
  constructor(config: AppConfig) {
    this.register(new OfflinePaymentProvider());
    if (config.PAYMENT_TEST_PROVIDER) this.register(new TestPaymentProvider());
  }

  /** Adds (or replaces) the provider of its kinds. */
  register(provider: PaymentProvider): void {
    for (const kind of provider.kinds) this.byKind.set(kind.toLowerCase(), provider);
    this.byName.set(provider.name, provider);
  }

  /** The provider an order was placed with (its stored `payment_provider`). */
  named(name: string | null): PaymentProvider | null {
    return name ? (this.byName.get(name) ?? null) : null;
  }

  forKind(kind: string): PaymentProvider | null {
    return this.byKind.get(kind.toLowerCase()) ?? null;
  }
}

/** Prepayment and invoice: nothing to redirect to; the order waits for the money (payment_status `pending`). */
export class OfflinePaymentProvider implements PaymentProvider {
  readonly name = 'offline';
  readonly kinds = OFFLINE_KINDS;
  readonly redirects = false;
  async initiate(): Promise<PaymentInitiation> {
    return { paymentUrl: null, reference: null };
  }
  /** The money arrives outside the service (bank transfer): recording it is all there is to do. */
  async capture(): Promise<PaymentOperationResult> {
    return { status: 'succeeded', reference: null };
  }
  /** Staff pay the money back themselves; the refund is recorded. */
  async refund(): Promise<PaymentOperationResult> {
    return { status: 'succeeded', reference: null };
  }
  async void(): Promise<PaymentOperationResult> {
    return { status: 'succeeded', reference: null };
  }
}

/**
 * The built-in test provider for `redirect` payment types: its payment page lives in this service
 * (`GET /storefront/payments/test/{order_id}?hash=`), with pay and cancel forms whose POST records the outcome and sends
 * the buyer to the checkout's return_url with order_id and hash. Registered only with `PAYMENT_TEST_PROVIDER=on`;
 * replace it by registering a real provider for `redirect`.
 */
export class TestPaymentProvider implements PaymentProvider {
  readonly name = 'test';
  readonly kinds = ['redirect'];
  readonly redirects = true;
  async initiate(_ctx: RequestContext, r: PaymentRequest): Promise<PaymentInitiation> {
    return { paymentUrl: `${r.baseUrl}/storefront/payments/test/${r.orderId}?hash=${encodeURIComponent(r.hash)}`, reference: `test_${r.orderId}` };
  }
  async capture(_ctx: RequestContext, op: PaymentOperation): Promise<PaymentOperationResult> {
    return { status: 'succeeded', reference: `test_capture_${op.orderId}` };
  }
  async refund(): Promise<PaymentOperationResult> {
    return { status: 'succeeded', reference: `test_refund_${randomUUID()}` };
  }
  async void(_ctx: RequestContext, op: PaymentOperation): Promise<PaymentOperationResult> {
    return { status: 'succeeded', reference: `test_void_${op.orderId}` };
  }
}
