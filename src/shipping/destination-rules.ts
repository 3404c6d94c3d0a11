import { ShippingInputError } from './rate-table.js';

/**
 * Destination rules (README "Shipping"): per zone of the shop, whether alcohol may be shipped there at all, the most
 * litres of alcoholic products per order and per buyer per calendar year, and the buyer's minimum age. A checkout
 * breaking one is refused at completion with 422 naming the rule, and shows it beforehand in
 * `compliance.destination`. Pure: the caller measures the order and the buyer's year.
 */
export const DESTINATION_RULE_CODES = ['destination_closed', 'volume_limit_exceeded', 'age_requirement'] as const;
export type DestinationRuleCode = (typeof DESTINATION_RULE_CODES)[number];

export interface DestinationRuleRow {
  id: string;
  /** The zone's key. */
  zone: string;
  alcohol_shipping: boolean;
  /** Litres (decimal strings), null: no limit. */
  max_litres_per_order: string | null;
  max_litres_per_year: string | null;
  min_age: number | null;
}

export interface DestinationReason {
  code: DestinationRuleCode;
  zone: string;
  message: string;
}

export interface DestinationVerdict {
  /** False when a reason other than the age requirement applies (that one is met by confirming the age). */
  allowed: boolean;
  reasons: DestinationReason[];
  /** The zone's minimum age for alcohol, when it sets one. */
  minAge: number | null;
}

export interface OrderMeasure {
  /** Whether any line is an alcoholic product. */
  alcoholic: boolean;
  /** Litres of the alcoholic lines. */
  litres: number;
  /** Litres of alcoholic products the buyer already ordered this calendar year (null: unknown buyer, counted as 0). */
  litresThisYear: number | null;
}

const fmt = (x: number) => String(Math.round(x * 1000) / 1000);

/** The verdict of a zone's rule on an order; no rule, or nothing alcoholic: allowed with no reason. */
export function judgeDestination(rule: DestinationRuleRow | null, order: OrderMeasure): DestinationVerdict {
  if (!rule || !order.alcoholic) return { allowed: true, reasons: [], minAge: null };
  const reasons: DestinationReason[] = [];
  const zone = rule.zone;
  if (!rule.alcohol_shipping) reasons.push({ code: 'destination_closed', zone, message: `alcohol cannot be shipped to this destination (zone ${zone})` });
  const perOrder = rule.max_litres_per_order === null ? null : Number(rule.max_litres_per_order);
  if (perOrder !== null && order.litres > perOrder + 1e-9)
    reasons.push({ code: 'volume_limit_exceeded', zone, message: `${fmt(order.litres)} l exceeds the limit of ${fmt(perOrder)} l per order (zone ${zone})` });
  const perYear = rule.max_litres_per_year === null ? null : Number(rule.max_litres_per_year);
  const year = (order.litresThisYear ?? 0) + order.litres;
  if (perYear !== null && year > perYear + 1e-9)
    reasons.push({
      code: 'volume_limit_exceeded',
      zone,
      message: `${fmt(year)} l this calendar year exceeds the limit of ${fmt(perYear)} l per buyer (zone ${zone})`,
    });
  const minAge = rule.min_age !== null && rule.min_age > 0 ? rule.min_age : null;
  if (minAge !== null) reasons.push({ code: 'age_requirement', zone, message: `the buyer must be at least ${minAge} (zone ${zone})` });
  return { allowed: !reasons.some((r) => r.code !== 'age_requirement'), reasons, minAge };
}

/**
 * Litres of one unit from a variant's size as written (`75cl`, `75 cl`, `1.5 l`, `750 ml`, `1,5 L`), in any of its
 * languages; 0 when it names no volume.
 */
export function litresOfSize(size: Record<string, string> | string | null | undefined): number {
  if (!size) return 0;
  const texts = typeof size === 'string' ? [size] : Object.values(size);
  for (const t of texts) {
    const m = /(\d+(?:[.,]\d+)?)\s*(ml|cl|dl|l)\b/i.exec(t);
    if (!m) continue;
    const n = Number(m[1].replace(',', '.'));
    const unit = m[2].toLowerCase();
    return unit === 'ml' ? n / 1000 : unit === 'cl' ? n / 100 : unit === 'dl' ? n / 10 : n;
  }
  return 0;
}

/** A destination rule as written (admin body or import member), checked. */
export interface DestinationRuleInput {
  zone: string;
  alcohol_shipping: boolean;
  max_litres_per_order: number | null;
  max_litres_per_year: number | null;
  min_age: number | null;
}

const RULE_MEMBERS = ['zone', 'alcohol_shipping', 'max_litres_per_order', 'max_litres_per_year', 'min_age'];

function litres(v: unknown, path: string): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1e6) throw new ShippingInputError(path, 'must be a number of litres from 0 to 1000000');
  return v;
}

/**
 * Checks a written rule; `base` is the stored rule a PUT changes (only the members given change), absent on create.
 * `path` prefixes member names (`destination_rules[0]`, or '' for an admin body).
 */
export function parseDestinationRule(raw: unknown, path: string, base?: DestinationRuleInput): DestinationRuleInput {
  const at = (m: string) => (path ? `${path}.${m}` : m);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ShippingInputError(path || 'body', 'must be an object');
  const r = raw as Record<string, unknown>;
  for (const k of Object.keys(r)) if (!RULE_MEMBERS.includes(k)) throw new ShippingInputError(at(k), 'is not a destination rule member');
  const has = (k: string) => r[k] !== undefined;
  let zone = base?.zone;
  if (has('zone') || !base) {
    if (typeof r.zone !== 'string' || !r.zone.trim() || r.zone.length > 255) throw new ShippingInputError(at('zone'), 'must be the key of a zone of the shop');
    zone = r.zone;
  }
  let alcohol = base?.alcohol_shipping ?? true;
  if (has('alcohol_shipping') && r.alcohol_shipping !== null) {
    if (typeof r.alcohol_shipping !== 'boolean') throw new ShippingInputError(at('alcohol_shipping'), 'must be a boolean');
    alcohol = r.alcohol_shipping;
  }
  let minAge = base?.min_age ?? null;
  if (has('min_age')) {
    if (r.min_age !== null && (typeof r.min_age !== 'number' || !Number.isInteger(r.min_age) || r.min_age < 0 || r.min_age > 150))
      throw new ShippingInputError(at('min_age'), 'must be an integer from 0 to 150');
    minAge = r.min_age as number | null;
  }
  return {
    zone: zone as string,
    alcohol_shipping: alcohol,
    max_litres_per_order: has('max_litres_per_order') ? litres(r.max_litres_per_order, at('max_litres_per_order')) : (base?.max_litres_per_order ?? null),
    max_litres_per_year: has('max_litres_per_year') ? litres(r.max_litres_per_year, at('max_litres_per_year')) : (base?.max_litres_per_year ?? null),
    min_age: minAge,
  };
}
