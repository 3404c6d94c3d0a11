/** The public surface of `tax` for other modules (feature -> feature imports go through this file only). */
export { TaxZonesService } from './tax-zones.service.js';
export { TaxModule } from './tax.module.js';
export { zonesOf } from './tax.repository.js';
export type { ZoneRow } from './tax.repository.js';
export { checkedCountry, checkedZoneAreas, MAX_ZONES_PER_SHOP } from './zone-rules.js';
export { matchingZones, matchZone, normalizePostcode, parsePostcodePattern, ZoneIndex, zoneIndexOf, MAX_POSTCODE_LENGTH } from './zone-matcher.js';
export type { MatchableZone, ParsedPattern, ZoneAddress, ZoneLevel, ZoneMatch, ZonePostcode } from './zone-matcher.js';
export { TaxRatesService, DEFAULT_TAX_SETTINGS } from './tax-rates.service.js';
export { TaxService, volumeFromSize } from './tax.service.js';
export type { VariantFacts } from './tax.service.js';
export { computeTaxedTotals, EXCISE_LINE_NAME } from './tax-engine.js';
export type { LineTax, TaxedTotals, TaxRules, TaxSettings, VariantTax } from './tax-engine.js';
export { exportTax, exportVariantTaxes, importTax, importVariantTaxes, presetDocument, variantTaxMembers } from './tax-import.js';
export type { TaxDocument, TaxImportCounts } from './tax-import.js';
export { EU_VAT_2026, TAX_PRESETS } from './data/eu-vat-2026.js';
export { taxLoadEuCommand } from './tax.cli.js';
