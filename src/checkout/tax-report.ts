import type { EntityManager } from 'typeorm';
import { AppError } from '../common/http/app-error.js';
import type { TaxReportRowDto } from './dto/tax-report.dto.js';

/**
 * The OSS-style tax report (issue 31): taxable amount, tax and excise by destination country, currency and rate,
 * over the orders placed between `from` and `to` (inclusive days, UTC) that were paid (financial status `paid`,
 * `partially_refunded` or `refunded`), less what was refunded. Per order, the rates come from the tax lines it was
 * charged (as stored, never recomputed); the taxable amount of a rate is the net base: its lines (and the shipping
 * when taxed at that rate) less the order discount spread pro rata over the lines, less the tax when prices included
 * it; excise comes from the order lines. A refund takes back tax and excise pro rata of
 * the amount refunded (`refunded_amount / paid_amount`). Amounts are rounded to the currency's minor unit once, at
 * the end of each row.
 */

export type TaxReportRow = TaxReportRowDto;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** `from`/`to` query values: `YYYY-MM-DD`, from <= to, at most 366 days apart; 422 naming the member otherwise. */
export function reportPeriod(from: unknown, to: unknown): { from: string; to: string } {
  for (const [name, v] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (typeof v !== 'string' || !DAY.test(v) || Number.isNaN(Date.parse(v))) throw AppError.unprocessable(`${name} must be a date (YYYY-MM-DD)`);
  }
  const f = from as string;
  const t = to as string;
  if (f > t) throw AppError.unprocessable('to must not be before from');
  if (Date.parse(t) - Date.parse(f) > 366 * 86_400_000) throw AppError.unprocessable('from..to spans at most 366 days');
  return { from: f, to: t };
}

/** The report rows, ordered by country, currency and rate. */
export async function taxReportRows(m: EntityManager, tenantId: string, period: { from: string; to: string }): Promise<TaxReportRow[]> {
  const rows: Array<{ country: string; currency: string; rate: string; taxable: string; tax: string; excise: string; orders: number }> = await m.query(
    `WITH o AS (
       SELECT id, currency_code, currency_precision, price_includes_tax AS incl, discount, shipping_amount, shipping_tax_rate, tax_lines,
              coalesce(shipping_address->>'country_code', billing_address->>'country_code', '??') AS country,
              CASE WHEN paid_amount > 0 THEN 1 - refunded_amount / paid_amount ELSE 0 END AS kept
         FROM orders
        WHERE tenant_id = $1 AND financial_status IN ('paid', 'partially_refunded', 'refunded')
          AND created_at >= $2::date AND created_at < $3::date + 1),
     l AS (
       SELECT o.id, ol.tax_rate AS rate, sum(CASE WHEN o.incl THEN ol.line_total_with_tax ELSE ol.line_total END) AS amount, sum(ol.excise_amount) AS excise
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
                        - CASE WHEN o.incl THEN coalesce(v.tax, 0) ELSE 0 END) AS taxable,
              o.kept * coalesce(v.tax, 0) AS tax,
              o.kept * coalesce(l.excise, 0) AS excise
         FROM r JOIN o ON o.id = r.id LEFT JOIN l ON l.id = r.id AND l.rate = r.rate LEFT JOIN v ON v.id = r.id AND v.rate = r.rate
              LEFT JOIN lt ON lt.id = r.id)
     SELECT country, currency_code AS currency, rate::text AS rate, round(sum(taxable), max(currency_precision))::text AS taxable,
            round(sum(tax), max(currency_precision))::text AS tax, round(sum(excise), max(currency_precision))::text AS excise, count(DISTINCT id)::int AS orders
       FROM parts GROUP BY country, currency_code, rate ORDER BY country, currency_code, rate`,
    [tenantId, period.from, period.to],
  );
  return rows.map((r) => ({
    country: r.country,
    currency: r.currency,
    rate: Number(r.rate),
    taxable_amount: Number(r.taxable),
    tax_amount: Number(r.tax),
    excise_amount: Number(r.excise),
    orders: r.orders,
  }));
}

/** The rows as CSV (RFC 4180, a header line, `\r\n` line ends). */
export function taxReportCsv(rows: TaxReportRow[]): string {
  const header = ['country', 'currency', 'rate', 'taxable_amount', 'tax_amount', 'excise_amount', 'orders'];
  const lines = rows.map((r) => [r.country, r.currency, r.rate, r.taxable_amount, r.tax_amount, r.excise_amount, r.orders].join(','));
  return [header.join(','), ...lines].join('\r\n') + '\r\n';
}
