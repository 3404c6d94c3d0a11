import type { EntityManager } from 'typeorm';
import { AppError } from '../common/http/app-error.js';
import type { TaxReportRowDto } from './dto/tax-report.dto.js';
import { taxReportSums } from './checkout.repository.js';

/**
 * The OSS-style tax report (issue 31): taxable amount, tax and excise by destination country, currency and rate,
 * over the orders placed between `from` and `to` (inclusive days, UTC) that were paid (financial status `paid`,
 * `partially_refunded` or `refunded`), less what was refunded. Per order, the rates come from the tax lines it was
 * charged (as stored, never recomputed); the taxable amount of a rate is the net base: its lines (and the shipping
 * when taxed at that rate) less the order discount spread pro rata over the lines, less the tax when prices included
 * it; excise comes from the order lines. A refund of lines takes back the VAT and excise recorded on each refunded
 * line (at that line's rate), a refund of shipping the VAT in it (at the shipping rate); what refunds returned beyond
 * lines and shipping (a bare amount, a cancellation) takes back tax and excise pro rata of what was left. Amounts are rounded to the currency's minor unit once, at
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
  const rows = await taxReportSums(m, tenantId, period);
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
