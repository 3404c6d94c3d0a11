/** The public surface of `shipping` for other modules (feature -> feature imports go through this file only). */
export { ShippingModule } from './shipping.module.js';
export { CHECKOUT_OPTIONS_CACHE_TOPIC, ShippingQuotes, measureOrder, type RuleLine, type ShipmentRequest } from './shipping-quotes.service.js';
export type { AddressForZones } from './shipping-zones.js';
export { isConfigured, type AppliedRate, type Quote, type ShippingMethodRow } from './method-zones.js';
export type { DestinationReason, DestinationVerdict } from './destination-rules.js';
export { shippingMethodImportRow } from './method-input.js';
export { destinationRulesDocument, shippingMethodsDocument } from './shipping-document.js';
export { DESTINATION_RULE_CODES, parseDestinationRule } from './destination-rules.js';
export { upsertDestinationRules, upsertShippingMethods } from './shipping.repository.js';
export { ShippingMethodDto, DestinationRuleDto } from './dto/shipping.dto.js';
