import type { TenantSettings } from '../../tenancy/index.js';
import { Json, optObj, reqStr } from './import-input.js';
import {
  CategoryRow,
  CollectionRows,
  CountryRow,
  CurrencyRow,
  CustomFieldRows,
  FacetRows,
  parseCategories,
  parseCollections,
  parseCountries,
  parseCurrencies,
  parseCustomFields,
  parseDestinationRules,
  parseFacets,
  parseSettings,
  parseSimpleKinds,
  SimpleKind,
} from './kind-parsers.js';

/**
 * The change an import document asks for, parsed before anything is written: the settings patch and every kind but
 * the products as typed rows (`kind-parsers.ts`). The products are not part of it: the product writer reads, parses and
 * writes them batch by batch (`ndjson-document.ts` ProductSource). `CatalogueImportService` writes the plan in the contract's order.
 */
export interface ImportPlan {
  /** The settings after the import (translated text defaults to its default language). */
  settings: TenantSettings;
  settingsPatch: Partial<TenantSettings>;
  /** `settings.default_currency`, upper-cased, when given. */
  defaultCurrency: string | null;
  currencies: CurrencyRow[];
  countries: CountryRow[];
  simple: SimpleKind[];
  /** Rows of `destination_rules`; null when the document has no such member. */
  destinationRules: unknown[][] | null;
  facets: FacetRows[];
  customFields: CustomFieldRows;
  categories: CategoryRow[];
  collections: CollectionRows;
}

export function planImport(body: Json, current: TenantSettings): ImportPlan {
  const settingsIn = optObj(body.settings, 'settings');
  const settingsPatch = settingsIn ? parseSettings(settingsIn, current) : {};
  const settings = { ...current, ...settingsPatch };
  const lang = settings.default_language;
  return {
    settings,
    settingsPatch,
    defaultCurrency: settingsIn?.default_currency !== undefined ? reqStr(settingsIn.default_currency, 'settings.default_currency', 3).toUpperCase() : null,
    currencies: parseCurrencies(body.currencies),
    countries: parseCountries(body.countries, lang),
    simple: parseSimpleKinds(body, lang),
    destinationRules: body.destination_rules === undefined ? null : parseDestinationRules(body.destination_rules),
    facets: parseFacets(body.facets, lang),
    customFields: parseCustomFields(body.custom_fields, lang),
    categories: parseCategories(body.categories, lang),
    collections: parseCollections(body.collections, lang),
  };
}
