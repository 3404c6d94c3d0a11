import { createHash } from 'node:crypto';
import { parseMethodZones, type MethodZone, type ShippingMethodRow } from './method-zones.js';
import { parseRateTable, ShippingInputError, type RateTable } from './rate-table.js';
import type { ShippingMethodValues } from './shipping.repository.js';

/**
 * A shipping method as written: the members of CONTRACT 6's `shipping_methods[]` (key, name, price, tax_rate,
 * countries, free_over, delivery_days) and issue 31's (rate_table, zones, rate_provider). One parser for the import
 * and the admin API, so both accept and refuse the same things (422 naming the member's path).
 */
export interface ShippingMethodInput {
  key?: string;
  name?: Record<string, string>;
  price?: number;
  tax_rate?: number;
  countries?: string[];
  free_over?: number | null;
  delivery_days?: number | null;
  rate_table?: RateTable | null;
  zones?: MethodZone[];
  rate_provider?: string | null;
}

const MEMBERS = ['key', 'name', 'price', 'tax_rate', 'countries', 'free_over', 'delivery_days', 'rate_table', 'zones', 'rate_provider'];
const LANGUAGE = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})?$/;

type Json = Record<string, unknown>;

function num(v: unknown, path: string, min: number, max: number, integer = false): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ShippingInputError(path, 'must be a number');
  if (integer && !Number.isInteger(v)) throw new ShippingInputError(path, 'must be an integer');
  if (v < min) throw new ShippingInputError(path, `must be at least ${min}`);
  if (v > max) throw new ShippingInputError(path, `must be at most ${max}`);
  return v;
}

function translations(v: unknown, path: string, lang: string): Record<string, string> {
  if (typeof v === 'string') {
    if (v.length > 200) throw new ShippingInputError(path, 'must be at most 200 characters');
    return { [lang]: v };
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new ShippingInputError(path, 'must be a string or an object keyed by language code');
  const out: Record<string, string> = {};
  for (const [l, text] of Object.entries(v)) {
    if (!LANGUAGE.test(l)) throw new ShippingInputError(`${path}.${l}`, 'is not a language code');
    if (text === null) continue;
    if (typeof text !== 'string' || text.length > 200) throw new ShippingInputError(`${path}.${l}`, 'must be a string of at most 200 characters');
    out[l] = text;
  }
  return out;
}

/**
 * The members present in `raw` (absent ones stay undefined; null clears a nullable one). `path` prefixes member
 * names (`shipping_methods[0]`, or '' for an admin body); `lang` is the shop's default language for plain strings.
 */
export function parseShippingMethodInput(raw: unknown, path: string, lang: string): ShippingMethodInput {
  const at = (m: string) => (path ? `${path}.${m}` : m);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ShippingInputError(path || 'body', 'must be an object');
  const c = raw as Json;
  if (!path) for (const k of Object.keys(c)) if (!MEMBERS.includes(k)) throw new ShippingInputError(k, 'is not a shipping method member');
  const out: ShippingMethodInput = {};
  if (c.key !== undefined) {
    if (typeof c.key !== 'string' || !c.key.trim() || c.key.length > 255)
      throw new ShippingInputError(at('key'), 'must be a non-empty string of at most 255 characters');
    out.key = c.key;
  }
  if (c.name !== undefined && c.name !== null) out.name = translations(c.name, at('name'), lang);
  if (c.price !== undefined && c.price !== null) out.price = num(c.price, at('price'), 0, 1e9);
  if (c.tax_rate !== undefined && c.tax_rate !== null) out.tax_rate = num(c.tax_rate, at('tax_rate'), 0, 100);
  if (c.countries !== undefined) {
    if (c.countries !== null && !Array.isArray(c.countries)) throw new ShippingInputError(at('countries'), 'must be an array');
    out.countries = ((c.countries as unknown[] | null) ?? []).map((x, i) => {
      if (typeof x !== 'string' || !x.trim() || x.length > 255)
        throw new ShippingInputError(at(`countries[${i}]`), 'must be a non-empty string of at most 255 characters');
      return x.toUpperCase();
    });
  }
  if (c.free_over !== undefined) out.free_over = c.free_over === null ? null : num(c.free_over, at('free_over'), 0, 1e9);
  if (c.delivery_days !== undefined) out.delivery_days = c.delivery_days === null ? null : num(c.delivery_days, at('delivery_days'), 0, 365, true);
  if (c.rate_table !== undefined) out.rate_table = c.rate_table === null ? null : parseRateTable(c.rate_table, at('rate_table'));
  if (c.zones !== undefined) out.zones = parseMethodZones(c.zones, at('zones'));
  if (c.rate_provider !== undefined) {
    if (c.rate_provider !== null && (typeof c.rate_provider !== 'string' || !/^[a-z0-9_-]{1,50}$/.test(c.rate_provider)))
      throw new ShippingInputError(at('rate_provider'), 'must be the name of a shipping rate provider (a-z, 0-9, _ and -, at most 50)');
    out.rate_provider = c.rate_provider as string | null;
  }
  return out;
}

/** A decimal string with at most `digits` fraction digits (numeric columns). */
const dec = (n: number, digits = 4) => Number(n.toFixed(digits)).toString();

/**
 * The stored columns after applying `input` to `base` (a stored method; null on create, where absent members take
 * their defaults: price 0, tax_rate 0, no countries, no table, no zones).
 */
export function shippingMethodValues(base: ShippingMethodRow | null, input: ShippingMethodInput, key: string): ShippingMethodValues {
  const pick = <T>(v: T | undefined, fallback: T): T => (v === undefined ? fallback : v);
  const freeOver = input.free_over === undefined ? (base?.free_over ?? null) : input.free_over === null ? null : dec(input.free_over);
  const table = pick(input.rate_table, base?.rate_table ?? null);
  return {
    key,
    name: JSON.stringify(pick(input.name, base?.name ?? {})),
    price: input.price === undefined ? (base?.price ?? '0') : dec(input.price),
    tax_rate: input.tax_rate === undefined ? (base?.tax_rate ?? '0') : dec(input.tax_rate, 3),
    countries: pick(input.countries, base?.countries ?? []),
    free_over: freeOver,
    delivery_days: pick(input.delivery_days, base?.delivery_days ?? null),
    rate_table: table === null ? null : JSON.stringify(table),
    zones: JSON.stringify(pick(input.zones, base?.zones ?? [])),
    rate_provider: pick(input.rate_provider, base?.rate_provider ?? null),
  };
}

/**
 * One `shipping_methods[]` member of the import as a row of `upsertShippingMethods`: key, the import columns,
 * import_hash. A method without the issue-31 members hashes as it did before them, so re-importing an older
 * document changes nothing.
 */
export function shippingMethodImportRow(raw: unknown, path: string, lang: string): unknown[] {
  const input = parseShippingMethodInput(raw, path, lang);
  if (input.key === undefined) throw new ShippingInputError(`${path}.key`, 'must be a non-empty string of at most 255 characters');
  const v = shippingMethodValues(null, { ...input, name: input.name ?? {} }, input.key);
  const legacy = [v.key, v.name, v.price, v.tax_rate, v.countries, v.free_over, v.delivery_days];
  const extra = v.rate_table !== null || v.zones !== '[]' || v.rate_provider !== null ? [v.rate_table, v.zones, v.rate_provider] : [];
  return [...legacy, v.rate_table, v.zones, v.rate_provider, hash([...legacy, ...extra])];
}

function hash(values: unknown[]): string {
  return createHash('sha1').update(JSON.stringify(values)).digest('base64url');
}
