import { parseCollectionRules } from '../../collections/index.js';
import { AppError } from '../../common/http/app-error.js';
import type { TenantSettings } from '../../tenancy/index.js';
import { slugify, type CountryUpsertRow, type CurrencyUpsertRow } from '../../tenancy/index.js';
import type { EntityManager } from 'typeorm';
import type { UpsertResult } from '../../common/db/keyed-upsert.js';
import { parseDestinationRule, shippingMethodImportRow, upsertShippingMethods } from '../../shipping/index.js';
import { FACET_DIMENSIONS } from '../entities/catalogue.entities.js';
import { hash } from './catalogue-writer.js';
import { arr, bad, bool, dec, Json, key, num, obj, optObj, reqNum, reqStr, str, strArray, trans, uniqueKeys } from './import-input.js';
import { safeHtmlTranslations } from '../../common/html/safe-html.js';
import { TRANSLATED_MAX_LENGTH } from './import-schema.js';

/**
 * The import's per-kind parsers (CONTRACT 6): each reads its member of the document into typed rows, in the column
 * order of its table, without touching the database; a 422 names the first bad member's path. Products are parsed
 * batch by batch by the product writer (`catalogue-writer.ts`), which needs the keys the earlier kinds wrote.
 */

export type CurrencyRow = CurrencyUpsertRow;
export type CountryRow = CountryUpsertRow;
/** A row of a kind upserted by `import_hash`: its values, then the hash of them. */
export type HashedRow = [key: string, ...values: unknown[]];

export interface SimpleKind {
  kind: 'locations' | 'manufacturers' | 'flags' | 'shipping_methods' | 'payment_types';
  /** The catalogue's own table written by the generic upsert, or the owning module's writer of a foreign one. */
  target: { table: string; cols: string[] } | { write: (m: EntityManager, tenantId: string, rows: HashedRow[]) => Promise<UpsertResult> };
  rows: HashedRow[];
}

export interface FacetRows {
  dimension: string;
  /** [dimension, key, name, position, import_hash] */
  rows: unknown[][];
}

export interface CustomFieldRows {
  /** [key, label, type, position, import_hash] */
  fields: unknown[][];
  /** Per option, its field's key and [key, name, value, position]. */
  options: Array<{ field: string; values: [key: string, name: string, value: string | null, position: number] }>;
}

export interface CategoryRow {
  parent: string | null;
  /** [key, name, position, import_hash] */
  row: [key: string, name: string, position: number, hash: string];
}

export interface CollectionRows {
  /** In the column order of the collections module's `COLLECTION_COLUMNS`. */
  rows: unknown[][];
  members: Array<{ key: string; manual: boolean; products: string[]; path: string }>;
}

/** `settings`: the change to the shop's settings (languages first: translated text defaults to the default language). */
export function parseSettings(s: Json, current: TenantSettings): Partial<TenantSettings> {
  const patch: Partial<TenantSettings> = {};
  if (s.languages !== undefined) {
    const langs = strArray(s.languages, 'settings.languages');
    if (langs.length === 0) throw bad('settings.languages', 'must name at least one language');
    patch.languages = langs;
  }
  if (s.default_language !== undefined) patch.default_language = reqStr(s.default_language, 'settings.default_language', 20);
  const languages = patch.languages ?? current.languages;
  const def = patch.default_language ?? current.default_language;
  if (!languages.includes(def)) {
    if (patch.languages) throw bad('settings.default_language', 'must be one of settings.languages');
    patch.languages = [def, ...languages];
  }
  for (const k of ['prices_include_tax', 'show_net_prices', 'require_email_confirmation', 'guest_checkout_enabled'] as const) {
    if (s[k] !== undefined) patch[k] = bool(s[k], `settings.${k}`, current[k]);
  }
  for (const k of ['invoice_due_days', 'return_window_days'] as const) {
    if (s[k] !== undefined && s[k] !== null) patch[k] = reqNum(s[k], `settings.${k}`, { min: 0, max: 3650, integer: true });
  }
  if (s.terms !== undefined) {
    const t = obj(s.terms, 'settings.terms');
    patch.terms = {
      required: bool(t.required, 'settings.terms.required', false),
      terms_url: str(t.terms_url, 'settings.terms.terms_url', 2000),
      privacy_url: str(t.privacy_url, 'settings.terms.privacy_url', 2000),
    };
  }
  if (s.age_verification !== undefined) {
    const a = obj(s.age_verification, 'settings.age_verification');
    const byCountry: Record<string, number> = {};
    for (const [c, v] of Object.entries(optObj(a.min_age_by_country, 'settings.age_verification.min_age_by_country') ?? {})) {
      byCountry[c.toUpperCase()] = reqNum(v, `settings.age_verification.min_age_by_country.${c}`, { min: 0, max: 150, integer: true });
    }
    patch.age_verification = {
      min_age: num(a.min_age, 'settings.age_verification.min_age', { min: 0, max: 150, integer: true }) ?? 0,
      min_age_by_country: byCountry,
      applies_to_alcohol_volume_over:
        num(a.applies_to_alcohol_volume_over, 'settings.age_verification.applies_to_alcohol_volume_over', { min: 0, max: 100 }) ?? 0,
    };
  }
  return patch;
}

export function parseCurrencies(list: unknown): CurrencyRow[] {
  const rows = arr(list, 'currencies').map((raw, i): CurrencyRow => {
    const p = `currencies[${i}]`;
    const c = obj(raw, p);
    const code = reqStr(c.code ?? c.key, `${p}.code`, 3).toUpperCase();
    if (!/^[A-Z]{3}$/.test(code)) throw bad(`${p}.code`, 'must be an ISO 4217 code');
    const rate = num(c.rate, `${p}.rate`, { min: 0.00000001, max: 1e9 }) ?? 1;
    const precision = num(c.precision, `${p}.precision`, { min: 0, max: 4, integer: true }) ?? 2;
    return [
      key(c.key ?? code, `${p}.key`),
      code,
      str(c.name, `${p}.name`, 200) ?? code,
      str(c.symbol, `${p}.symbol`, 20),
      rate.toFixed(8),
      precision,
      bool(c.published, `${p}.published`, true),
    ];
  });
  uniqueKeys(
    rows.map((r) => r[0]),
    'currencies',
  );
  return rows;
}

export function parseCountries(list: unknown, lang: string): CountryRow[] {
  const rows = arr(list, 'countries').map((raw, i): CountryRow => {
    const p = `countries[${i}]`;
    const c = obj(raw, p);
    const code = reqStr(c.code ?? c.key, `${p}.code`, 2).toUpperCase();
    if (!/^[A-Z]{2}$/.test(code)) throw bad(`${p}.code`, 'must be an ISO 3166-1 alpha-2 code');
    return [key(c.key ?? code, `${p}.key`), code, JSON.stringify(trans(c.name, `${p}.name`, lang, 200)), bool(c.shipping, `${p}.shipping`, true)];
  });
  uniqueKeys(
    rows.map((r) => r[0]),
    'countries',
  );
  return rows;
}

/** The kinds that are a key and a few columns: locations, manufacturers, flags, shipping methods, payment types. */
export function parseSimpleKinds(body: Json, lang: string): SimpleKind[] {
  const simple = (kind: SimpleKind['kind'], table: string, cols: string[], build: (c: Json, p: string) => unknown[]): SimpleKind => {
    const rows = arr(body[kind], kind).map((raw, i): HashedRow => {
      const p = `${kind}[${i}]`;
      const c = obj(raw, p);
      const values: HashedRow = [key(c.key, `${p}.key`), ...build(c, p)];
      return [...values, hash(values)];
    });
    uniqueKeys(
      rows.map((r) => r[0]),
      kind,
    );
    return { kind, target: { table, cols: ['key', ...cols, 'import_hash'] }, rows };
  };
  return [
    simple('locations', 'stock_locations', ['name'], (c, p) => [reqStr(c.name ?? c.key, `${p}.name`, 200)]),
    simple('manufacturers', 'manufacturers', ['name', 'logo_url'], (c, p) => [str(c.name, `${p}.name`, 500), str(c.logo_url, `${p}.logo_url`, 2000)]),
    simple('flags', 'flags', ['name', 'color'], (c, p) => [JSON.stringify(trans(c.name, `${p}.name`, lang, 200)), str(c.color, `${p}.color`, 50)]),
    shippingMethodsKind(body, lang),
    simple('payment_types', 'payment_types', ['name', 'kind', 'image_url'], (c, p) => [
      JSON.stringify(trans(c.name, `${p}.name`, lang, 200)),
      reqStr(c.kind, `${p}.kind`, 50),
      str(c.image_url, `${p}.image_url`, 2000),
    ]),
  ];
}

/** `shipping_methods`: parsed, with their rate tables and zones, by the shipping module (which owns the table). */
function shippingMethodsKind(body: Json, lang: string): SimpleKind {
  const rows = arr(body.shipping_methods, 'shipping_methods').map((raw, i) => shippingMethodImportRow(raw, `shipping_methods[${i}]`, lang) as HashedRow);
  uniqueKeys(
    rows.map((r) => r[0]),
    'shipping_methods',
  );
  return { kind: 'shipping_methods', target: { write: upsertShippingMethods }, rows };
}

/** `destination_rules`: one per zone key; rows of `upsertDestinationRules`. */
export function parseDestinationRules(list: unknown): unknown[][] {
  const rows = arr(list, 'destination_rules').map((raw, i) => {
    const r = parseDestinationRule(raw, `destination_rules[${i}]`);
    const litres = (x: number | null) => (x === null ? null : dec(x, 3));
    const values = [r.zone, r.alcohol_shipping, litres(r.max_litres_per_order), litres(r.max_litres_per_year), r.min_age];
    return [...values, hash(values)];
  });
  uniqueKeys(
    rows.map((r) => r[0] as string),
    'destination_rules',
  );
  return rows;
}

/** `facets`: per dimension, its values. */
export function parseFacets(value: unknown, lang: string): FacetRows[] {
  const facetsIn = optObj(value, 'facets') ?? {};
  for (const k of Object.keys(facetsIn))
    if (!(FACET_DIMENSIONS as readonly string[]).includes(k)) throw bad(`facets.${k}`, `is not a facet dimension (${FACET_DIMENSIONS.join(', ')})`);
  return FACET_DIMENSIONS.map((dim) => {
    const rows = arr(facetsIn[dim], `facets.${dim}`).map((raw, i) => {
      const p = `facets.${dim}[${i}]`;
      const c = obj(raw, p);
      const values = [
        dim,
        key(c.key, `${p}.key`),
        JSON.stringify(trans(c.name ?? c.key, `${p}.name`, lang, 200)),
        num(c.position, `${p}.position`, { integer: true }) ?? i,
      ];
      return [...values, hash(values)];
    });
    uniqueKeys(
      rows.map((r) => r[1] as string),
      `facets.${dim}`,
    );
    return { dimension: dim, rows };
  });
}

/** `custom_fields` and their options (option keys are unique per shop). */
export function parseCustomFields(list: unknown, lang: string): CustomFieldRows {
  const out: CustomFieldRows = { fields: [], options: [] };
  arr(list, 'custom_fields').forEach((raw, i) => {
    const p = `custom_fields[${i}]`;
    const c = obj(raw, p);
    const values = [key(c.key, `${p}.key`), JSON.stringify(trans(c.label ?? c.key, `${p}.label`, lang, 200)), str(c.type, `${p}.type`, 50) ?? 'select', i];
    out.fields.push([...values, hash(values)]);
    arr(c.options, `${p}.options`).forEach((rawOpt, j) => {
      const q = `${p}.options[${j}]`;
      const o = obj(rawOpt, q);
      const okey = key(o.key, `${q}.key`);
      const name = trans(o.name ?? o.value ?? okey, `${q}.name`, lang, 500);
      out.options.push({
        field: values[0] as string,
        values: [okey, JSON.stringify(name), o.value === undefined ? (name[lang] ?? okey) : str(o.value, `${q}.value`, 500), j],
      });
    });
  });
  uniqueKeys(
    out.fields.map((r) => r[0] as string),
    'custom_fields',
  );
  const seen = new Set<string>();
  for (const { values } of out.options) {
    if (seen.has(values[0])) throw bad('custom_fields', `repeats the option key "${values[0]}" (option keys are unique per shop)`);
    seen.add(values[0]);
  }
  return out;
}

export function parseCategories(list: unknown, lang: string): CategoryRow[] {
  const rows = arr(list, 'categories').map((raw, i): CategoryRow => {
    const p = `categories[${i}]`;
    const c = obj(raw, p);
    const parent = c.parent === undefined || c.parent === null ? null : key(c.parent, `${p}.parent`);
    const values = [
      key(c.key, `${p}.key`),
      JSON.stringify(trans(c.name ?? c.key, `${p}.name`, lang, 500)),
      num(c.position, `${p}.position`, { integer: true }) ?? i,
    ] as const;
    return { parent, row: [...values, hash([...values, parent])] };
  });
  uniqueKeys(
    rows.map((c) => c.row[0]),
    'categories',
  );
  return rows;
}

/** `collections`: rows and, for manual ones, the product keys they pick (checked against the import's products when written). */
export function parseCollections(list: unknown, lang: string): CollectionRows {
  const out: CollectionRows = { rows: [], members: [] };
  arr(list, 'collections').forEach((raw, i) => {
    const p = `collections[${i}]`;
    const c = obj(raw, p);
    const ckey = key(c.key, `${p}.key`);
    const title = trans(c.title, `${p}.title`, lang, 255);
    if (Object.keys(title).length === 0) throw bad(`${p}.title`, 'is required');
    const type = c.collection_type ?? 'manual';
    if (type !== 'manual' && type !== 'smart') throw bad(`${p}.collection_type`, 'must be manual or smart');
    const rules = str(c.rules_json, `${p}.rules_json`, 20_000);
    if (type === 'smart') {
      if (!rules) throw bad(`${p}.rules_json`, 'is required for a smart collection');
      try {
        parseCollectionRules(rules);
      } catch (err) {
        throw AppError.unprocessable(`${p}.${(err as Error).message}`);
      }
    }
    const image = optObj(c.image, `${p}.image`);
    out.members.push({ key: ckey, manual: type === 'manual', products: type === 'manual' ? strArray(c.products, `${p}.products`) : [], path: `${p}.products` });
    out.rows.push([
      ckey,
      str(c.handle, `${p}.handle`, 255) ?? slugify(title[lang] ?? Object.values(title)[0] ?? ckey),
      JSON.stringify(title),
      JSON.stringify(safeHtmlTranslations(trans(c.body_html, `${p}.body_html`, lang, TRANSLATED_MAX_LENGTH.text))),
      type,
      bool(c.published, `${p}.published`, true),
      str(c.sort_order, `${p}.sort_order`, 50) ?? (type === 'manual' ? 'manual' : 'created-desc'),
      str(c.template_name, `${p}.template_name`, 100),
      type === 'smart' ? rules : null,
      str(c.meta_title, `${p}.meta_title`, 255),
      str(c.meta_description, `${p}.meta_description`, 1000),
      image ? reqStr(image.src, `${p}.image.src`, 2000) : null,
      image ? str(image.alt, `${p}.image.alt`, 500) : null,
      image ? num(image.width, `${p}.image.width`, { min: 0, integer: true }) : null,
      image ? num(image.height, `${p}.image.height`, { min: 0, integer: true }) : null,
    ]);
  });
  uniqueKeys(
    out.members.map((x) => x.key),
    'collections',
  );
  return out;
}
