/** The public surface of `tax` for other modules (feature -> feature imports go through this file only). */
export { TaxZonesService } from './tax-zones.service.js';
export { TaxModule } from './tax.module.js';
export { zonesOf } from './tax.repository.js';
export type { ZoneRow } from './tax.repository.js';
export { checkedCountry, checkedZoneAreas, MAX_ZONES_PER_SHOP } from './zone-rules.js';
export { matchingZones, matchZone, normalizePostcode, parsePostcodePattern, ZoneIndex, zoneIndexOf, MAX_POSTCODE_LENGTH } from './zone-matcher.js';
export type { MatchableZone, ParsedPattern, ZoneAddress, ZoneLevel, ZoneMatch, ZonePostcode } from './zone-matcher.js';
