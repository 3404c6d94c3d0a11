/**
 * Taxes by destination, pure (issue 31): the shop's tax rules and a checkout's destination in, the checkout totals
 * out. It wraps the one totals formula (`computeTotals`, src/pricing/checkout-totals.ts) and only changes what goes
 * in and adds the excise:
 *
 * 1. zone = `matchZone(zones, destination)` (the shipping address; the billing address when nothing ships);
 * 2. each line's rate = the rate of its variant's tax category in that zone valid on the checkout's day
 *    (`valid_from <= day <= valid_to`, open ends allowed); a line without a category or rate keeps its variant's
 *    `tax_rate` (the origin rate);
 * 3. unit prices: net basis (prices exclude tax) and gross basis with `gross_price_policy: recompute` keep the net and
 *    derive gross = net x (100 + r) / 100; gross basis with `constant` keeps the shelf (gross) price and derives
 *    net = gross x 100 / (100 + r). Each unit is rounded once (4 decimals, then the currency's minor unit);
 * 4. shipping is taxed at the zone's rate of the category with key `shipping`, else the highest rate of the lines,
 *    else the method's own `tax_rate`;
 * 5. `computeTotals` prices it all: lines rounded once each, tax per rate (rounded once per rate), coupon spread;
 * 6. excise per line = quantity x volume (hl) x the rate's `excise_per_hl` (x alcohol % for spirits, per hectolitre
 *    of pure alcohol), in the zone's `excise_currency` (the issue: "in the zone's currency"; null: the shop's default
 *    currency), converted to the checkout currency through the shop's rates (checkout rate / zone currency rate) and
 *    rounded once per line. In a zone with `excise_in_vat_base` (the duty is part of the VAT base: EU, CH, NO and
 *    UK law, src/tax/data/eu-vat-2026.ts) the line's VAT rate is charged on its excise too (rounded once per line,
 *    added to that rate's tax line, to `tax_amount` and to the total whatever `excise_display` says: it is VAT). It
 *    is charged on top of the
 *    price (total += excise, outside the VAT base) and shown as the tax line `Excise duty` (rate 0) included in
 *    `tax_amount` when `excise_display` is `included`; with `separate` it stays out of `tax_lines` and `tax_amount`
 *    and shows as `excise_amount` only.
 *
 * Tax lines are named `Tax <rate>% <zone name>` so an order shows them by rate and zone.
 */
import type { CurrencyInfo } from '../common/context/request-context.js';
import { computeTotals, convertMinor, minorToDecimalString, toMinor, type CatalogueLine, type CheckoutTotals, type TotalsInput } from '../pricing/index.js';
import type { ZoneRow } from './tax.repository.js';
import { matchZone, zoneIndexOf, type ZoneAddress } from './zone-matcher.js';

export const EXCISE_CLASSES = ['still', 'sparkling', 'intermediate', 'spirits'] as const;
export type ExciseClass = (typeof EXCISE_CLASSES)[number];
export const TAX_MODES = ['origin', 'destination'] as const;
export type TaxMode = (typeof TAX_MODES)[number];
export const GROSS_PRICE_POLICIES = ['constant', 'recompute'] as const;
export type GrossPricePolicy = (typeof GROSS_PRICE_POLICIES)[number];
export const EXCISE_DISPLAYS = ['included', 'separate'] as const;
export type ExciseDisplay = (typeof EXCISE_DISPLAYS)[number];
export const EXCISE_LINE_NAME = 'Excise duty';
export const SHIPPING_CATEGORY_KEY = 'shipping';

export interface TaxSettings {
  mode: TaxMode;
  gross_price_policy: GrossPricePolicy;
  excise_display: ExciseDisplay;
}

export interface TaxCategoryRow {
  id: string;
  key: string;
  name: string;
  excise_class: ExciseClass | null;
}

export interface TaxRateRow {
  id: string;
  category_id: string;
  zone_id: string;
  /** Decimal strings. */
  rate: string;
  excise_per_hl: string;
  /** `YYYY-MM-DD`, inclusive; null is open. */
  valid_from: string | null;
  valid_to: string | null;
}

/** Everything the engine needs of a shop, loaded once. */
export interface TaxRules {
  settings: TaxSettings;
  zones: ZoneRow[];
  categories: TaxCategoryRow[];
  rates: TaxRateRow[];
}

/** A variant's tax facts: its category, its volume and its alcohol (null when unknown). */
export interface VariantTax {
  categoryId: string | null;
  volumeMl: number | null;
  alcoholVolume: number | null;
}

/** What each line was charged, beside the priced line (stored on the order line). */
export interface LineTax {
  variantId: string;
  rate: number;
  category: string | null;
  zone: string | null;
  /** Minor units of the checkout currency. */
  excise: number;
  /** The VAT charged on `excise` (zones with `excise_in_vat_base`; else 0), minor units. */
  exciseTax: number;
}

export interface TaxedTotals extends CheckoutTotals {
  /** The zone that decided (null: none matched, origin rates). */
  taxZone: { id: string; name: string } | null;
  lineTaxes: LineTax[];
  /** Minor units; in `taxLines`/`taxAmount` only when `excise_display` is `included`. */
  exciseAmount: number;
  /** The VAT on the excise (in its rate's tax line, `taxAmount` and `total`), minor units. */
  exciseTaxAmount: number;
  grossPricePolicy: GrossPricePolicy | null;
}

/** The rate of `categoryId` in `zoneId` valid on `day` (the latest `valid_from` when periods touch), or null. */
export function rateOn(rates: readonly TaxRateRow[], categoryId: string, zoneId: string, day: string): TaxRateRow | null {
  let best: TaxRateRow | null = null;
  for (const r of rates) {
    if (r.category_id !== categoryId || r.zone_id !== zoneId) continue;
    if ((r.valid_from && r.valid_from > day) || (r.valid_to && r.valid_to < day)) continue;
    if (!best || (r.valid_from ?? '') > (best.valid_from ?? '')) best = r;
  }
  return best;
}

/** `value` x num / den as a 4-decimal string, half up (BigInt). */
function scaled(value: string | number, num: bigint, den: bigint): string {
  const v = BigInt(toMinor(value, 4));
  const n = v * num;
  const neg = n < 0n;
  const abs = neg ? -n : n;
  const q = (abs * 2n + den) / (2n * den);
  return minorToDecimalString(Number(neg ? -q : q), 4);
}

const rateMilli = (rate: number) => BigInt(Math.round(rate * 1000));

/** `rate` % of a non-negative amount in minor units, rounded half up once. */
export function vatOn(minor: number, rate: number): number {
  return Number((BigInt(minor) * rateMilli(rate) * 2n + 100_000n) / 200_000n);
}

/** A line re-based on `rate` under the price basis and gross policy (step 3). */
export function repriceLine(line: CatalogueLine, rate: number, pricesIncludeTax: boolean, policy: GrossPricePolicy): CatalogueLine {
  const r = rateMilli(rate);
  if (pricesIncludeTax && policy === 'constant') return { ...line, taxRate: rate, net: scaled(line.gross, 100_000n, 100_000n + r) };
  return { ...line, taxRate: rate, gross: scaled(line.net, 100_000n + r, 100_000n) };
}

/** Excise of one line in minor units of `currency` (step 6). */
export function exciseOf(
  perHl: string,
  exciseClass: ExciseClass | null,
  quantity: string | number,
  v: Pick<VariantTax, 'volumeMl' | 'alcoholVolume'>,
  currency: Pick<CurrencyInfo, 'rate' | 'precision'>,
): number {
  if (!exciseClass || !v.volumeMl) return 0;
  const perHl4 = BigInt(toMinor(perHl, 4));
  if (perHl4 === 0n) return 0;
  const ml10 = BigInt(Math.round(v.volumeMl * 10));
  const qty3 = BigInt(toMinor(quantity, 3));
  // per hectolitre (100,000 ml) of product, or of pure alcohol for spirits
  const abv100 = exciseClass === 'spirits' ? BigInt(Math.round((v.alcoholVolume ?? 0) * 100)) : 10_000n;
  const num = perHl4 * ml10 * qty3 * abv100;
  const den = 10n * 1000n * 10_000n * 100_000n; // perHl4 stays in 4-decimal units (minor of precision 4)
  const q = (num * 2n + den) / (2n * den);
  return convertMinor(Number(q), currency.rate, 4, currency.precision);
}

/**
 * The rate from a zone's excise currency to the checkout's, as a decimal string: checkout rate / zone currency rate
 * (each a multiple of the default currency); the checkout's own rate when the zone has no currency, or one the shop
 * does not list (it then counts as the default currency).
 */
export function exciseRate(
  zoneCurrency: string | null | undefined,
  checkout: Pick<CurrencyInfo, 'code' | 'rate'>,
  currencies: ReadonlyArray<{ code: string; rate: string }>,
): string {
  if (!zoneCurrency) return checkout.rate;
  if (zoneCurrency === checkout.code) return '1';
  const from = currencies.find((c) => c.code === zoneCurrency);
  if (!from || !(Number(from.rate) > 0)) return checkout.rate;
  return (Number(checkout.rate) / Number(from.rate)).toFixed(12).replace(/0+$/, '').replace(/\.$/, '');
}

export interface TaxedTotalsInput extends TotalsInput {
  /** The shop's currencies (code and rate from the default), for a zone whose excise is in another currency. */
  currencies?: ReadonlyArray<{ code: string; rate: string }>;
  /** The day checked against the rates' validity (`YYYY-MM-DD`). */
  day: string;
  destination: ZoneAddress | null;
  /** Per variant id. */
  variants: ReadonlyMap<string, VariantTax>;
  /** Rates given by a `TaxProvider` (by variant id; shipping), in place of the shop's tables; excise stays the shop's. */
  provided?: { lines: ReadonlyMap<string, number>; shipping: number | null };
}

/** The checkout totals under the shop's tax rules (steps 1-6). */
export function computeTaxedTotals(rules: TaxRules, input: TaxedTotalsInput): TaxedTotals {
  const zoneMatch = input.destination ? matchZone(zoneIndexOf(rules.zones), input.destination) : null;
  const zone = zoneMatch?.zone ?? null;
  const categories = new Map(rules.categories.map((c) => [c.id, c]));
  const policy = rules.settings.gross_price_policy;
  const lineTaxes: LineTax[] = [];
  let exciseAmount = 0;
  let exciseTaxAmount = 0;
  const exciseTaxByRate = new Map<number, number>();
  const lines = input.lines.map((line) => {
    const v = input.variants.get(line.variantId);
    const category = v?.categoryId ? (categories.get(v.categoryId) ?? null) : null;
    const rate = zone && category ? rateOn(rules.rates, category.id, zone.id, input.day) : null;
    const provided = input.provided?.lines.get(line.variantId);
    const zoned = provided !== undefined || rate !== null;
    const charged = provided ?? (rate ? Number(rate.rate) : Number(line.taxRate));
    const excise =
      rate && v
        ? exciseOf(rate.excise_per_hl, category?.excise_class ?? null, line.quantity, v, {
            rate: exciseRate(zone?.excise_currency, input.currency, input.currencies ?? []),
            precision: input.currency.precision,
          })
        : 0;
    exciseAmount += excise;
    const exciseTax = excise > 0 && zone?.excise_in_vat_base ? vatOn(excise, charged) : 0;
    exciseTaxAmount += exciseTax;
    if (exciseTax > 0) exciseTaxByRate.set(charged, (exciseTaxByRate.get(charged) ?? 0) + exciseTax);
    lineTaxes.push({ variantId: line.variantId, rate: charged, category: category?.key ?? null, zone: zoned ? (zone?.name ?? null) : null, excise, exciseTax });
    return zoned ? repriceLine(line, charged, input.pricesIncludeTax, policy) : line;
  });

  let shipping = input.shipping;
  if (shipping && input.provided?.shipping != null) shipping = { ...shipping, taxRate: input.provided.shipping };
  else if (shipping && zone) {
    const shippingCategory = rules.categories.find((c) => c.key === SHIPPING_CATEGORY_KEY);
    const own = shippingCategory ? rateOn(rules.rates, shippingCategory.id, zone.id, input.day) : null;
    const zoned = lineTaxes.filter((l) => l.zone !== null);
    const rate = own ? Number(own.rate) : zoned.length ? Math.max(...zoned.map((l) => l.rate)) : null;
    if (rate !== null) shipping = { ...shipping, taxRate: rate };
  }

  const totals = computeTotals({ ...input, lines, shipping });
  const zoneName = zone ? ` ${zone.name}` : '';
  const taxLines = totals.taxLines.map((t) => ({ ...t, name: `${t.name}${zoneName}`, amount: t.amount + (exciseTaxByRate.get(t.rate) ?? 0) }));
  for (const [rate, amount] of exciseTaxByRate)
    if (!totals.taxLines.some((t) => t.rate === rate)) taxLines.push({ name: `Tax ${rate}%${zoneName}`, rate, amount });
  let taxAmount = totals.taxAmount + exciseTaxAmount;
  if (exciseAmount > 0 && rules.settings.excise_display === 'included') {
    taxLines.push({ name: EXCISE_LINE_NAME, rate: 0, amount: exciseAmount });
    taxAmount += exciseAmount;
  }
  return {
    ...totals,
    taxLines,
    taxAmount,
    total: totals.total + exciseAmount + exciseTaxAmount,
    taxZone: zone ? { id: zone.id, name: zone.name } : null,
    lineTaxes,
    exciseAmount,
    exciseTaxAmount,
    grossPricePolicy: input.pricesIncludeTax ? policy : null,
  };
}
