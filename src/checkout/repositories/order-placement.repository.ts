import type { EntityManager } from 'typeorm';

/**
 * The statements of order placement (`OrderPlacementService.complete`), each in the placement's transaction through
 * its `EntityManager`. Money is decimal text in the order's currency; JSON members are already serialised.
 */

/** The checkout becomes `Completed`, naming its order (checkouts.order_id has no foreign key: written before the order). */
export async function completeCheckout(
  m: EntityManager,
  tenantId: string,
  c: { checkoutId: string; orderId: string; paymentTypeId: string | null; comments: string | null },
): Promise<void> {
  await m.query(
    `UPDATE checkouts SET status = 'Completed', order_id = $3, completed_at = now(), payment_type_id = $4, comments = $5, updated_at = now() WHERE id = $1 AND tenant_id = $2`,
    [c.checkoutId, tenantId, c.orderId, c.paymentTypeId, c.comments],
  );
}

/** A new order's row, in the order of the insert's parameters. */
export interface OrderInsert {
  id: string;
  tenantId: string;
  checkoutId: string;
  customerId: string | null;
  number: string;
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

/** Inserts the order (status `Open`; paid, partially paid or pending by what balances paid). */
export async function insertOrder(m: EntityManager, o: OrderInsert): Promise<void> {
  await m.query(
    `INSERT INTO orders (id, tenant_id, checkout_id, customer_id, number, hash, status, payment_status, payment_type_id, payment_type_name, payment_kind,
       payment_provider, payment_reference, return_url, currency_code, currency_precision, price_includes_tax, subtotal, discount, discount_code, coupon_text,
       shipping_amount, shipping_tax_rate, shipping_method_name, tax_amount, tax_lines, total, email, comments, language, shipping_address, billing_address, payment_expires_at,
       balance_paid, paid_amount, financial_status, paid_at, promotions, promotion_discount, tax_zone, gross_price_policy, shipping_method_id, shipping_zone, shipping_rate)
     VALUES ($1, $2, $3, $4, $5, $6, 'Open', CASE WHEN $33::boolean THEN 'paid' ELSE 'pending' END, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24::jsonb, $25, $26, $27, $28, $29::jsonb, $30::jsonb,
       now() + $31::float8 * interval '1 second', $32, $32,
       CASE WHEN $33::boolean THEN 'paid' WHEN $32::numeric > 0 THEN 'partially_paid' ELSE 'pending' END, CASE WHEN $33::boolean THEN now() END, $34::jsonb, $35, $36, $37, $38, $39, $40::jsonb)`,
    [
      o.id,
      o.tenantId,
      o.checkoutId,
      o.customerId,
      o.number,
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
    ],
  );
}

/** A succeeded capture by a gift card or store credit (`kind`) at placement. */
export async function insertBalanceCapture(
  m: EntityManager,
  tenantId: string,
  t: { orderId: string; amount: string; kind: string; reference: string | null },
): Promise<void> {
  await m.query(
    `INSERT INTO order_transactions (tenant_id, order_id, kind, amount, status, provider, reference) VALUES ($1, $2, 'capture', $3, 'succeeded', $4, $5)`,
    [tenantId, t.orderId, t.amount, t.kind, t.reference],
  );
}

/** The provider's pending authorization of what is due. */
export async function insertAuthorization(
  m: EntityManager,
  tenantId: string,
  t: { orderId: string; amount: string; provider: string; reference: string | null },
): Promise<void> {
  await m.query(
    `INSERT INTO order_transactions (tenant_id, order_id, kind, amount, status, provider, reference) VALUES ($1, $2, 'authorization', $3, 'pending', $4, $5)`,
    [tenantId, t.orderId, t.amount, t.provider, t.reference],
  );
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
}

/** The order's lines in one statement (`unnest`), positions from 0. */
export async function insertOrderLines(m: EntityManager, tenantId: string, orderId: string, lines: OrderLineInsert[]): Promise<void> {
  await m.query(
    `INSERT INTO order_lines (tenant_id, order_id, position, variant_id, product_id, title, sku, description, image_url, quantity, tax_rate, unit_price, unit_price_with_tax, line_total, line_total_with_tax,
       promotions, promotion_discount)
     SELECT $1, $2, l.position, l.variant_id, l.product_id, l.title, l.sku, l.description, l.image_url, l.quantity, l.tax_rate, l.unit_price, l.unit_price_with_tax, l.line_total, l.line_total_with_tax,
       l.promotions, l.promotion_discount
     FROM unnest($3::int[], $4::uuid[], $5::uuid[], $6::text[], $7::text[], $8::text[], $9::text[], $10::numeric[], $11::numeric[], $12::numeric[], $13::numeric[], $14::numeric[], $15::numeric[],
       $16::jsonb[], $17::numeric[])
       AS l(position, variant_id, product_id, title, sku, description, image_url, quantity, tax_rate, unit_price, unit_price_with_tax, line_total, line_total_with_tax, promotions, promotion_discount)`,
    [
      tenantId,
      orderId,
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
    ],
  );
}
