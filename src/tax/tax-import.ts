import type { EntityManager } from 'typeorm';
import { AppError } from '../common/http/app-error.js';
import { TAX_PRESETS, type TaxPresetName } from './data/eu-vat-2026.js';
import {
  categoriesOf,
  deleteRatesOfPairs,
  insertRates,
  ratesOf,
  setVariantTaxes,
  taxSettingsOf,
  upsertCategoryByKey,
  upsertTaxSettings,
  upsertZoneByKey,
  variantTaxRecordsOf,
  zonesOf,
} from './tax.repository.js';
import { EXCISE_CLASSES, EXCISE_DISPLAYS, GROSS_PRICE_POLICIES, TAX_MODES, type TaxSettings } from './tax-engine.js';
import { DEFAULT_TAX_SETTINGS } from './tax-rates.service.js';
import { checkedZoneAreas } from './zone-rules.js';

/**
 * The import's `tax` member and the export's (README "Taxes"): settings, categories, zones and rates by key. A rate
 * list replaces the rates of each category x zone pair it names (a second identical import changes nothing).
 * `preset: "eu-2026"` first loads the shipped VAT data (src/tax/data/eu-vat-2026.ts): a zone per country (key = the
 * country code), the categories `standard` and `reduced`, and their rates.
 */

export interface TaxDocument {
  preset?: string;
  mode?: string;
  gross_price_policy?: string;
  excise_display?: string;
  categories?: Array<{ key: string; name: string; excise_class?: string | null }>;
  zones?: Array<{
    key: string;
    name: string;
    countries?: string[];
    regions?: string[];
    postcodes?: Array<{ country: string; pattern: string }>;
    excise_currency?: string | null;
    excise_in_vat_base?: boolean;
  }>;
  rates?: Array<{ category: string; zone: string; rate: number; excise_per_hl?: number; valid_from?: string | null; valid_to?: string | null }>;
}

export interface TaxImportCounts {
  created: Record<'tax_categories' | 'tax_zones' | 'tax_rates', number>;
  updated: Record<'tax_categories' | 'tax_zones' | 'tax_rates' | 'tax_settings', number>;
  ids: { tax_categories: Record<string, string>; tax_zones: Record<string, string> };
}

const bad = (path: string, message: string) => AppError.unprocessable(`${path} ${message}`);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function text(v: unknown, path: string, max = 200): string {
  if (typeof v !== 'string' || !v.trim() || v.length > max) throw bad(path, `must be a non-blank string of at most ${max} characters`);
  return v.trim();
}

function oneOf<T extends string>(v: unknown, values: readonly T[], path: string): T {
  if (!values.includes(v as T)) throw bad(path, `must be one of ${values.join(', ')}`);
  return v as T;
}

function list(v: unknown, path: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw bad(path, 'must be an array');
  return v;
}

function number(v: unknown, path: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) throw bad(path, `must be a number from ${min} to ${max}`);
  return v;
}

function date(v: unknown, path: string): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || !DATE.test(v) || Number.isNaN(Date.parse(v))) throw bad(path, 'must be a date (YYYY-MM-DD)');
  return v;
}

/** The preset's document. */
export function presetDocument(name: TaxPresetName): Required<Pick<TaxDocument, 'categories' | 'zones' | 'rates'>> {
  const data = TAX_PRESETS[name];
  return {
    categories: [
      { key: 'standard', name: 'Standard rate' },
      { key: 'reduced', name: 'Reduced rate' },
    ],
    // each country's VAT base includes excise duties (the data file's `excise_in_vat_base`, with its legal source)
    zones: data.countries.map((c) => ({ key: c.code, name: c.name, countries: [c.code], excise_in_vat_base: data.exciseInVatBase })),
    rates: data.countries.flatMap((c) => [
      { category: 'standard', zone: c.code, rate: c.standard },
      ...(c.reduced === null ? [] : [{ category: 'reduced', zone: c.code, rate: c.reduced }]),
    ]),
  };
}

/** Writes the `tax` member of an import in the caller's transaction; 422 names the first bad member. */
export async function importTax(m: EntityManager, tenantId: string, raw: unknown, path = 'tax'): Promise<TaxImportCounts> {
  if (!isObj(raw)) throw bad(path, 'must be an object');
  const out: TaxImportCounts = {
    created: { tax_categories: 0, tax_zones: 0, tax_rates: 0 },
    updated: { tax_categories: 0, tax_zones: 0, tax_rates: 0, tax_settings: 0 },
    ids: { tax_categories: {}, tax_zones: {} },
  };
  if (raw.preset !== undefined && raw.preset !== null) {
    const name = oneOf(raw.preset, Object.keys(TAX_PRESETS) as TaxPresetName[], `${path}.preset`);
    await writeDocument(m, tenantId, presetDocument(name), `${path}.preset`, out);
  }
  await writeDocument(m, tenantId, raw, path, out);

  const current = (await taxSettingsOf(m, tenantId)) ?? DEFAULT_TAX_SETTINGS;
  const next: TaxSettings = {
    mode: raw.mode === undefined ? current.mode : oneOf(raw.mode, TAX_MODES, `${path}.mode`),
    gross_price_policy:
      raw.gross_price_policy === undefined ? current.gross_price_policy : oneOf(raw.gross_price_policy, GROSS_PRICE_POLICIES, `${path}.gross_price_policy`),
    excise_display: raw.excise_display === undefined ? current.excise_display : oneOf(raw.excise_display, EXCISE_DISPLAYS, `${path}.excise_display`),
  };
  if (JSON.stringify(next) !== JSON.stringify(current)) {
    await upsertTaxSettings(m, tenantId, next);
    out.updated.tax_settings = 1;
  }
  return out;
}

async function writeDocument(m: EntityManager, tenantId: string, doc: Record<string, unknown>, path: string, out: TaxImportCounts): Promise<void> {
  const count = (kind: 'tax_categories' | 'tax_zones', r: { created: boolean; changed: boolean }) => {
    if (r.created) out.created[kind]++;
    else if (r.changed) out.updated[kind]++;
  };
  for (const [i, c] of list(doc.categories, `${path}.categories`).entries()) {
    const p = `${path}.categories[${i}]`;
    if (!isObj(c)) throw bad(p, 'must be an object');
    const key = text(c.key, `${p}.key`, 100);
    const exciseClass = c.excise_class === undefined || c.excise_class === null ? null : oneOf(c.excise_class, EXCISE_CLASSES, `${p}.excise_class`);
    const r = await upsertCategoryByKey(m, tenantId, { key, name: text(c.name ?? key, `${p}.name`), excise_class: exciseClass });
    count('tax_categories', r);
    out.ids.tax_categories[key] = r.id;
  }
  for (const [i, z] of list(doc.zones, `${path}.zones`).entries()) {
    const p = `${path}.zones[${i}]`;
    if (!isObj(z)) throw bad(p, 'must be an object');
    const key = text(z.key, `${p}.key`, 100);
    let areas;
    try {
      areas = checkedZoneAreas({
        countries: list(z.countries, `${p}.countries`) as string[],
        regions: list(z.regions, `${p}.regions`) as string[],
        postcodes: list(z.postcodes, `${p}.postcodes`) as Array<{ country: string; pattern: string }>,
      });
    } catch (err) {
      throw err instanceof AppError ? bad(p, err.message) : err;
    }
    let exciseCurrency: string | null = null;
    if (z.excise_currency !== undefined && z.excise_currency !== null) {
      if (typeof z.excise_currency !== 'string' || !/^[A-Za-z]{3}$/.test(z.excise_currency))
        throw bad(`${p}.excise_currency`, 'must be an ISO 4217 code (like CHF)');
      exciseCurrency = z.excise_currency.toUpperCase();
    }
    if (z.excise_in_vat_base !== undefined && z.excise_in_vat_base !== null && typeof z.excise_in_vat_base !== 'boolean')
      throw bad(`${p}.excise_in_vat_base`, 'must be true or false');
    const exciseInVatBase = z.excise_in_vat_base === true;
    const r = await upsertZoneByKey(m, tenantId, { key, name: text(z.name ?? key, `${p}.name`), ...areas, exciseCurrency, exciseInVatBase });
    count('tax_zones', r);
    out.ids.tax_zones[key] = r.id;
  }
  const rates = list(doc.rates, `${path}.rates`);
  if (!rates.length) return;
  const categories = new Map((await categoriesOf(m, tenantId)).map((c) => [c.key, c.id]));
  const zones = new Map((await zonesOf(m, tenantId)).flatMap((z) => (z.key ? [[z.key, z.id] as const] : [])));
  const wanted = rates.map((r, i) => {
    const p = `${path}.rates[${i}]`;
    if (!isObj(r)) throw bad(p, 'must be an object');
    const category_id = categories.get(text(r.category, `${p}.category`, 100));
    if (!category_id) throw bad(`${p}.category`, `names no tax category ("${String(r.category)}")`);
    const zone_id = zones.get(text(r.zone, `${p}.zone`, 100));
    if (!zone_id) throw bad(`${p}.zone`, `names no tax zone ("${String(r.zone)}")`);
    const valid_from = date(r.valid_from, `${p}.valid_from`);
    const valid_to = date(r.valid_to, `${p}.valid_to`);
    if (valid_from && valid_to && valid_from > valid_to) throw bad(`${p}.valid_to`, 'must not be before valid_from');
    return {
      category_id,
      zone_id,
      rate: number(r.rate, `${p}.rate`, 0, 100),
      excise_per_hl: r.excise_per_hl === undefined || r.excise_per_hl === null ? 0 : number(r.excise_per_hl, `${p}.excise_per_hl`, 0, 1_000_000),
      valid_from,
      valid_to,
      path: p,
    };
  });
  const pairKey = (r: { category_id: string; zone_id: string }) => `${r.category_id}/${r.zone_id}`;
  const byPair = new Map<string, typeof wanted>();
  for (const r of wanted) byPair.set(pairKey(r), [...(byPair.get(pairKey(r)) ?? []), r]);
  const signature = (r: { rate: number | string; excise_per_hl: number | string; valid_from: string | null; valid_to: string | null }) =>
    `${Number(r.rate)}|${Number(r.excise_per_hl)}|${r.valid_from ?? ''}|${r.valid_to ?? ''}`;
  const existing = await ratesOf(m, tenantId);
  const changedPairs: Array<{ categoryId: string; zoneId: string }> = [];
  const toInsert: typeof wanted = [];
  for (const [key, group] of byPair) {
    const sorted = [...group].sort((a, b) => (a.valid_from ?? '').localeCompare(b.valid_from ?? ''));
    for (let j = 1; j < sorted.length; j++) {
      if ((sorted[j].valid_from ?? '0000') <= (sorted[j - 1].valid_to ?? '9999'))
        throw bad(sorted[j].path, 'overlaps another rate of the same category and zone');
    }
    const old = existing.filter((r) => pairKey(r) === key);
    if (old.map(signature).sort().join() === group.map(signature).sort().join()) continue;
    changedPairs.push({ categoryId: group[0].category_id, zoneId: group[0].zone_id });
    toInsert.push(...group);
    out.created.tax_rates += Math.max(0, group.length - old.length);
    out.updated.tax_rates += Math.min(group.length, old.length);
  }
  await deleteRatesOfPairs(m, tenantId, changedPairs);
  await insertRates(m, tenantId, toInsert);
}

/** Sets the variants' `tax_category` (key; null clears) and `volume_ml` from an import; 422 on an unknown key. */
export async function importVariantTaxes(
  m: EntityManager,
  tenantId: string,
  entries: Array<{ variantId: string; category: string | null | undefined; volumeMl: number | null | undefined; path: string }>,
): Promise<void> {
  if (!entries.length) return;
  const categories = new Map((await categoriesOf(m, tenantId)).map((c) => [c.key, c.id]));
  const current = new Map(
    (
      await variantTaxRecordsOf(
        m,
        tenantId,
        entries.map((e) => e.variantId),
      )
    ).map((r) => [r.variant_id, r]),
  );
  const rows = entries.map((e) => {
    const now = current.get(e.variantId);
    let categoryId = now?.category ? (categories.get(now.category) ?? null) : null;
    if (e.category !== undefined) {
      categoryId = e.category === null ? null : (categories.get(e.category) ?? null);
      if (e.category !== null && !categoryId) throw bad(`${e.path}.tax_category`, `names no tax category ("${e.category}")`);
    }
    let volumeMl = now?.volume_ml != null ? Number(now.volume_ml) : null;
    if (e.volumeMl !== undefined) {
      if (e.volumeMl !== null && !(typeof e.volumeMl === 'number' && e.volumeMl > 0 && e.volumeMl <= 1_000_000))
        throw bad(`${e.path}.volume_ml`, 'must be a number above 0 and at most 1000000');
      volumeMl = e.volumeMl;
    }
    return { variantId: e.variantId, categoryId, volumeMl };
  });
  await setVariantTaxes(m, tenantId, rows);
}

/** The shop's `tax` member for the export (keys, no ids), or null when it has no tax objects or settings. */
export async function exportTax(m: EntityManager, tenantId: string): Promise<TaxDocument | null> {
  const [settings, categories, zones, rates] = await Promise.all([
    taxSettingsOf(m, tenantId),
    categoriesOf(m, tenantId),
    zonesOf(m, tenantId),
    ratesOf(m, tenantId),
  ]);
  if (!settings && !categories.length && !zones.length) return null;
  const s = settings ?? DEFAULT_TAX_SETTINGS;
  const categoryKey = new Map(categories.map((c) => [c.id, c.key]));
  const zoneKey = new Map(zones.map((z) => [z.id, z.key ?? z.id]));
  const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  const rateKey = (r: { category: string; zone: string; valid_from: string | null }) => `${r.category}\u0000${r.zone}\u0000${r.valid_from ?? ''}`;
  return {
    mode: s.mode,
    gross_price_policy: s.gross_price_policy,
    excise_display: s.excise_display,
    categories: categories.map((c) => ({ key: c.key, name: c.name, excise_class: c.excise_class })).sort(byKey),
    zones: zones
      .map((z) => ({
        key: z.key ?? z.id,
        name: z.name,
        countries: z.countries,
        regions: z.regions,
        postcodes: z.postcodes,
        // only when set, so documents of zones without one export as before
        ...(z.excise_currency ? { excise_currency: z.excise_currency } : {}),
        ...(z.excise_in_vat_base ? { excise_in_vat_base: true } : {}),
      }))
      .sort(byKey),
    rates: rates
      .map((r) => ({
        category: categoryKey.get(r.category_id)!,
        zone: zoneKey.get(r.zone_id)!,
        rate: Number(r.rate),
        excise_per_hl: Number(r.excise_per_hl),
        valid_from: r.valid_from,
        valid_to: r.valid_to,
      }))
      .sort((a, b) => (rateKey(a) < rateKey(b) ? -1 : rateKey(a) > rateKey(b) ? 1 : 0)),
  };
}

/** The variants' `tax_category` key and `volume_ml` (null when not set), by variant id: the admin product's members. */
export async function variantTaxMembers(
  m: EntityManager,
  tenantId: string,
  variantIds: readonly string[],
): Promise<Map<string, { tax_category: string | null; volume_ml: number | null }>> {
  const stored = new Map((await variantTaxRecordsOf(m, tenantId, variantIds)).map((r) => [r.variant_id, r]));
  return new Map(
    variantIds.map((id) => {
      const r = stored.get(id);
      return [id, { tax_category: r?.category ?? null, volume_ml: r?.volume_ml == null ? null : Number(r.volume_ml) }];
    }),
  );
}

/** Each variant's `tax_category` key and `volume_ml` for the export, by variant id. */
export async function exportVariantTaxes(m: EntityManager, tenantId: string): Promise<Map<string, { tax_category: string | null; volume_ml: number | null }>> {
  return new Map(
    (await variantTaxRecordsOf(m, tenantId)).map((r) => [
      r.variant_id,
      { tax_category: r.category, volume_ml: r.volume_ml === null ? null : Number(r.volume_ml) },
    ]),
  );
}
