/** The public surface of `tenancy` for other modules (feature -> feature imports go through this file only). */
export { TENANCY_CACHE_TOPIC, TenancyService, isUuid, slugify } from './tenancy.service.js';
export type { TenantConfig } from './tenancy.service.js';
export { DEFAULT_SETTINGS, Tenant } from './entities/tenant.entity.js';
export type { TenantSettings } from './entities/tenant.entity.js';
export {
  countriesOf,
  countryIdByCode,
  countryRecordsOf,
  currencyRecordsOf,
  isCountryOf,
  setDefaultCurrency,
  shippingCountriesOf,
  tenantSettingsOf,
  upsertCountries,
  upsertCurrencies,
} from './tenancy.repository.js';
export type { CountryRecord, CountryRow, CountryUpsertRow, CurrencyRecord, CurrencyUpsertRow } from './tenancy.repository.js';
