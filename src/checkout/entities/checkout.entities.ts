import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';

/** A stored checkout address (the checkout address shape of SPEC without id and country_name). */
export interface AddressData {
  first_name?: string | null;
  last_name?: string | null;
  company?: string | null;
  department?: string | null;
  vat_number?: string | null;
  street?: string | null;
  house_number?: string | null;
  po_box?: string | null;
  zip_code?: string | null;
  location?: string | null;
  email?: string | null;
  phone_number?: string | null;
  mobile_number?: string | null;
  country_code?: string | null;
  /** ISO 3166-2 subdivision (`ES-CN`), upper case; stored only when given (issue 31: zones by region). */
  region?: string | null;
  /** Kept on an order's addresses (the receipt never changes). */
  country_name?: string | null;
}

export type CheckoutStatus = 'Checkout' | 'Completed';

/** A checkout: its own lines (priced at every read until completion), addresses and choices. `id` is the token. */
@Entity('checkouts')
export class Checkout extends TenantEntity {
  @Column({ type: 'text', nullable: true }) visitorId: string | null;
  @Column({ type: 'uuid', nullable: true }) customerId: string | null;
  @Column({ type: 'uuid' }) currencyId: string;
  @Column({ type: 'text' }) language: string;
  @Column({ type: 'text' }) status: CheckoutStatus;
  @Column({ type: 'text', nullable: true }) email: string | null;
  @Column({ type: 'text', nullable: true }) note: string | null;
  @Column({ type: 'text', nullable: true }) comments: string | null;
  @Column({ type: 'jsonb', nullable: true }) shippingAddress: AddressData | null;
  @Column({ type: 'jsonb', nullable: true }) billingAddress: AddressData | null;
  @Column({ type: 'boolean' }) billingSameAsShipping: boolean;
  @Column({ type: 'uuid', nullable: true }) shippingMethodId: string | null;
  @Column({ type: 'uuid', nullable: true }) paymentTypeId: string | null;
  @Column({ type: 'text', nullable: true }) discountCode: string | null;
  @Column({ type: 'uuid', nullable: true }) orderId: string | null;
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) completedAt: Date | null;
  /** The promotions the buyer's last storefront read showed (sorted ids; null: none recorded): the completion keeps them or refuses (issue 32). */
  @Column({ type: 'uuid', array: true, nullable: true }) shownPromotionIds: string[] | null;
}

@Entity('checkout_lines')
export class CheckoutLine extends TenantEntity {
  @Column({ type: 'uuid' }) checkoutId: string;
  @Column({ type: 'uuid', nullable: true }) variantId: string | null;
  @Column({ type: 'uuid', nullable: true }) productId: string | null;
  @Column({ type: 'numeric', precision: 14, scale: 3 }) quantity: string;
  @Column({ type: 'int' }) position: number;
}

/** A promotion's part of an order line, as charged (decimals of the order's currency, the shop's price basis; issue 32). */
export interface LinePromotionData {
  promotion_id: string;
  name: string;
  amount: number;
}

/** A promotion's whole discount on an order, as charged (issue 32). */
export interface OrderPromotionData {
  promotion_id: string;
  name: string;
  kind: string;
  amount: number;
  lines_amount: number;
  shipping_amount: number;
}

export interface TaxLineData {
  name: string;
  rate: number;
  /** Decimal in the order's currency. */
  amount: number;
}

/** A placed order: every amount as charged, in its own currency; never re-priced. */
@Entity('orders')
export class Order extends TenantEntity {
  @Column({ type: 'uuid', nullable: true }) checkoutId: string | null;
  @Column({ type: 'uuid', nullable: true }) customerId: string | null;
  @Column({ type: 'bigint' }) number: string;
  @Column({ type: 'text' }) hash: string;
  @Column({ type: 'text' }) status: string;
  @Column({ type: 'text' }) paymentStatus: string;
  @Column({ type: 'uuid', nullable: true }) paymentTypeId: string | null;
  @Column({ type: 'text', nullable: true }) paymentTypeName: string | null;
  @Column({ type: 'text', nullable: true }) paymentKind: string | null;
  @Column({ type: 'text', nullable: true }) paymentProvider: string | null;
  @Column({ type: 'text', nullable: true }) paymentReference: string | null;
  @Column({ type: 'text', nullable: true }) returnUrl: string | null;
  @Column({ type: 'text' }) currencyCode: string;
  @Column({ type: 'smallint' }) currencyPrecision: number;
  @Column({ type: 'boolean' }) priceIncludesTax: boolean;
  @Column({ type: 'numeric', precision: 18, scale: 4 }) subtotal: string;
  @Column({ type: 'numeric', precision: 18, scale: 4 }) discount: string;
  @Column({ type: 'text', nullable: true }) discountCode: string | null;
  @Column({ type: 'text', nullable: true }) couponText: string | null;
  @Column({ type: 'numeric', precision: 18, scale: 4 }) shippingAmount: string;
  @Column({ type: 'numeric', precision: 6, scale: 3 }) shippingTaxRate: string;
  @Column({ type: 'text', nullable: true }) shippingMethodName: string | null;
  /** What priced shipping (issue 31): the method, its zone and the rate row (null: not recorded, or nothing shipped). */
  @Column({ type: 'uuid', nullable: true }) shippingMethodId: string | null;
  @Column({ type: 'text', nullable: true }) shippingZone: string | null;
  @Column({ type: 'jsonb', nullable: true }) shippingRate: AppliedRateData | null;
  /** A destination-taxed order's tax zone (name) and gross price policy (null: origin rates / net prices). */
  @Column({ type: 'text', nullable: true }) taxZone: string | null;
  @Column({ type: 'text', nullable: true }) grossPricePolicy: 'constant' | 'recompute' | null;
  @Column({ type: 'numeric', precision: 18, scale: 4 }) taxAmount: string;
  @Column({ type: 'jsonb' }) taxLines: TaxLineData[];
  @Column({ type: 'numeric', precision: 18, scale: 4 }) total: string;
  @Column({ type: 'text', nullable: true }) email: string | null;
  @Column({ type: 'text', nullable: true }) comments: string | null;
  @Column({ type: 'text' }) language: string;
  @Column({ type: 'jsonb', nullable: true }) shippingAddress: AddressData | null;
  @Column({ type: 'jsonb', nullable: true }) billingAddress: AddressData | null;
  @Column({ type: 'text', nullable: true }) trackingUrl: string | null;
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) shippedAt: Date | null;
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) paidAt: Date | null;
  @Column({ type: 'timestamptz', precision: 3 }) placedAt: Date;
  /** `pending`, `partially_paid` (issue 33), `paid`, `partially_refunded`, `refunded`, `voided` (issue 17). */
  @Column({ type: 'text' }) financialStatus: FinancialStatus;
  /** `unfulfilled`, `partial`, `fulfilled`. */
  @Column({ type: 'text' }) fulfillmentStatus: FulfillmentStatus;
  /** Captured so far (decimal in the order's currency). */
  @Column({ type: 'numeric', precision: 18, scale: 4 }) paidAmount: string;
  @Column({ type: 'numeric', precision: 18, scale: 4 }) refundedAmount: string;
  @Column({ type: 'numeric', precision: 18, scale: 4 }) refundedShipping: string;
  /** Of `paidAmount`, what gift cards and store credit paid (issue 33), and of `refundedAmount`, what went back to them. */
  @Column({ type: 'numeric', precision: 18, scale: 4 }) balancePaid: string;
  @Column({ type: 'numeric', precision: 18, scale: 4 }) balanceRefunded: string;
  /** A claim's replacement order names the order it replaces (issue 33). */
  @Column({ type: 'uuid', nullable: true }) replacementFor: string | null;
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) cancelledAt: Date | null;
  @Column({ type: 'text', nullable: true }) cancelReason: string | null;
  /** Staff's internal note. */
  @Column({ type: 'text', nullable: true }) note: string | null;
  @Column({ type: 'text', array: true }) tags: string[];
  /** Deadline of an unconfirmed redirect payment (PAYMENT_PENDING_TTL_MINUTES after placement); null otherwise. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) paymentExpiresAt: Date | null;
  /** The promotions applied (empty: none); their line parts sum to `promotionDiscount`, which is inside `discount`. */
  @Column({ type: 'jsonb' }) promotions: OrderPromotionData[];
  @Column({ type: 'numeric', precision: 18, scale: 4 }) promotionDiscount: string;
}

@Entity('order_lines')
export class OrderLine extends TenantEntity {
  @Column({ type: 'uuid' }) orderId: string;
  @Column({ type: 'int' }) position: number;
  @Column({ type: 'uuid', nullable: true }) variantId: string | null;
  @Column({ type: 'uuid', nullable: true }) productId: string | null;
  @Column({ type: 'text', nullable: true }) title: string | null;
  @Column({ type: 'text', nullable: true }) sku: string | null;
  @Column({ type: 'text', nullable: true }) description: string | null;
  @Column({ type: 'text', nullable: true }) imageUrl: string | null;
  @Column({ type: 'numeric', precision: 14, scale: 3 }) quantity: string;
  @Column({ type: 'numeric', precision: 6, scale: 3 }) taxRate: string;
  @Column({ type: 'numeric', precision: 18, scale: 4 }) unitPrice: string;
  @Column({ type: 'numeric', precision: 18, scale: 4 }) unitPriceWithTax: string;
  @Column({ type: 'numeric', precision: 18, scale: 4 }) lineTotal: string;
  @Column({ type: 'numeric', precision: 18, scale: 4 }) lineTotalWithTax: string;
  /** What a destination-taxed line was charged (issue 31): its tax category key, zone name and excise (decimal). */
  @Column({ type: 'text', nullable: true }) taxCategory: string | null;
  @Column({ type: 'text', nullable: true }) taxZone: string | null;
  @Column({ type: 'numeric', precision: 18, scale: 4 }) exciseAmount: string;
  /** The VAT charged on the excise (a zone with the excise inside its VAT base), decimal; 0 otherwise. */
  @Column({ type: 'numeric', precision: 18, scale: 4 }) exciseTax: string;
  @Column({ type: 'numeric', precision: 14, scale: 3 }) fulfilledQuantity: string;
  @Column({ type: 'numeric', precision: 14, scale: 3 }) refundedQuantity: string;
  @Column({ type: 'numeric', precision: 14, scale: 3 }) restockedQuantity: string;
  /** What promotions took off this line (shop's price basis; inside the order's `discount`), and by which. */
  @Column({ type: 'jsonb' }) promotions: LinePromotionData[];
  @Column({ type: 'numeric', precision: 18, scale: 4 }) promotionDiscount: string;
}

export type FinancialStatus = 'pending' | 'partially_paid' | 'paid' | 'partially_refunded' | 'refunded' | 'voided';
export type FulfillmentStatus = 'unfulfilled' | 'partial' | 'fulfilled';
export const FINANCIAL_STATUSES: FinancialStatus[] = ['pending', 'partially_paid', 'paid', 'partially_refunded', 'refunded', 'voided'];
export const FULFILLMENT_STATUSES: FulfillmentStatus[] = ['unfulfilled', 'partial', 'fulfilled'];
export const ORDER_STATUSES = ['Open', 'Shipped', 'Cancelled'] as const;

export interface RefundLineData {
  line_id: string;
  quantity: number;
  restock: boolean;
  /** Decimal in the order's currency. */
  amount: number;
  /** Of `amount`: the VAT and the excise given back (issue 31: orders taxed by destination only). */
  tax?: number;
  excise?: number;
}

/** The rate row that priced an order's shipping (src/shipping `AppliedRate`). */
export interface AppliedRateData {
  source: 'table' | 'flat' | 'provider';
  basis: 'bottles' | 'grams' | 'value' | null;
  from: number | null;
  to: number | null;
  price: number | null;
  beyond_blocks: number;
  free: boolean;
}

/** A refund: money returned through the payment provider, with the lines it covers. */
@Entity('order_refunds')
export class OrderRefund extends TenantEntity {
  @Column({ type: 'uuid' }) orderId: string;
  @Column({ type: 'numeric', precision: 18, scale: 4 }) amount: string;
  @Column({ type: 'numeric', precision: 18, scale: 4 }) shipping: string;
  @Column({ type: 'jsonb' }) lines: RefundLineData[];
  @Column({ type: 'text', nullable: true }) note: string | null;
}

export interface FulfillmentLineData {
  line_id: string;
  quantity: number;
}

/** A (partial) shipment of an order's lines. */
@Entity('order_fulfillments')
export class OrderFulfillment extends TenantEntity {
  @Column({ type: 'uuid' }) orderId: string;
  @Column({ type: 'jsonb' }) lines: FulfillmentLineData[];
  @Column({ type: 'text', nullable: true }) trackingNumber: string | null;
  @Column({ type: 'text', nullable: true }) trackingUrl: string | null;
  @Column({ type: 'text', nullable: true }) carrier: string | null;
  @Column({ type: 'boolean' }) notifyCustomer: boolean;
}

/** `manual`: money staff received outside any provider (bank transfer, cash), recorded by them (issue 33). */
export type TransactionKind = 'authorization' | 'capture' | 'manual' | 'refund' | 'void';
export type TransactionStatus = 'pending' | 'succeeded' | 'failed';

/** One exchange with the payment provider. */
@Entity('order_transactions')
export class OrderTransaction extends TenantEntity {
  @Column({ type: 'uuid' }) orderId: string;
  @Column({ type: 'text' }) kind: TransactionKind;
  @Column({ type: 'numeric', precision: 18, scale: 4 }) amount: string;
  @Column({ type: 'text' }) status: TransactionStatus;
  @Column({ type: 'text', nullable: true }) provider: string | null;
  @Column({ type: 'text', nullable: true }) reference: string | null;
  @Column({ type: 'uuid', nullable: true }) refundId: string | null;
  /** The staff user who recorded it (payments recorded by staff); null for the service's own. */
  @Column({ type: 'uuid', nullable: true }) recordedBy: string | null;
  @Column({ type: 'text', nullable: true }) note: string | null;
}

export const checkoutEntities = [Checkout, CheckoutLine, Order, OrderLine, OrderRefund, OrderFulfillment, OrderTransaction];
