import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { randomUUID } from 'node:crypto';
import { PaymentProvider } from '../../extensions/index.js';
import type { PaymentInitiation, PaymentOperation, PaymentOperationResult, PaymentRequest } from '../../extensions/index.js';
import { Extensions } from '../../extensions/index.js';
import type { RequestContext } from '../../common/context/request-context.js';

export { PaymentProvider };
export type { PaymentInitiation, PaymentOperation, PaymentOperationResult, PaymentRequest } from '../../extensions/index.js';

/** Kinds that never need a return_url (SPEC: required for every payment method except prepayment and invoice). */
export const OFFLINE_KINDS = ['prepayment', 'invoice'] as const;

/** Prepayment and invoice: nothing to redirect to; the order waits for the money (payment_status `pending`). */
@Injectable()
export class OfflinePaymentProvider extends PaymentProvider {
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
export class TestPaymentProvider extends PaymentProvider {
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

/**
 * The payment providers of the app: every `PaymentProvider` instance any module provides (extension point, see
 * src/extensions/extension-points.ts), the last registered winning for a kind. Built in (checkout module): offline
 * (prepayment, invoice) and, only with `PAYMENT_TEST_PROVIDER=on`, the test provider for `redirect`.
 */
@Injectable()
export class PaymentProviders {
  constructor(private readonly extensions: Extensions) {}

  /** The provider an order was placed with (its stored `payment_provider`). */
  named(name: string | null): PaymentProvider | null {
    return name ? (this.extensions.all(PaymentProvider).findLast((p) => p.name === name) ?? null) : null;
  }

  forKind(kind: string): PaymentProvider | null {
    const k = kind.toLowerCase();
    return this.extensions.all(PaymentProvider).findLast((p) => p.kinds.some((x) => x.toLowerCase() === k)) ?? null;
  }
}

/** The built-in providers for the checkout module's `providers`. */
export const BUILT_IN_PAYMENT_PROVIDERS = [
  OfflinePaymentProvider,
  { provide: TestPaymentProvider, inject: [AppConfig], useFactory: (config: AppConfig) => (config.PAYMENT_TEST_PROVIDER ? new TestPaymentProvider() : null) },
];
