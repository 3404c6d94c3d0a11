/**
 * Which zone an address lies in (issue 31): one zone model for taxes and shipping.
 *
 * A zone lists countries (ISO 3166-1 alpha-2), regions (ISO 3166-2 subdivision codes such as `ES-CN`, the country is
 * the prefix) and postcode patterns (each with its country). An address matches a zone at the most specific level it
 * meets; among all zones that match, the most specific wins:
 *
 *   1. postcode: exact pattern (`27498`) > range (`22060..22061`, same length, digits) > prefix (`HS*`; longer first)
 *   2. region (the address's region equals one of the zone's regions)
 *   3. country
 *
 * Ties at the same level and specificity go to the zone with the smallest id (string order), so the answer never
 * depends on the order zones were listed or loaded in. Postcodes compare upper-cased without spaces or dashes.
 *
 * Bounded: the zones are compiled once per array (kept in a WeakMap) into per-country hash maps; a match costs one
 * map lookup for exact postcodes, one per prefix length of the address's postcode (at most `MAX_POSTCODE_LENGTH`),
 * and a scan of that country's ranges only.
 */

export const MAX_POSTCODE_LENGTH = 16;

export interface ZonePostcode {
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** `27498` (exact), `HS*` (prefix) or `22060..22061` (inclusive range of same-length digit strings). */
  pattern: string;
}

/** What the matcher needs of a zone. */
export interface MatchableZone {
  id: string;
  countries: readonly string[];
  regions: readonly string[];
  postcodes: readonly ZonePostcode[];
}

export interface ZoneAddress {
  /** ISO 3166-1 alpha-2; case-insensitive. */
  country: string | null | undefined;
  /** ISO 3166-2 subdivision (`ES-CN`) or its part after the dash (`CN`). */
  region?: string | null;
  postcode?: string | null;
}

export type ZoneLevel = 'postcode' | 'region' | 'country';

export interface ZoneMatch<Z extends MatchableZone = MatchableZone> {
  zone: Z;
  level: ZoneLevel;
}

/** A parsed postcode pattern; `null` when the pattern is malformed. */
export type ParsedPattern = { kind: 'exact'; value: string } | { kind: 'prefix'; value: string } | { kind: 'range'; from: string; to: string };

const PATTERN_TEXT = /^[A-Z0-9]+$/;

/** Upper case, without spaces and dashes. */
export function normalizePostcode(raw: string): string {
  return raw.toUpperCase().replace(/[\s-]+/g, '');
}

/** Parses one postcode pattern, or null when it is not one (empty, too long, bad characters, a reversed range). */
export function parsePostcodePattern(raw: string): ParsedPattern | null {
  const text = normalizePostcode(raw);
  const range = /^(\d+)\.\.(\d+)$/.exec(text);
  if (range) {
    const [, from, to] = range;
    if (from.length !== to.length || from.length > MAX_POSTCODE_LENGTH || from > to) return null;
    return { kind: 'range', from, to };
  }
  if (text.endsWith('*')) {
    const value = text.slice(0, -1);
    return PATTERN_TEXT.test(value) && value.length <= MAX_POSTCODE_LENGTH ? { kind: 'prefix', value } : null;
  }
  return PATTERN_TEXT.test(text) && text.length <= MAX_POSTCODE_LENGTH ? { kind: 'exact', value: text } : null;
}

// ranks: higher is more specific
const RANK_EXACT = 1000;
const RANK_RANGE = 900;
const RANK_REGION = 2;
const RANK_COUNTRY = 1;

function levelOf(rank: number): ZoneLevel {
  return rank > RANK_REGION ? 'postcode' : rank === RANK_REGION ? 'region' : 'country';
}

interface CountryIndex<Z> {
  exact: Map<string, Z[]>;
  prefix: Map<string, Z[]>;
  ranges: Array<{ from: string; to: string; zone: Z }>;
  regions: Map<string, Z[]>;
  whole: Z[];
}

/** The zones compiled for matching. */
export class ZoneIndex<Z extends MatchableZone = MatchableZone> {
  private readonly byCountry = new Map<string, CountryIndex<Z>>();

  constructor(zones: readonly Z[]) {
    const push = <K>(map: Map<K, Z[]>, key: K, zone: Z) => {
      const list = map.get(key);
      if (list) list.push(zone);
      else map.set(key, [zone]);
    };
    for (const zone of zones) {
      for (const c of zone.countries) this.country(c).whole.push(zone);
      for (const r of zone.regions) {
        const code = r.toUpperCase();
        push(this.country(code.slice(0, 2)).regions, code, zone);
      }
      for (const p of zone.postcodes) {
        const parsed = parsePostcodePattern(p.pattern);
        if (!parsed) continue;
        const idx = this.country(p.country);
        if (parsed.kind === 'exact') push(idx.exact, parsed.value, zone);
        else if (parsed.kind === 'prefix') push(idx.prefix, parsed.value, zone);
        else idx.ranges.push({ from: parsed.from, to: parsed.to, zone });
      }
    }
  }

  /** The most specific zone containing the address, or null. */
  match(address: ZoneAddress): ZoneMatch<Z> | null {
    return this.matchAll(address)[0] ?? null;
  }

  /** Every zone containing the address (each once, at its most specific level), most specific first. */
  matchAll(address: ZoneAddress): Array<ZoneMatch<Z>> {
    const rankOf = new Map<Z, number>();
    this.visit(address, (zones, rank) => {
      for (const zone of zones ?? []) if ((rankOf.get(zone) ?? 0) < rank) rankOf.set(zone, rank);
    });
    return [...rankOf].sort(([a, ra], [b, rb]) => rb - ra || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map(([zone, rank]) => ({ zone, level: levelOf(rank) }));
  }

  private visit(address: ZoneAddress, consider: (zones: readonly Z[] | undefined, rank: number) => void): void {
    const country = (address.country ?? '').toUpperCase();
    const idx = this.byCountry.get(country);
    if (!idx) return;
    consider(idx.whole, RANK_COUNTRY);
    if (address.region) {
      const region = address.region.toUpperCase();
      consider(idx.regions.get(region.includes('-') ? region : `${country}-${region}`), RANK_REGION);
    }
    const postcode = address.postcode ? normalizePostcode(address.postcode) : '';
    if (!postcode || postcode.length > MAX_POSTCODE_LENGTH) return;
    consider(idx.exact.get(postcode), RANK_EXACT);
    for (const r of idx.ranges) {
      if (postcode.length === r.from.length && postcode >= r.from && postcode <= r.to) consider([r.zone], RANK_RANGE);
    }
    for (let len = postcode.length; len >= 0; len--) consider(idx.prefix.get(postcode.slice(0, len)), RANK_REGION + 1 + len);
  }

  private country(code: string): CountryIndex<Z> {
    const key = code.toUpperCase();
    let idx = this.byCountry.get(key);
    if (!idx) {
      idx = { exact: new Map(), prefix: new Map(), ranges: [], regions: new Map(), whole: [] };
      this.byCountry.set(key, idx);
    }
    return idx;
  }
}

const compiled = new WeakMap<readonly MatchableZone[], ZoneIndex>();

/** The index of `zones`, compiled once per array. */
export function zoneIndexOf<Z extends MatchableZone>(zones: readonly Z[]): ZoneIndex<Z> {
  let idx = compiled.get(zones) as ZoneIndex<Z> | undefined;
  if (!idx) {
    idx = new ZoneIndex(zones);
    compiled.set(zones, idx);
  }
  return idx;
}

/** The most specific zone containing `address` (postcode > region > country; ties: smallest id), or null. */
export function matchZone<Z extends MatchableZone>(zones: readonly Z[] | ZoneIndex<Z>, address: ZoneAddress): ZoneMatch<Z> | null {
  return (zones instanceof ZoneIndex ? zones : zoneIndexOf(zones)).match(address);
}

/** Every zone containing `address`, most specific first (for "does this method serve the address"). */
export function matchingZones<Z extends MatchableZone>(zones: readonly Z[] | ZoneIndex<Z>, address: ZoneAddress): Array<ZoneMatch<Z>> {
  return (zones instanceof ZoneIndex ? zones : zoneIndexOf(zones)).matchAll(address);
}
