import type { EntityManager } from 'typeorm';
import type { CleanupSweep } from '../common/db/sweep.js';
import type { Page } from '../common/paging/page.js';
import type { Pager, PageRequest } from '../common/paging/pager.service.js';
import { sellableVariantsSql, type SellableVariantRow } from '../catalogue/index.js';
import { OrderHistory } from '../extensions/index.js';
import { AddressData, Checkout, type CheckoutStatus } from './entities/checkout.entities.js';
import { prepared } from '../database/prepared-statements.js';

/**
 * The checkout module owns `checkouts`, `checkout_lines`, `orders`, `order_lines`, `order_refunds`,
 * `order_fulfillments`, `order_transactions`, `order_counters` and `idempotency_keys`: no other module writes them.
 */

/** The checkout's `OrderHistory`: whether order lines name these products or variants (the catalogue's deletes). */
export class OrderLinesHistory extends OrderHistory {
  async anyOrdered(m: EntityManager, tenantId: string, items: { productIds: string[]; variantIds: string[] }): Promise<boolean> {
    const [row]: Array<{ ordered: boolean }> = await m.query(
      `SELECT EXISTS (SELECT 1 FROM order_lines WHERE tenant_id = $1 AND (product_id = ANY($2::uuid[]) OR variant_id = ANY($3::uuid[]))) AS ordered`,
      [tenantId, items.productIds, items.variantIds],
    );
    return row.ordered;
  }

  async customerHasOrdered(m: EntityManager, tenantId: string, customerId: string): Promise<boolean> {
    const [row]: Array<{ ordered: boolean }> = await m.query(`SELECT EXISTS (SELECT 1 FROM orders WHERE tenant_id = $1 AND customer_id = $2) AS ordered`, [
      tenantId,
      customerId,
    ]);
    return row.ordered;
  }
}

/**
 * Quantities per variant the buyer (by email, any case) ordered since the start of this calendar year (UTC),
 * cancelled orders left out: what the destination rules' yearly litres count.
 */
export function orderedThisYearByEmail(m: EntityManager, tenantId: string, email: string): Promise<Array<{ variant_id: string; quantity: string }>> {
  return m.query(
    `SELECT l.variant_id, sum(l.quantity) AS quantity FROM orders o JOIN order_lines l ON l.tenant_id = o.tenant_id AND l.order_id = o.id
     WHERE o.tenant_id = $1 AND lower(o.email) = lower($2) AND o.placed_at >= date_trunc('year', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
       AND o.cancelled_at IS NULL AND l.variant_id IS NOT NULL
     GROUP BY l.variant_id`,
    [tenantId, email],
  );
}

/** Cleanup (maintenance job): idempotency keys past their replay window. */
export const CHECKOUT_SWEEPS: CleanupSweep[] = [
  {
    name: 'idempotency_keys',
    table: 'idempotency_keys',
    key: 'ctid',
    age: (c) => c.CLEANUP_IDEMPOTENCY_KEYS_AFTER_MS,
    select: `SELECT ctid FROM idempotency_keys WHERE created_at < now() - $2::interval`,
  },
];

/** What decided an order's taxes and shipping (issue 31), written with the order's insert (issue 34). */
export interface OrderApplied {
  taxZone: string | null;
  grossPricePolicy: string | null;
  shippingMethodId: string | null;
  shippingZone: string | null;
  shippingRate: object | null;
}

/** The shop's next order number; the counter row stays locked until commit, so callers take it last. */
export async function nextOrderNumber(m: EntityManager, tenantId: string): Promise<string> {
  const [counter]: Array<{ last_number: number | string }> = await m.query(
    `INSERT INTO order_counters (tenant_id, last_number) VALUES ($1, 1)
     ON CONFLICT (tenant_id) DO UPDATE SET last_number = order_counters.last_number + 1 RETURNING last_number`,
    [tenantId],
  );
  return String(counter.last_number);
}

/** A claim's replacement order (issue 33): the original's buyer and addresses, priced at zero, paid, linked to it. */
export async function insertReplacementOrder(
  m: EntityManager,
  tenantId: string,
  o: { originalId: string; orderId: string; number: string; hash: string; note: string },
): Promise<void> {
  await m.query(
    `INSERT INTO orders (id, tenant_id, customer_id, number, hash, status, payment_status, payment_provider, currency_code, currency_precision, price_includes_tax,
       subtotal, total, email, language, shipping_address, billing_address, financial_status, paid_at, note, replacement_for)
     SELECT $3, tenant_id, customer_id, $4, $5, 'Open', 'paid', 'replacement', currency_code, currency_precision, price_includes_tax,
       0, 0, email, language, shipping_address, billing_address, 'paid', now(), $6, id
     FROM orders WHERE tenant_id = $1 AND id = $2`,
    [tenantId, o.originalId, o.orderId, o.number, o.hash, o.note],
  );
}

/** The replacement's lines: copies of the chosen original lines with their quantities, at zero prices. */
export async function insertReplacementLines(
  m: EntityManager,
  tenantId: string,
  o: { originalId: string; orderId: string; lines: Array<{ lineId: string; quantity: string }> },
): Promise<void> {
  await m.query(
    `INSERT INTO order_lines (tenant_id, order_id, position, variant_id, product_id, title, sku, description, image_url, quantity, tax_rate, unit_price, unit_price_with_tax, line_total, line_total_with_tax)
     SELECT l.tenant_id, $3, row_number() OVER (ORDER BY l.position) - 1, l.variant_id, l.product_id, l.title, l.sku, l.description, l.image_url, p.quantity, l.tax_rate, 0, 0, 0, 0
     FROM order_lines l JOIN unnest($4::uuid[], $5::numeric[]) AS p(line_id, quantity) ON p.line_id = l.id
     WHERE l.tenant_id = $1 AND l.order_id = $2`,
    [tenantId, o.originalId, o.orderId, o.lines.map((l) => l.lineId), o.lines.map((l) => l.quantity)],
  );
}

/** One row of the tax report as PostgreSQL sums it (decimals as text, rounded to the currency once per row). */
export interface TaxReportSqlRow {
  country: string;
  currency: string;
  rate: string;
  taxable: string;
  tax: string;
  excise: string;
  orders: number;
}

/**
 * The tax report's sums by destination country, currency and rate (README "Taxes"; the rules in tax-report.ts). A
 * refund of lines takes back each line's recorded VAT and excise at the line's rate, a refund of shipping its VAT at
 * the shipping rate; what a refund returned beyond lines and shipping (an amount, a cancellation) is taken pro rata of
 * what was left.
 */
export function taxReportSums(m: EntityManager, tenantId: string, period: { from: string; to: string }): Promise<TaxReportSqlRow[]> {
  return m.query(
    `WITH o0 AS (
       SELECT id, currency_code, currency_precision, price_includes_tax AS incl, discount, shipping_amount, shipping_tax_rate, tax_lines,
              paid_amount, refunded_amount, refunded_shipping,
              coalesce(shipping_address->>'country_code', billing_address->>'country_code', '??') AS country
         FROM orders
        WHERE tenant_id = $1 AND financial_status IN ('paid', 'partially_refunded', 'refunded')
          AND created_at >= $2::date AND created_at < $3::date + 1),
     rl AS (
       SELECT o0.id, ol.tax_rate AS rate, sum((x->>'amount')::numeric) AS amount,
              -- the net base given back: the amount less its VAT, less its excise unless that was inside the VAT base
              sum((x->>'amount')::numeric - coalesce((x->>'tax')::numeric, (x->>'amount')::numeric * ol.tax_rate / (100 + ol.tax_rate))
                  - CASE WHEN ol.excise_tax > 0 THEN 0 ELSE coalesce((x->>'excise')::numeric, 0) END) AS taxable,
              sum(coalesce((x->>'tax')::numeric, (x->>'amount')::numeric * ol.tax_rate / (100 + ol.tax_rate))) AS tax,
              sum(coalesce((x->>'excise')::numeric, 0)) AS excise
         FROM o0 JOIN order_refunds rf ON rf.tenant_id = $1 AND rf.order_id = o0.id
              CROSS JOIN LATERAL jsonb_array_elements(rf.lines) x
              JOIN order_lines ol ON ol.tenant_id = $1 AND ol.order_id = o0.id AND ol.id = (x->>'line_id')::uuid
        GROUP BY 1, 2),
     rlt AS (SELECT id, sum(amount) AS amount FROM rl GROUP BY id),
     o AS (
       SELECT o0.*, o0.refunded_shipping * o0.shipping_tax_rate / (100 + o0.shipping_tax_rate) AS ship_tax_back,
              CASE WHEN o0.paid_amount - coalesce(rlt.amount, 0) - o0.refunded_shipping > 0
                   THEN 1 - greatest(o0.refunded_amount - coalesce(rlt.amount, 0) - o0.refunded_shipping, 0)
                            / (o0.paid_amount - coalesce(rlt.amount, 0) - o0.refunded_shipping)
                   ELSE 0 END AS kept
         FROM o0 LEFT JOIN rlt ON rlt.id = o0.id),
     l AS (
       SELECT o.id, ol.tax_rate AS rate, sum(CASE WHEN o.incl THEN ol.line_total_with_tax ELSE ol.line_total END) AS amount, sum(ol.excise_amount) AS excise,
              sum(CASE WHEN ol.excise_tax > 0 THEN ol.excise_amount ELSE 0 END) AS excise_base, sum(ol.excise_tax) AS excise_tax
         FROM o JOIN order_lines ol ON ol.tenant_id = $1 AND ol.order_id = o.id GROUP BY o.id, ol.tax_rate),
     lt AS (SELECT id, sum(amount) AS all_lines FROM l GROUP BY id),
     v AS (
       SELECT o.id, (t->>'rate')::numeric AS rate, sum((t->>'amount')::numeric) AS tax
         FROM o, jsonb_array_elements(o.tax_lines) t WHERE t->>'name' <> 'Excise duty' GROUP BY 1, 2),
     r AS (SELECT id, rate FROM l UNION SELECT id, shipping_tax_rate FROM o WHERE shipping_amount > 0),
     parts AS (
       SELECT o.id, o.country, o.currency_code, o.currency_precision, r.rate,
              o.kept * (coalesce(l.amount, 0)
                        - CASE WHEN lt.all_lines > 0 THEN o.discount * coalesce(l.amount, 0) / lt.all_lines ELSE 0 END
                        + CASE WHEN r.rate = o.shipping_tax_rate THEN o.shipping_amount ELSE 0 END
                        - CASE WHEN o.incl THEN coalesce(v.tax, 0) - coalesce(l.excise_tax, 0) ELSE 0 END
                        + coalesce(l.excise_base, 0)
                        - coalesce(rl.taxable, 0)
                        - CASE WHEN r.rate = o.shipping_tax_rate THEN o.refunded_shipping - o.ship_tax_back ELSE 0 END) AS taxable,
              o.kept * (coalesce(v.tax, 0) - coalesce(rl.tax, 0) - CASE WHEN r.rate = o.shipping_tax_rate THEN o.ship_tax_back ELSE 0 END) AS tax,
              o.kept * (coalesce(l.excise, 0) - coalesce(rl.excise, 0)) AS excise
         FROM r JOIN o ON o.id = r.id LEFT JOIN l ON l.id = r.id AND l.rate = r.rate LEFT JOIN v ON v.id = r.id AND v.rate = r.rate
              LEFT JOIN lt ON lt.id = r.id LEFT JOIN rl ON rl.id = r.id AND rl.rate = r.rate)
     SELECT country, currency_code AS currency, rate::text AS rate, round(sum(taxable), max(currency_precision))::text AS taxable,
            round(sum(tax), max(currency_precision))::text AS tax, round(sum(excise), max(currency_precision))::text AS excise, count(DISTINCT id)::int AS orders
       FROM parts GROUP BY country, currency_code, rate ORDER BY country, currency_code, rate`,
    [tenantId, period.from, period.to],
  );
}

/** A `checkouts` row as PostgreSQL returns it. */
export interface CheckoutSqlRow {
  id: string;
  tenant_id: string;
  created_at: Date;
  updated_at: Date | null;
  visitor_id: string | null;
  customer_id: string | null;
  currency_id: string;
  language: string;
  status: CheckoutStatus;
  email: string | null;
  note: string | null;
  comments: string | null;
  shipping_address: AddressData | null;
  billing_address: AddressData | null;
  billing_same_as_shipping: boolean;
  shipping_method_id: string | null;
  payment_type_id: string | null;
  discount_code: string | null;
  order_id: string | null;
  completed_at: Date | null;
  shown_promotion_ids: string[] | null;
}

export function checkoutOf(r: CheckoutSqlRow): Checkout {
  return Object.assign(new Checkout(), {
    id: r.id,
    tenantId: r.tenant_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    visitorId: r.visitor_id,
    customerId: r.customer_id,
    currencyId: r.currency_id,
    language: r.language,
    status: r.status,
    email: r.email,
    note: r.note,
    comments: r.comments,
    shippingAddress: r.shipping_address,
    billingAddress: r.billing_address,
    billingSameAsShipping: r.billing_same_as_shipping,
    shippingMethodId: r.shipping_method_id,
    paymentTypeId: r.payment_type_id,
    discountCode: r.discount_code,
    orderId: r.order_id,
    completedAt: r.completed_at,
    shownPromotionIds: r.shown_promotion_ids,
  });
}

/**
 * A new open checkout and its lines (positions from 0, `unnest`) in ONE statement, returned as written (issue 34: no
 * transaction around two inserts, no read of them after; the lines' foreign key is checked at the statement's end).
 */
export async function insertCheckoutWithLines(
  m: EntityManager,
  v: {
    tenantId: string;
    visitorId: string | null;
    customerId: string | null;
    currencyId: string;
    language: string;
    email: string | null;
    discountCode: string | null;
  },
  lines: Array<{ variantId: string; productId: string; quantity: string }>,
): Promise<{ checkout: Checkout; lines: CheckoutLineWritten[] }> {
  const [row]: Array<CheckoutSqlRow & { lines: CheckoutLineWritten[] }> = await m.query(
    prepared(`WITH c AS (
       INSERT INTO checkouts (tenant_id, visitor_id, customer_id, currency_id, language, status, email, discount_code)
       VALUES ($1, $2, $3, $4, $5, 'Checkout', $6, $7) RETURNING *
     ), l AS (
       INSERT INTO checkout_lines (tenant_id, checkout_id, variant_id, product_id, quantity, position)
       SELECT $1, c.id, l.variant_id, l.product_id, l.quantity, l.position
         FROM c, unnest($8::uuid[], $9::uuid[], $10::numeric[], $11::int[]) AS l(variant_id, product_id, quantity, position)
       RETURNING id, quantity, position
     )
     SELECT c.*, (SELECT coalesce(json_agg(json_build_object('id', l.id, 'quantity', l.quantity::text, 'position', l.position)), '[]'::json) FROM l) AS lines FROM c`),
    [
      v.tenantId,
      v.visitorId,
      v.customerId,
      v.currencyId,
      v.language,
      v.email,
      v.discountCode,
      lines.map((l) => l.variantId),
      lines.map((l) => l.productId),
      lines.map((l) => l.quantity),
      lines.map((_, i) => i),
    ],
  );
  return { checkout: checkoutOf(row), lines: row.lines };
}

/** The checkout's own lines as one JSON array (by position), beside its row: its lines never change once written. */
export const OWN_LINES_SQL = `(SELECT coalesce(json_agg(json_build_object('id', l.id, 'variant_id', l.variant_id, 'quantity', l.quantity::text) ORDER BY l.position, l.id), '[]'::json)
    FROM checkout_lines l WHERE l.tenant_id = c.tenant_id AND l.checkout_id = c.id) AS own_lines`;

/**
 * The catalogue's rows of the variants the storefront still sells among the checkout's own lines, as one JSON array
 * beside its row (issue 34: the pricing's read of them is no statement of its own; the catalogue names the SELECT).
 */
export const SOLD_SQL = `(SELECT coalesce(json_agg(s), '[]'::json) FROM (${sellableVariantsSql(
  'c.tenant_id',
  'ARRAY(SELECT l.variant_id FROM checkout_lines l WHERE l.tenant_id = c.tenant_id AND l.checkout_id = c.id)',
)}) s) AS sold`;

/** A checkout's own line as stored (quantity as decimal text). */
export interface OwnLineRow {
  id: string;
  variant_id: string;
  quantity: string;
}

/**
 * A checkout with its own lines, the catalogue rows of them still sold and the version of its row (`xmin`), in one
 * statement (issue 34), for an update written only over what was read.
 */
export async function checkoutWithVersion(
  m: EntityManager,
  tenantId: string,
  id: string,
): Promise<{ checkout: Checkout; version: string; lines: OwnLineRow[]; sold: SellableVariantRow[] } | null> {
  const [row]: Array<CheckoutSqlRow & { row_version: string; own_lines: OwnLineRow[]; sold: SellableVariantRow[] }> = await m.query(
    prepared(`SELECT c.*, c.xmin::text AS row_version, ${OWN_LINES_SQL}, ${SOLD_SQL} FROM checkouts c WHERE c.tenant_id = $1 AND c.id = $2`),
    [tenantId, id],
  );
  return row ? { checkout: checkoutOf(row), version: row.row_version, lines: row.own_lines, sold: row.sold } : null;
}

/**
 * Writes what the storefront and admin updates change (contact, addresses, choices, note) from `c`, which the caller
 * holds locked, and sets its `updatedAt` from the row (issue 34: no read before or after the write).
 */
export async function saveCheckoutChoices(m: EntityManager, c: Checkout): Promise<Checkout> {
  return (await writeCheckoutChoices(m, c, null))!;
}

/**
 * As `saveCheckoutChoices`, without a lock or transaction: written only while the row is still the `version` read
 * (any write since, a completion included, gives it a new `xmin`); null when it is not (the caller reads again).
 */
export function saveCheckoutChoicesAt(m: EntityManager, c: Checkout, version: string): Promise<Checkout | null> {
  return writeCheckoutChoices(m, c, version);
}

async function writeCheckoutChoices(m: EntityManager, c: Checkout, version: string | null): Promise<Checkout | null> {
  const [rows]: [Array<{ updated_at: Date }>, number] = await m.query(
    prepared(`UPDATE checkouts SET email = $3, note = $4, comments = $5, shipping_address = $6::jsonb, billing_address = $7::jsonb, billing_same_as_shipping = $8,
       shipping_method_id = $9, payment_type_id = $10, updated_at = now()
     WHERE tenant_id = $1 AND id = $2 AND ($11::text IS NULL OR xmin = $11::text::xid) RETURNING updated_at`),
    [
      c.tenantId,
      c.id,
      c.email,
      c.note,
      c.comments,
      c.shippingAddress === null ? null : JSON.stringify(c.shippingAddress),
      c.billingAddress === null ? null : JSON.stringify(c.billingAddress),
      c.billingSameAsShipping,
      c.shippingMethodId,
      c.paymentTypeId,
      version,
    ],
  );
  if (rows.length === 0) return null;
  c.updatedAt = rows[0].updated_at;
  return c;
}

/** Records the promotions the buyer's read of the open checkout showed (sorted ids; issue 32); `updated_at` stays. */
export async function recordShownPromotions(m: EntityManager, tenantId: string, id: string, promotionIds: string[]): Promise<void> {
  await m.query(`UPDATE checkouts SET shown_promotion_ids = $3::uuid[] WHERE tenant_id = $1 AND id = $2 AND status <> 'Completed'`, [
    tenantId,
    id,
    promotionIds,
  ]);
}

/** A checkout line as written: its id, quantity (decimal text) and position. */
export interface CheckoutLineWritten {
  id: string;
  quantity: string;
  position: number;
}

/** The checkout's own lines (variant, quantity as decimal text) by position. */
export function checkoutLinesOf(m: EntityManager, tenantId: string, checkoutId: string): Promise<Array<{ id: string; variant_id: string; quantity: string }>> {
  return m.query(
    `SELECT cl.id, cl.variant_id, cl.quantity FROM checkout_lines cl WHERE cl.tenant_id = $1 AND cl.checkout_id = $2 ORDER BY cl.position, cl.id`,
    [tenantId, checkoutId],
  );
}

/** The admin list of the shop's checkouts: newest first (created_at, id), cursored. */
export function checkoutsPage(m: EntityManager, pager: Pager, tenantId: string, page: PageRequest): Promise<Page<Checkout>> {
  const qb = m.getRepository(Checkout).createQueryBuilder('c').where('c.tenant_id = :tenant', { tenant: tenantId });
  return pager.paginateByCreated(qb, page, 'DESC');
}
