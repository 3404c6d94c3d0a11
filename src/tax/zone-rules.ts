import { isISO31661Alpha2 } from 'class-validator';
import { AppError } from '../common/http/app-error.js';
import { parsePostcodePattern, type ZonePostcode } from './zone-matcher.js';

/** The most zones a shop may have (matching stays bounded: see zone-matcher.ts). */
export const MAX_ZONES_PER_SHOP = 1000;

const REGION = /^([A-Z]{2})-[A-Z0-9]{1,3}$/;

/** An ISO 3166-1 alpha-2 code, upper-cased, or 422 naming `member`. */
export function checkedCountry(raw: string, member: string): string {
  const code = raw.trim().toUpperCase();
  if (!isISO31661Alpha2(code)) throw AppError.unprocessable(`${member} "${raw}" is not an ISO 3166-1 alpha-2 country code`);
  return code;
}

/** Countries, regions and postcodes of a zone, normalised (upper case, duplicates dropped), or 422 naming the member. */
export function checkedZoneAreas(input: {
  countries?: readonly string[] | null;
  regions?: readonly string[] | null;
  postcodes?: readonly ZonePostcode[] | null;
}): { countries: string[]; regions: string[]; postcodes: ZonePostcode[] } {
  const countries = [...new Set((input.countries ?? []).map((c, i) => checkedCountry(c, `countries[${i}]`)))];
  const regions = [
    ...new Set(
      (input.regions ?? []).map((r, i) => {
        const code = r.trim().toUpperCase();
        const m = REGION.exec(code);
        if (!m || !isISO31661Alpha2(m[1])) throw AppError.unprocessable(`regions[${i}] "${r}" is not an ISO 3166-2 subdivision code (like ES-CN)`);
        return code;
      }),
    ),
  ];
  const seen = new Set<string>();
  const postcodes: ZonePostcode[] = [];
  (input.postcodes ?? []).forEach((p, i) => {
    const country = checkedCountry(p.country, `postcodes[${i}].country`);
    const pattern = p.pattern.trim().toUpperCase();
    if (!parsePostcodePattern(pattern)) {
      throw AppError.unprocessable(`postcodes[${i}].pattern "${p.pattern}" is not a postcode pattern (exact, PREFIX* or FROM..TO of equal-length digits)`);
    }
    const id = `${country}:${pattern}`;
    if (!seen.has(id)) postcodes.push({ country, pattern });
    seen.add(id);
  });
  if (!countries.length && !regions.length && !postcodes.length) throw AppError.unprocessable('a zone needs at least one of countries, regions or postcodes');
  return { countries, regions, postcodes };
}
