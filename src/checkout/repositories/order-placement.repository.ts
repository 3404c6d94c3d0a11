import type { EntityManager } from 'typeorm';
import { emptyCartCtes } from '../../cart/index.js';
import type { SellableVariantRow } from '../../catalogue/index.js';
import { appliedAccountsJsonSql, type AppliedAccountJson } from '../../gift-cards/index.js';
import { checkoutOf, OWN_LINES_SQL, SOLD_SQL, type CheckoutSqlRow, type OwnLineRow } from '../checkout.repository.js';
import type { Checkout } from '../entities/checkout.entities.js';
import { prepared } from '../../database/prepared-statements.js';

/**
 * The statements of order placement (`OrderPlacementService.complete`), each in the placement's transaction through
 * its `EntityManager`. Money is decimal text in the order's currency; JSON members are already serialised.
 */

const APPLIED_SQL = appliedAccountsJsonSql('c.tenant_id', 'c.id');

/**
 * The checkout locked for the caller's transaction (FOR UPDATE: a second placement waits, then reads the row as the
 * first left it) with, in the same statement (issue 34), from its snapshot: its lines (written once, with it), their
 * catalogue rows still sold, and the accounts applied (applying one locks no checkout; their balances are re-read
 * under their own locks).
 */
export async function lockCheckoutWithLines(
  m: EntityManager,
  tenantId: string,
  id: string,
): Promise<{ checkout: Checkout; lines: OwnLineRow[]; sold: SellableVariantRow[]; applied: AppliedAccountJson[] } | null> {
  const [row]: Array<CheckoutSqlRow & { own_lines: OwnLineRow[]; sold: SellableVariantRow[]; applied: AppliedAccountJson[] }> = await m.query(
    prepared(`SELECT c.*, ${OWN_LINES_SQL}, ${SOLD_SQL}, ${APPLIED_SQL} AS applied FROM checkouts c WHERE c.tenant_id = $1 AND c.id = $2 FOR UPDATE OF c`),
    [tenantId, id],
  );
  return row ? { checkout: checkoutOf(row), lines: row.own_lines, sold: row.sold, applied: row.applied } : null;
}

/** A new order's row, in the order of the insert's parameters. */
export interface OrderInsert {
  id: string;
  tenantId: string;
  checkoutId: string;
  customerId: string | null;
  hash: string;
  paymentTypeId: string | null;
  paymentTypeName: string | null;
  paymentKind: string | null;
  paymentProvider: string;
  paymentReference: string | null;
  returnUrl: string | null;
  currencyCode: string;
  currencyPrecision: number;
  priceIncludesTax: boolean;
  subtotal: string;
  discount: string;
  discountCode: string | null;
  couponText: string | null;
  shippingAmount: string;
  shippingTaxRate: number | string;
  shippingMethodName: string | null;
  taxAmount: string;
  /** JSON text. */
  taxLines: string;
  total: string;
  email: string | null;
  comments: string | null;
  language: string;
  /** JSON text (`null` for none). */
  shippingAddress: string;
  billingAddress: string;
  /** Seconds until an unconfirmed redirect payment expires; null: never. */
  paymentTtlSeconds: number | null;
  /** What gift cards and store credit paid (also the paid amount so far). */
  balancePaid: string;
  /** Nothing is left to pay: the order is paid now. */
  paid: boolean;
  /** JSON text. */
  promotions: string;
  promotionDiscount: string;
  taxZone: string | null;
  grossPricePolicy: string | null;
  shippingMethodId: string | null;
  shippingZone: string | null;
  /** JSON text or null. */
  shippingRate: string | null;
}

/** A transaction recorded with the order: a balance's succeeded capture or the provider's pending authorization. */
export interface OrderTransactionInsert {
  kind: 'capture' | 'authorization';
  amount: string;
  status: 'succeeded' | 'pending';
  provider: string;
  reference: string | null;
}

/** An order line as placed (position is its index; money decimal text; `promotions` JSON text). */
export interface OrderLineInsert {
  variantId: string;
  productId: string;
  title: string | null;
  sku: string | null;
  description: string | null;
  imageUrl: string | null;
  quantity: string;
  taxRate: string;
  unitPrice: string;
  unitPriceWithTax: string;
  lineTotal: string;
  lineTotalWithTax: string;
  promotions: string;
  promotionDiscount: string;
  /** A shop taxing by destination (issue 31): the line's tax category, zone and excise (decimal); null otherwise. */
  taxCategory: string | null;
  taxZone: string | null;
  excise: string | null;
  exciseTax: string | null;
}

/** What completes the checkout in the placement's statement. */
export interface CheckoutCompletion {
  checkoutId: string;
  paymentTypeId: string | null;
  comments: string | null;
  /** The checkout's owner, whose cart the statement empties (the cart module's `emptyCartCtes`); both null: none. */
  cartCustomerId: string | null;
  cartVisitorId: string | null;
}

/** The outbox's parts written by the placement's statement (`DomainEvents.writeWith`), its parameters after the placement's. */
export interface PlacementOutbox {
  ctes: string;
  parameters: unknown[];
  /** How many rows the outbox's sinks wrote (a SQL expression of the statement). */
  sinkRows: string;
}

/** The placement's own parameters: the outbox's are numbered after them. */
export const PLACED_ORDER_PARAMETERS = 68;
/** The order number in the placement's statement: the events' `fill` paths are set to it. */
export const PLACED_ORDER_NUMBER = '(SELECT last_number::text FROM n)';

/**
 * The placement's writes that need the order number, in ONE statement (issue 34: one round trip under the shop's
 * counter lock instead of five): the per-shop counter incremented (its row stays locked to commit), the order
 * numbered from it, its lines (`unnest`, positions from 0) and transactions, and the checkout marked `Completed`
 * naming the order, the owner's cart emptied (the cart module's CTEs: one round trip less), and the transaction's
 * events with their order number (`outbox`: one round trip less while the counter is locked). The children reference the order inserted by the same statement: PostgreSQL checks foreign keys
 * at the statement's end. Returns the order number and the events written.
 */
export async function insertPlacedOrder(
  m: EntityManager,
  o: OrderInsert,
  lines: OrderLineInsert[],
  transactions: OrderTransactionInsert[],
  checkout: CheckoutCompletion,
  outbox: PlacementOutbox | null,
): Promise<{ result: string; written: Array<{ id: string; occurred_at: string }>; sinkRows: number }> {
  const own: unknown[] = [
    o.id,
    o.tenantId,
    o.checkoutId,
    o.customerId,
    o.hash,
    o.paymentTypeId,
    o.paymentTypeName,
    o.paymentKind,
    o.paymentProvider,
    o.paymentReference,
    o.returnUrl,
    o.currencyCode,
    o.currencyPrecision,
    o.priceIncludesTax,
    o.subtotal,
    o.discount,
    o.discountCode,
    o.couponText,
    o.shippingAmount,
    o.shippingTaxRate,
    o.shippingMethodName,
    o.taxAmount,
    o.taxLines,
    o.total,
    o.email,
    o.comments,
    o.language,
    o.shippingAddress,
    o.billingAddress,
    o.paymentTtlSeconds,
    o.balancePaid,
    o.paid,
    o.promotions,
    o.promotionDiscount,
    o.taxZone,
    o.grossPricePolicy,
    o.shippingMethodId,
    o.shippingZone,
    o.shippingRate,
    lines.map((_, i) => i),
    lines.map((l) => l.variantId),
    lines.map((l) => l.productId),
    lines.map((l) => l.title),
    lines.map((l) => l.sku),
    lines.map((l) => l.description),
    lines.map((l) => l.imageUrl),
    lines.map((l) => l.quantity),
    lines.map((l) => l.taxRate),
    lines.map((l) => l.unitPrice),
    lines.map((l) => l.unitPriceWithTax),
    lines.map((l) => l.lineTotal),
    lines.map((l) => l.lineTotalWithTax),
    lines.map((l) => l.promotions),
    lines.map((l) => l.promotionDiscount),
    lines.map((l) => l.taxCategory),
    lines.map((l) => l.taxZone),
    lines.map((l) => l.excise),
    lines.map((l) => l.exciseTax),
    transactions.map((t) => t.kind),
    transactions.map((t) => t.amount),
    transactions.map((t) => t.status),
    transactions.map((t) => t.provider),
    transactions.map((t) => t.reference),
    checkout.checkoutId,
    checkout.paymentTypeId,
    checkout.comments,
    checkout.cartCustomerId,
    checkout.cartVisitorId,
  ];
  if (own.length !== PLACED_ORDER_PARAMETERS) throw new Error(`the placement has ${own.length} parameters, not ${PLACED_ORDER_PARAMETERS}`);
  const [row]: Array<{ number: string; written: Array<{ id: string; occurred_at: string }>; sink_rows: number }> = await m.query(
    prepared(`WITH n AS (
       INSERT INTO order_counters (tenant_id, last_number) VALUES ($2, 1)
       ON CONFLICT (tenant_id) DO UPDATE SET last_number = order_counters.last_number + 1 RETURNING last_number
     ), o AS (
       INSERT INTO orders (id, tenant_id, checkout_id, customer_id, number, hash, status, payment_status, payment_type_id, payment_type_name, payment_kind,
         payment_provider, payment_reference, return_url, currency_code, currency_precision, price_includes_tax, subtotal, discount, discount_code, coupon_text,
         shipping_amount, shipping_tax_rate, shipping_method_name, tax_amount, tax_lines, total, email, comments, language, shipping_address, billing_address, payment_expires_at,
         balance_paid, paid_amount, financial_status, paid_at, promotions, promotion_discount, tax_zone, gross_price_policy, shipping_method_id, shipping_zone, shipping_rate)
       SELECT $1, $2, $3, $4, n.last_number, $5, 'Open', CASE WHEN $32::boolean THEN 'paid' ELSE 'pending' END, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
         $21, $22, $23::jsonb, $24, $25, $26, $27, $28::jsonb, $29::jsonb,
         now() + $30::float8 * interval '1 second', $31, $31,
         CASE WHEN $32::boolean THEN 'paid' WHEN $31::numeric > 0 THEN 'partially_paid' ELSE 'pending' END, CASE WHEN $32::boolean THEN now() END, $33::jsonb, $34, $35, $36, $37,
         $38, $39::jsonb
       FROM n
     ), ol AS (
       INSERT INTO order_lines (tenant_id, order_id, position, variant_id, product_id, title, sku, description, image_url, quantity, tax_rate, unit_price, unit_price_with_tax,
         line_total, line_total_with_tax, promotions, promotion_discount, tax_category, tax_zone, excise_amount, excise_tax)
       SELECT $2, $1, l.position, l.variant_id, l.product_id, l.title, l.sku, l.description, l.image_url, l.quantity, l.tax_rate, l.unit_price, l.unit_price_with_tax,
         l.line_total, l.line_total_with_tax, l.promotions, l.promotion_discount, l.tax_category, l.tax_zone, coalesce(l.excise, 0), coalesce(l.excise_tax, 0)
       FROM unnest($40::int[], $41::uuid[], $42::uuid[], $43::text[], $44::text[], $45::text[], $46::text[], $47::numeric[], $48::numeric[], $49::numeric[], $50::numeric[],
         $51::numeric[], $52::numeric[], $53::jsonb[], $54::numeric[], $55::text[], $56::text[], $57::numeric[], $58::numeric[])
         AS l(position, variant_id, product_id, title, sku, description, image_url, quantity, tax_rate, unit_price, unit_price_with_tax, line_total, line_total_with_tax,
           promotions, promotion_discount, tax_category, tax_zone, excise, excise_tax)
     ), ot AS (
       INSERT INTO order_transactions (tenant_id, order_id, kind, amount, status, provider, reference)
       SELECT $2, $1, t.kind, t.amount, t.status, t.provider, t.reference
       FROM unnest($59::text[], $60::numeric[], $61::text[], $62::text[], $63::text[]) WITH ORDINALITY AS t(kind, amount, status, provider, reference, i)
       ORDER BY t.i
     ), ck AS (
       UPDATE checkouts SET status = 'Completed', order_id = $1, completed_at = now(), payment_type_id = $65, comments = $66, updated_at = now()
       WHERE id = $64 AND tenant_id = $2
     ), ${emptyCartCtes('$2', '$67', '$68')}${outbox ? `,\n     ${outbox.ctes}` : ''}
     SELECT last_number::text AS number, ${
       outbox ? `(SELECT coalesce(json_agg(json_build_object('id', id, 'occurred_at', occurred_at)), '[]') FROM written)` : `'[]'::json`
     } AS written, ${outbox ? outbox.sinkRows : '0'}::int AS sink_rows FROM n`),
    [...own, ...(outbox?.parameters ?? [])],
  );
  return { result: row.number, written: row.written, sinkRows: Number(row.sink_rows) };
}
