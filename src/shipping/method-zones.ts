import { normalizePostcode, parsePostcodePattern } from '../tax/index.js';
import { minorRateTable, parseRateTable, rateFor, rateRowFor, ShippingInputError, type ParcelMeasures, type RateTable } from './rate-table.js';

/**
 * A shipping method's zones (README "Shipping"): per zone of the shop (by its key), an optional rate table replacing
 * the method's, `free_over`, `delivery_days` and postcode exclusions (islands, "dry" areas). A method with zones
 * serves an address only through the most specific of its zones that contains it; a method without zones serves
 * as it always did (its `countries`, flat `price` or its own rate table, `free_over`, `delivery_days`).
 */
export interface MethodZone {
  zone: string;
  rate_table: RateTable | null;
  free_over: number | null;
  delivery_days: number | null;
  excluded_postcodes: string[];
}

/** A shipping method as stored (default-currency decimals in the shop's price basis). */
export interface ShippingMethodRow {
  id: string;
  key: string;
  name: Record<string, string>;
  price: string;
  tax_rate: string;
  countries: string[];
  free_over: string | null;
  delivery_days: number | null;
  rate_table: RateTable | null;
  zones: MethodZone[];
  rate_provider: string | null;
}

/** At most this many postcode patterns per zone of a method (bounded work per checkout read). */
export const MAX_POSTCODE_PATTERNS = 10_000;

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Whether any of the stored patterns (normalized by the zone model's `parsePostcodePattern`: exact `20000`, prefix
 * `20*`, range `07000..07999` of same-length digits; case, spaces and dashes do not count) matches the postcode.
 */
export function postcodeExcluded(patterns: readonly string[], postcode: string): boolean {
  const code = normalizePostcode(postcode);
  return patterns.some((p) => {
    const range = p.indexOf('..');
    if (range >= 0) {
      const lo = p.slice(0, range);
      return code.length === lo.length && code >= lo && code <= p.slice(range + 2);
    }
    return p.endsWith('*') ? code.startsWith(p.slice(0, -1)) : code === p;
  });
}

function optNumber(v: unknown, path: string, opts: { integer?: boolean; max: number }): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ShippingInputError(path, 'must be a number');
  if (opts.integer && !Number.isInteger(v)) throw new ShippingInputError(path, 'must be an integer');
  if (v < 0) throw new ShippingInputError(path, 'must be at least 0');
  if (v > opts.max) throw new ShippingInputError(path, `must be at most ${opts.max}`);
  return v;
}

/** Checks a method's `zones` member (admin body or import); throws ShippingInputError naming the first bad member. */
export function parseMethodZones(raw: unknown, path: string): MethodZone[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new ShippingInputError(path, 'must be an array');
  const seen = new Set<string>();
  return raw.map((z: unknown, i) => {
    const p = `${path}[${i}]`;
    if (!isObj(z)) throw new ShippingInputError(p, 'must be an object');
    for (const k of Object.keys(z))
      if (!['zone', 'rate_table', 'free_over', 'delivery_days', 'excluded_postcodes'].includes(k))
        throw new ShippingInputError(`${p}.${k}`, 'is not a zone member');
    if (typeof z.zone !== 'string' || !z.zone.trim() || z.zone.length > 255) throw new ShippingInputError(`${p}.zone`, 'must be the key of a zone of the shop');
    if (seen.has(z.zone)) throw new ShippingInputError(`${p}.zone`, `names the zone "${z.zone}" twice`);
    seen.add(z.zone);
    const excluded = z.excluded_postcodes ?? [];
    if (!Array.isArray(excluded)) throw new ShippingInputError(`${p}.excluded_postcodes`, 'must be an array');
    if (excluded.length > MAX_POSTCODE_PATTERNS) throw new ShippingInputError(`${p}.excluded_postcodes`, `must hold at most ${MAX_POSTCODE_PATTERNS} patterns`);
    const patterns = excluded.map((x: unknown, j) => {
      const parsed = typeof x === 'string' ? parsePostcodePattern(x) : null;
      if (!parsed) throw new ShippingInputError(`${p}.excluded_postcodes[${j}]`, 'must be a postcode, a prefix ending in * or a range A..B of digits');
      return parsed.kind === 'exact' ? parsed.value : parsed.kind === 'prefix' ? `${parsed.value}*` : `${parsed.from}..${parsed.to}`;
    });
    return {
      zone: z.zone,
      rate_table: z.rate_table === undefined || z.rate_table === null ? null : parseRateTable(z.rate_table, `${p}.rate_table`),
      free_over: optNumber(z.free_over, `${p}.free_over`, { max: 1e9 }),
      delivery_days: optNumber(z.delivery_days, `${p}.delivery_days`, { integer: true, max: 365 }),
      excluded_postcodes: patterns,
    };
  });
}

/** Where a checkout ships to, and which of a set of zone keys contains it (the most specific; null: none). */
export interface Destination {
  country: string | null;
  postcode: string | null;
  zoneOf: (zoneKeys: string[]) => string | null;
}

/** What a method asks for a parcel: minor units of the checkout currency. */
export interface Quote {
  price: number;
  /** The method's zone that served the address (null: a method without zones, or no address yet). */
  zone: string | null;
  deliveryDays: number | null;
  /** What priced it (stored on the order): the rate table's row, the flat price, or the carrier's rate provider. */
  rate: AppliedRate;
}

/**
 * The row that priced a shipment, as the order keeps it: `source` `table` (a rate table's step: its basis, bounds and
 * price in the shop's default currency, and the started `beyond` blocks above it), `flat` (the method's price) or
 * `provider`; `free` when `free_over` made it free.
 */
export interface AppliedRate {
  source: 'table' | 'flat' | 'provider';
  basis: RateTable['basis'] | null;
  from: number | null;
  to: number | null;
  price: number | null;
  beyond_blocks: number;
  free: boolean;
}

/** Whether the method has anything beyond today's flat price (a rate table, zones or a rate provider). */
export function isConfigured(m: ShippingMethodRow): boolean {
  return m.rate_table !== null || m.zones.length > 0 || m.rate_provider !== null;
}

/**
 * The method's price for a parcel to a destination, or null when it cannot serve it (not one of its countries or
 * zones, an excluded postcode, a parcel its rate table does not cover). `toMinor` converts a default-currency decimal
 * to minor units of the checkout currency. Free over the zone's (else the method's) `free_over`, on the value.
 * Without a country, zoned methods are priced by their own table or price (the address decides later).
 */
export function quote(m: ShippingMethodRow, dest: Destination, parcel: ParcelMeasures, toMinor: (decimal: number | string) => number): Quote | null {
  if (dest.country && m.countries.length > 0 && !m.countries.includes(dest.country)) return null;
  let entry: MethodZone | null = null;
  if (m.zones.length > 0 && dest.country) {
    const key = dest.zoneOf(m.zones.map((z) => z.zone));
    entry = m.zones.find((z) => z.zone === key) ?? null;
    if (!entry) return null;
    if (dest.postcode && postcodeExcluded(entry.excluded_postcodes, dest.postcode)) return null;
  }
  const table = entry?.rate_table ?? m.rate_table;
  let price = toMinor(m.price);
  const rate: AppliedRate = { source: 'flat', basis: null, from: null, to: null, price: Number(m.price), beyond_blocks: 0, free: false };
  if (table) {
    const t = minorRateTable(table, toMinor);
    const rated = rateFor(t, parcel[t.basis]);
    const row = rateRowFor(t, parcel[t.basis]);
    if (rated === null || row === null) return null;
    price = rated;
    const step = table.steps[row.step];
    Object.assign(rate, { source: 'table', basis: table.basis, from: step.from, to: step.to, price: step.price, beyond_blocks: row.beyondBlocks });
  }
  const freeOver = entry?.free_over ?? (m.free_over === null ? null : Number(m.free_over));
  if (freeOver !== null && parcel.value >= toMinor(freeOver)) {
    price = 0;
    rate.free = true;
  }
  return { price, zone: entry?.zone ?? null, deliveryDays: entry?.delivery_days ?? m.delivery_days, rate };
}
