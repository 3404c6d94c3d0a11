import { DomainEvents } from '../../events/domain-events.service.js';
import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { parseCollectionRules } from '../../collections/collection-rules.js';
import type { RequestContext } from '../../common/context/request-context.js';
import type { Translations } from '../../common/db/base.entity.js';
import { inTransaction, isUniqueViolation, managerOf } from '../../common/db/tenant-scope.js';
import { AppError } from '../../common/http/app-error.js';
import { DEFAULT_SETTINGS, Tenant, TenantSettings } from '../../tenancy/entities/tenant.entity.js';
import { slugify, TenancyService } from '../../tenancy/tenancy.service.js';
import { FACET_DIMENSIONS } from '../entities/catalogue.entities.js';
import { FacetNameSnapshot } from '../facet-name-snapshot.service.js';
import { SearchIndexService } from '../search-index.service.js';
import { arr, bad, bool, date, dec, isObj, Json, key, money, num, obj, optObj, reqNum, reqStr, str, strArray, trans, uniqueKeys } from './import-input.js';

export type KindCounts = Record<string, number>;
export interface ImportReport {
  created: KindCounts;
  updated: KindCounts;
  ids: Record<string, Record<string, string> | Record<string, Record<string, string>>>;
}

const PRODUCT_BATCH = 500;
const MAX_PARAMS = 30_000;

const hash = (value: unknown) => createHash('sha1').update(JSON.stringify(value)).digest('base64url');
const round2 = (n: number) => Math.round((n + Number.EPSILON) * 100) / 100;
const round4 = (n: number) => Math.round((n + Number.EPSILON) * 10000) / 10000;

interface UpsertSpec {
  table: string;
  /** Columns after tenant_id; `key` and (unless `compareAll`) `import_hash` among them. */
  cols: string[];
  /** Conflict target, default `(tenant_id, key)`. */
  conflict?: string;
  /** Compare every column instead of `import_hash` (tables without one). */
  compareAll?: boolean;
  /** Extra condition for the id lookup of unchanged rows (e.g. `dimension = 'colors'`). */
  lookupWhere?: string;
  /** Columns never overwritten on update. */
  insertOnly?: string[];
}

interface UpsertResult {
  ids: Map<string, string>;
  created: number;
  updated: number;
  /** Keys inserted or changed. */
  changed: Set<string>;
}

/**
 * The catalogue import of CONTRACT 6: an upsert by key of every kind, in one transaction, batched into multi-row
 * `INSERT ... ON CONFLICT` statements. Each row carries a hash of its imported content, so an identical re-import
 * updates nothing. Invalid input is a 422 naming the first bad member's path.
 */
@Injectable()
export class CatalogueImportService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly tenancy: TenancyService,
    private readonly search: SearchIndexService,
    private readonly snapshot: FacetNameSnapshot,
    private readonly events: DomainEvents,
  ) {}

  async import(ctx: RequestContext, body: unknown): Promise<ImportReport> {
    if (!isObj(body)) throw AppError.unprocessable('the import body must be a JSON object');
    try {
      const report = await inTransaction(ctx, this.dataSource, (tx) => this.run(tx, body));
      return report;
    } catch (err) {
      if (isUniqueViolation(err)) throw AppError.unprocessable(`the import conflicts with existing data: ${(err as { driverError?: { detail?: string } }).driverError?.detail ?? 'duplicate value'}`);
      throw err;
    } finally {
      this.tenancy.invalidate(ctx.tenantId);
      this.snapshot.invalidate(ctx.tenantId);
      this.search.invalidate(ctx.tenantId);
    }
  }

  private async run(ctx: RequestContext, body: Json): Promise<ImportReport> {
    const m = managerOf(ctx, this.dataSource);
    const tenantId = ctx.tenantId;
    const created: KindCounts = {};
    const updated: KindCounts = {};
    const ids: ImportReport['ids'] = {};
    const count = (kind: string, r: UpsertResult) => {
      created[kind] = (created[kind] ?? 0) + r.created;
      updated[kind] = (updated[kind] ?? 0) + r.updated;
    };
    const idsOf = (r: UpsertResult) => Object.fromEntries(r.ids);

    // ---- settings (languages first: translated text defaults to the default language)
    const tenant = await m.findOneOrFail(Tenant, { where: { id: tenantId } });
    const current: TenantSettings = { ...DEFAULT_SETTINGS, ...tenant.settings };
    const settingsIn = optObj(body.settings, 'settings');
    const patch = settingsIn ? this.settingsPatch(settingsIn, current) : {};
    const settings = { ...current, ...patch };
    const lang = settings.default_language;
    let fullRefresh = false;
    if (Object.keys(patch).some((k) => JSON.stringify((patch as Json)[k]) !== JSON.stringify((current as unknown as Json)[k]))) {
      await this.tenancy.updateSettings(m, tenantId, patch);
      updated.settings = 1;
      fullRefresh = fullRefresh || patch.default_language !== undefined && patch.default_language !== current.default_language;
    }

    // ---- currencies, countries
    const currencies = arr(body.currencies, 'currencies').map((raw, i) => {
      const p = `currencies[${i}]`;
      const c = obj(raw, p);
      const code = reqStr(c.code ?? c.key, `${p}.code`, 3).toUpperCase();
      if (!/^[A-Z]{3}$/.test(code)) throw bad(`${p}.code`, 'must be an ISO 4217 code');
      const rate = num(c.rate, `${p}.rate`, { min: 0.00000001, max: 1e9 }) ?? 1;
      const precision = num(c.precision, `${p}.precision`, { min: 0, max: 4, integer: true }) ?? 2;
      return [key(c.key ?? code, `${p}.key`), code, str(c.name, `${p}.name`, 200) ?? code, str(c.symbol, `${p}.symbol`, 20), rate.toFixed(8), precision, bool(c.published, `${p}.published`, true)];
    });
    uniqueKeys(currencies.map((r) => r[0] as string), 'currencies');
    const cur = await this.upsert(m, tenantId, { table: 'currencies', cols: ['key', 'code', 'name', 'symbol', 'rate', 'precision', 'published'], compareAll: true }, currencies);
    count('currencies', cur);
    ids.currencies = idsOf(cur);
    if (settingsIn?.default_currency !== undefined) {
      const code = reqStr(settingsIn.default_currency, 'settings.default_currency', 3).toUpperCase();
      const [hit] = await m.query(`SELECT id, is_default FROM currencies WHERE tenant_id = $1 AND code = $2`, [tenantId, code]);
      if (!hit) throw bad('settings.default_currency', `names no currency of the shop (${code})`);
      if (!hit.is_default) {
        await m.query(`UPDATE currencies SET is_default = false, updated_at = now() WHERE tenant_id = $1 AND is_default`, [tenantId]);
        await m.query(`UPDATE currencies SET is_default = true, published = true, updated_at = now() WHERE id = $1`, [hit.id]);
        updated.settings = 1;
      }
    }

    const countries = arr(body.countries, 'countries').map((raw, i) => {
      const p = `countries[${i}]`;
      const c = obj(raw, p);
      const code = reqStr(c.code ?? c.key, `${p}.code`, 2).toUpperCase();
      if (!/^[A-Z]{2}$/.test(code)) throw bad(`${p}.code`, 'must be an ISO 3166-1 alpha-2 code');
      return [key(c.key ?? code, `${p}.key`), code, JSON.stringify(trans(c.name, `${p}.name`, lang, 200)), bool(c.shipping, `${p}.shipping`, true)];
    });
    uniqueKeys(countries.map((r) => r[0] as string), 'countries');
    const ctr = await this.upsert(m, tenantId, { table: 'countries', cols: ['key', 'code', 'name', 'shipping'], compareAll: true }, countries);
    count('countries', ctr);
    ids.countries = idsOf(ctr);

    // ---- simple kinds
    const simple = async (kind: string, table: string, cols: string[], build: (c: Json, p: string) => unknown[]) => {
      const rows = arr(body[kind], kind).map((raw, i) => {
        const p = `${kind}[${i}]`;
        const c = obj(raw, p);
        const values = [key(c.key, `${p}.key`), ...build(c, p)];
        return [...values, hash(values)];
      });
      uniqueKeys(rows.map((r) => r[0] as string), kind);
      const r = await this.upsert(m, tenantId, { table, cols: ['key', ...cols, 'import_hash'] }, rows);
      count(kind, r);
      ids[kind] = idsOf(r);
      return r;
    };
    await simple('locations', 'stock_locations', ['name'], (c, p) => [reqStr(c.name ?? c.key, `${p}.name`, 200)]);
    const manufacturers = await simple('manufacturers', 'manufacturers', ['name', 'logo_url'], (c, p) => [str(c.name, `${p}.name`, 500), str(c.logo_url, `${p}.logo_url`, 2000)]);
    await simple('flags', 'flags', ['name', 'color'], (c, p) => [JSON.stringify(trans(c.name, `${p}.name`, lang, 200)), str(c.color, `${p}.color`, 50)]);
    await simple('shipping_methods', 'shipping_methods', ['name', 'price', 'tax_rate', 'countries', 'free_over', 'delivery_days'], (c, p) => [
      JSON.stringify(trans(c.name, `${p}.name`, lang, 200)),
      dec(money(c.price, `${p}.price`) ?? 0),
      dec(num(c.tax_rate, `${p}.tax_rate`, { min: 0, max: 100 }) ?? 0, 3),
      strArray(c.countries, `${p}.countries`).map((x) => x.toUpperCase()),
      dec(money(c.free_over, `${p}.free_over`)),
      num(c.delivery_days, `${p}.delivery_days`, { min: 0, max: 365, integer: true }),
    ]);
    await simple('payment_types', 'payment_types', ['name', 'kind', 'image_url'], (c, p) => [
      JSON.stringify(trans(c.name, `${p}.name`, lang, 200)),
      reqStr(c.kind, `${p}.kind`, 50),
      str(c.image_url, `${p}.image_url`, 2000),
    ]);
    if (manufacturers.updated > 0) fullRefresh = true;

    // ---- facets per dimension
    const facetsIn = optObj(body.facets, 'facets') ?? {};
    for (const k of Object.keys(facetsIn)) if (!(FACET_DIMENSIONS as readonly string[]).includes(k)) throw bad(`facets.${k}`, `is not a facet dimension (${FACET_DIMENSIONS.join(', ')})`);
    const facetIds: Record<string, Record<string, string>> = {};
    for (const dim of FACET_DIMENSIONS) {
      const rows = arr(facetsIn[dim], `facets.${dim}`).map((raw, i) => {
        const p = `facets.${dim}[${i}]`;
        const c = obj(raw, p);
        const values = [dim, key(c.key, `${p}.key`), JSON.stringify(trans(c.name ?? c.key, `${p}.name`, lang, 200)), num(c.position, `${p}.position`, { integer: true }) ?? i];
        return [...values, hash(values)];
      });
      uniqueKeys(rows.map((r) => r[1] as string), `facets.${dim}`);
      const r = await this.upsert(m, tenantId, { table: 'facet_values', cols: ['dimension', 'key', 'name', 'position', 'import_hash'], conflict: '(tenant_id, dimension, key)', lookupWhere: `dimension = '${dim}'` }, rows, 1);
      count(`facets.${dim}`, r);
      facetIds[dim] = idsOf(r);
    }
    ids.facets = facetIds;

    // ---- custom fields and their options
    const fieldRows: unknown[][] = [];
    const optionRows: Array<{ field: string; values: unknown[] }> = [];
    arr(body.custom_fields, 'custom_fields').forEach((raw, i) => {
      const p = `custom_fields[${i}]`;
      const c = obj(raw, p);
      const values = [key(c.key, `${p}.key`), JSON.stringify(trans(c.label ?? c.key, `${p}.label`, lang, 200)), str(c.type, `${p}.type`, 50) ?? 'select', i];
      fieldRows.push([...values, hash(values)]);
      arr(c.options, `${p}.options`).forEach((rawOpt, j) => {
        const q = `${p}.options[${j}]`;
        const o = obj(rawOpt, q);
        const okey = key(o.key, `${q}.key`);
        const name = trans(o.name ?? o.value ?? okey, `${q}.name`, lang, 500);
        optionRows.push({ field: values[0] as string, values: [okey, JSON.stringify(name), o.value === undefined ? (name[lang] ?? okey) : str(o.value, `${q}.value`, 500), j] });
      });
    });
    uniqueKeys(fieldRows.map((r) => r[0] as string), 'custom_fields');
    const fields = await this.upsert(m, tenantId, { table: 'custom_fields', cols: ['key', 'label', 'type', 'position', 'import_hash'] }, fieldRows);
    count('custom_fields', fields);
    ids.custom_fields = idsOf(fields);
    const seenOpt = new Set<string>();
    const optRows = optionRows.map(({ field, values }) => {
      if (seenOpt.has(values[0] as string)) throw bad('custom_fields', `repeats the option key "${String(values[0])}" (option keys are unique per shop)`);
      seenOpt.add(values[0] as string);
      const row = [fields.ids.get(field), ...values];
      return [...row, hash(row)];
    });
    const options = await this.upsert(m, tenantId, { table: 'custom_field_options', cols: ['field_id', 'key', 'name', 'value', 'position', 'import_hash'] }, optRows, 1);
    count('custom_field_options', options);
    ids.custom_field_options = idsOf(options);
    if (fields.updated + options.updated > 0) fullRefresh = true;

    // ---- categories: upsert, then parents and ancestor paths
    const catIn = arr(body.categories, 'categories').map((raw, i) => {
      const p = `categories[${i}]`;
      const c = obj(raw, p);
      const parent = c.parent === undefined || c.parent === null ? null : key(c.parent, `${p}.parent`);
      const values = [key(c.key, `${p}.key`), JSON.stringify(trans(c.name ?? c.key, `${p}.name`, lang, 500)), num(c.position, `${p}.position`, { integer: true }) ?? i];
      return { parent, row: [...values, hash([...values, parent])] };
    });
    uniqueKeys(catIn.map((c) => c.row[0] as string), 'categories');
    const cats = await this.upsert(m, tenantId, { table: 'categories', cols: ['key', 'name', 'position', 'import_hash'] }, catIn.map((c) => c.row));
    count('categories', cats);
    ids.categories = idsOf(cats);
    if (catIn.length > 0) {
      await this.linkCategories(m, tenantId, catIn.map((c, i) => ({ key: c.row[0] as string, parent: c.parent, path: `categories[${i}].parent` })));
      if (cats.updated > 0) fullRefresh = true;
    }

    // ---- products and variants, in batches
    const lookups = await this.lookups(m, tenantId);
    const productIds: Record<string, string> = {};
    const variantIds: Record<string, string> = {};
    const touched = new Set<string>();
    const productsIn = arr(body.products, 'products');
    const seenProducts = new Set<string>();
    const seenVariants = new Set<string>();
    for (let start = 0; start < productsIn.length; start += PRODUCT_BATCH) {
      const batch = productsIn.slice(start, start + PRODUCT_BATCH);
      await this.importProducts(m, tenantId, batch, start, { lang, includeTax: settings.prices_include_tax, lookups, seenProducts, seenVariants, productIds, variantIds, touched, created, updated });
    }
    ids.products = productIds;
    ids.variants = variantIds;

    // ---- collections
    ids.collections = await this.importCollections(m, tenantId, arr(body.collections, 'collections'), lang, { productIds, created, updated });

    for (const kind of ['products', 'variants', 'collections']) {
      created[kind] ??= 0;
      updated[kind] ??= 0;
    }
    await this.search.refresh(ctx, fullRefresh ? null : [...touched], lang);
    await this.events.emit(ctx, 'catalogue.imported', { import: { created, updated } });
    return { created, updated, ids };
  }

  private settingsPatch(s: Json, current: TenantSettings): Partial<TenantSettings> {
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
    if (s.terms !== undefined) {
      const t = obj(s.terms, 'settings.terms');
      patch.terms = { required: bool(t.required, 'settings.terms.required', false), terms_url: str(t.terms_url, 'settings.terms.terms_url', 2000), privacy_url: str(t.privacy_url, 'settings.terms.privacy_url', 2000) };
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
        applies_to_alcohol_volume_over: num(a.applies_to_alcohol_volume_over, 'settings.age_verification.applies_to_alcohol_volume_over', { min: 0, max: 100 }) ?? 0,
      };
    }
    return patch;
  }

  /** Sets parent ids and root-first paths for the whole tree (so moved subtrees follow). */
  private async linkCategories(m: EntityManager, tenantId: string, links: Array<{ key: string; parent: string | null; path: string }>): Promise<void> {
    const rows: Array<{ id: string; key: string; parent_id: string | null; path: string[] }> = await m.query(`SELECT id, key, parent_id, path FROM categories WHERE tenant_id = $1`, [tenantId]);
    const byKey = new Map(rows.map((r) => [r.key, r]));
    const parentOf = new Map(rows.map((r) => [r.id, r.parent_id]));
    for (const l of links) {
      const self = byKey.get(l.key)!;
      if (l.parent === null) parentOf.set(self.id, null);
      else {
        const parent = byKey.get(l.parent);
        if (!parent) throw bad(l.path, `names no category ("${l.parent}")`);
        parentOf.set(self.id, parent.id);
      }
    }
    const changes: unknown[][] = [];
    for (const r of rows) {
      const path: string[] = [r.id];
      let at = parentOf.get(r.id) ?? null;
      while (at) {
        if (path.includes(at)) throw bad(links.find((l) => l.key === r.key)?.path ?? 'categories', 'makes the category tree a cycle');
        path.unshift(at);
        at = parentOf.get(at) ?? null;
      }
      const parent = parentOf.get(r.id) ?? null;
      if (parent !== r.parent_id || path.join() !== (r.path ?? []).join()) changes.push([r.id, parent, path]);
    }
    for (const chunk of chunks(changes, 1000)) {
      const params: unknown[] = [tenantId];
      const values = chunk.map((c) => `($${params.push(c[0])}::uuid, $${params.push(c[1])}::uuid, $${params.push(c[2])}::uuid[])`);
      await m.query(`UPDATE categories c SET parent_id = x.parent, path = x.path, updated_at = now() FROM (VALUES ${values.join(',')}) AS x(id, parent, path) WHERE c.id = x.id AND c.tenant_id = $1`, params);
    }
  }

  private async lookups(m: EntityManager, tenantId: string) {
    const map = async (sql: string) => new Map<string, string>(((await m.query(sql, [tenantId])) as Array<{ key: string; id: string }>).map((r) => [r.key, r.id]));
    const facets: Record<string, Map<string, string>> = {};
    for (const dim of FACET_DIMENSIONS) facets[dim] = await map(`SELECT key, id FROM facet_values WHERE tenant_id = $1 AND dimension = '${dim}'`);
    const optionRows: Array<{ key: string; id: string; field_key: string }> = await m.query(
      `SELECT o.key, o.id, f.key AS field_key FROM custom_field_options o JOIN custom_fields f ON f.id = o.field_id WHERE o.tenant_id = $1`,
      [tenantId],
    );
    const options = new Map<string, Map<string, string>>();
    for (const o of optionRows) {
      if (!options.has(o.field_key)) options.set(o.field_key, new Map());
      options.get(o.field_key)!.set(o.key, o.id);
    }
    return {
      manufacturers: await map(`SELECT key, id FROM manufacturers WHERE tenant_id = $1`),
      categories: await map(`SELECT key, id FROM categories WHERE tenant_id = $1`),
      flags: await map(`SELECT key, id FROM flags WHERE tenant_id = $1`),
      locations: await map(`SELECT key, id FROM stock_locations WHERE tenant_id = $1`),
      facets,
      options,
    };
  }

  private async importProducts(
    m: EntityManager,
    tenantId: string,
    batch: unknown[],
    offset: number,
    s: {
      lang: string;
      includeTax: boolean;
      lookups: Awaited<ReturnType<CatalogueImportService['lookups']>>;
      seenProducts: Set<string>;
      seenVariants: Set<string>;
      productIds: Record<string, string>;
      variantIds: Record<string, string>;
      touched: Set<string>;
      created: KindCounts;
      updated: KindCounts;
    },
  ): Promise<void> {
    const { lang, lookups } = s;
    const ref = (map: Map<string, string>, v: unknown, path: string, what: string): string | null => {
      if (v === undefined || v === null) return null;
      const k = key(v, path);
      const id = map.get(k);
      if (!id) throw bad(path, `names no ${what} ("${k}")`);
      return id;
    };
    const productRows: unknown[][] = [];
    const children = new Map<string, { images: Array<{ src: string | null; alt: string | null; width: number; height: number }>; ratings: number[] }>();
    const variants: Array<{ productKey: string; row: unknown[]; stock: Array<[string, number]> | null }> = [];

    batch.forEach((raw, bi) => {
      const i = offset + bi;
      const p = `products[${i}]`;
      const c = obj(raw, p);
      const pkey = key(c.key, `${p}.key`);
      if (s.seenProducts.has(pkey)) throw bad(`${p}.key`, `duplicates the key "${pkey}"`);
      s.seenProducts.add(pkey);
      const title = trans(c.title, `${p}.title`, lang, 500);
      if (Object.keys(title).length === 0) throw bad(`${p}.title`, 'is required');
      const categoryIds = arr(c.categories, `${p}.categories`).map((k, j) => ref(lookups.categories, k, `${p}.categories[${j}]`, 'category')!);
      const images = arr(c.images, `${p}.images`).map((rawImg, j) => {
        const q = `${p}.images[${j}]`;
        const img = obj(rawImg, q);
        return { src: reqStr(img.src, `${q}.src`, 2000), alt: str(img.alt, `${q}.alt`, 500), width: num(img.width, `${q}.width`, { min: 0, integer: true, max: 100000 }) ?? 0, height: num(img.height, `${q}.height`, { min: 0, integer: true, max: 100000 }) ?? 0 };
      });
      const ratings = arr(c.ratings, `${p}.ratings`).map((r, j) => reqNum(r, `${p}.ratings[${j}]`, { min: 1, max: 5, integer: true }));
      const rating = ratings.length ? round2(ratings.reduce((a, b) => a + b, 0) / ratings.length) : 0;
      const values = [
        pkey,
        str(c.handle, `${p}.handle`, 255) ?? slugify(title[lang] ?? Object.values(title)[0] ?? pkey),
        JSON.stringify(title),
        JSON.stringify(trans(c.body_html, `${p}.body_html`, lang)),
        JSON.stringify(trans(c.summary_html, `${p}.summary_html`, lang)),
        ref(lookups.manufacturers, c.manufacturer, `${p}.manufacturer`, 'manufacturer'),
        [...new Set(categoryIds)],
        ref(lookups.flags, c.flag, `${p}.flag`, 'flag'),
        strArray(c.tags, `${p}.tags`),
        bool(c.published, `${p}.published`, true),
        rating.toFixed(2),
        ratings.length,
        date(c.created_at, `${p}.created_at`) ?? new Date().toISOString(),
      ];
      const hashInput = [...values.slice(0, -1), c.created_at ?? null, images, ratings];
      productRows.push([...values, hash(hashInput)]);
      children.set(pkey, { images, ratings });

      arr(c.variants, `${p}.variants`).forEach((rawV, j) => {
        const q = `${p}.variants[${j}]`;
        const v = obj(rawV, q);
        const vkey = key(v.key, `${q}.key`);
        if (s.seenVariants.has(vkey)) throw bad(`${q}.key`, `duplicates the key "${vkey}"`);
        s.seenVariants.add(vkey);
        const price = money(v.price, `${q}.price`);
        if (price === null) throw bad(`${q}.price`, 'is required');
        const compare = money(v.compare_at_price, `${q}.compare_at_price`);
        const tax = num(v.tax_rate, `${q}.tax_rate`, { min: 0, max: 100 }) ?? 0;
        const factor = 1 + tax / 100;
        const gross = s.includeTax ? price : round2(price * factor);
        const net = s.includeTax ? round4(price / factor) : price;
        const compareGross = compare === null ? null : s.includeTax ? compare : round2(compare * factor);
        const qr = optObj(v.quantity_rule, `${q}.quantity_rule`) ?? {};
        const optionIds: string[] = [];
        const cf = optObj(v.custom_fields, `${q}.custom_fields`) ?? {};
        for (const [fieldKey, rawVals] of Object.entries(cf)) {
          const fieldOptions = lookups.options.get(fieldKey);
          if (!fieldOptions) throw bad(`${q}.custom_fields.${fieldKey}`, `names no custom field ("${fieldKey}")`);
          const list = typeof rawVals === 'string' ? [rawVals] : arr(rawVals, `${q}.custom_fields.${fieldKey}`);
          list.forEach((ok, k) => {
            const optKey = key(ok, `${q}.custom_fields.${fieldKey}[${k}]`);
            const id = fieldOptions.get(optKey);
            if (!id) throw bad(`${q}.custom_fields.${fieldKey}[${k}]`, `names no option of ${fieldKey} ("${optKey}")`);
            if (!optionIds.includes(id)) optionIds.push(id);
          });
        }
        let stock: Array<[string, number]> | null = null;
        if (v.stock !== undefined && v.stock !== null) {
          stock = Object.entries(obj(v.stock, `${q}.stock`)).map(([loc, qty]) => [ref(lookups.locations, loc, `${q}.stock.${loc}`, 'location')!, reqNum(qty, `${q}.stock.${loc}`, { min: -1e9, max: 1e9 })]);
        }
        const row = [
          vkey,
          str(v.handle, `${q}.handle`, 255),
          str(v.sku, `${q}.sku`, 255),
          JSON.stringify(trans(v.title, `${q}.title`, lang, 500)),
          j,
          dec(price),
          dec(compare),
          dec(gross),
          dec(net),
          dec(compareGross),
          dec(tax, 3),
          bool(v.published, `${q}.published`, true),
          bool(v.active, `${q}.active`, true),
          ref(lookups.facets.colors, v.color, `${q}.color`, 'color'),
          ref(lookups.facets.regions, v.region, `${q}.region`, 'region'),
          ref(lookups.facets.years, v.year, `${q}.year`, 'year'),
          ref(lookups.facets.sizes, v.size, `${q}.size`, 'size'),
          ref(lookups.facets.countries, v.country, `${q}.country`, 'country'),
          dec(num(v.alcohol_volume, `${q}.alcohol_volume`, { min: 0, max: 100 }), 2),
          num(v.grams, `${q}.grams`, { min: 0, integer: true, max: 1e7 }),
          str(v.option_group, `${q}.option_group`, 255),
          JSON.stringify(trans(v.description, `${q}.description`, lang)),
          JSON.stringify(trans(v.description_additional, `${q}.description_additional`, lang)),
          str(v.area, `${q}.area`, 255),
          dec(num(qr.min, `${q}.quantity_rule.min`, { min: 0, max: 1e6 }) ?? 1, 3),
          dec(num(qr.max, `${q}.quantity_rule.max`, { min: 0, max: 1e6 }), 3),
          dec(num(qr.increment, `${q}.quantity_rule.increment`, { min: 0.001, max: 1e6 }) ?? 1, 3),
          optionIds,
          bool(v.track_inventory, `${q}.track_inventory`, true),
          bool(v.allow_backorder, `${q}.allow_backorder`, false),
        ];
        variants.push({ productKey: pkey, row: [...row, hash([pkey, ...row])], stock });
      });
    });

    // products
    const prod = await this.upsert(
      m,
      tenantId,
      { table: 'products', cols: ['key', 'handle', 'title', 'body_html', 'summary_html', 'manufacturer_id', 'category_ids', 'flag_id', 'tags', 'published', 'rating', 'rating_count', 'created_at', 'import_hash'], insertOnly: ['created_at'] },
      productRows,
    );
    const explicitDates = productRows.filter((r, bi) => prod.changed.has(r[0] as string) && obj(batch[bi], 'products').created_at != null).map((r) => [r[0], r[12]]);
    if (explicitDates.length > 0) {
      const params: unknown[] = [tenantId];
      const values = explicitDates.map((d) => `($${params.push(d[0])}::text, $${params.push(d[1])}::timestamptz)`);
      await m.query(`UPDATE products p SET created_at = x.created_at FROM (VALUES ${values.join(',')}) AS x(key, created_at) WHERE p.tenant_id = $1 AND p.key = x.key AND p.created_at <> x.created_at`, params);
    }
    s.created.products = (s.created.products ?? 0) + prod.created;
    s.updated.products = (s.updated.products ?? 0) + prod.updated;
    for (const [k, id] of prod.ids) s.productIds[k] = id;
    const changedProducts = [...prod.changed].map((k) => prod.ids.get(k)!);
    changedProducts.forEach((id) => s.touched.add(id));
    if (changedProducts.length > 0) {
      await m.query(`DELETE FROM product_images WHERE tenant_id = $1 AND product_id = ANY($2::uuid[])`, [tenantId, changedProducts]);
      await m.query(`DELETE FROM product_ratings WHERE tenant_id = $1 AND product_id = ANY($2::uuid[])`, [tenantId, changedProducts]);
      const images: unknown[][] = [];
      const ratings: unknown[][] = [];
      for (const k of prod.changed) {
        const pid = prod.ids.get(k)!;
        const ch = children.get(k)!;
        ch.images.forEach((img, pos) => images.push([pid, pos + 1, img.src, img.alt, img.width, img.height]));
        ch.ratings.forEach((r) => ratings.push([pid, r, true]));
      }
      await this.insertMany(m, tenantId, 'product_images', ['product_id', 'position', 'src', 'alt', 'width', 'height'], images);
      await this.insertMany(m, tenantId, 'product_ratings', ['product_id', 'value', 'approved'], ratings);
    }

    // variants
    const vrows = variants.map((v) => [s.productIds[v.productKey], ...v.row]);
    const vcols = ['product_id', 'key', 'handle', 'sku', 'title', 'position', 'price', 'compare_at_price', 'gross', 'net', 'compare_at_gross', 'tax_rate', 'published', 'active',
      'color_id', 'region_id', 'year_id', 'size_id', 'country_id', 'alcohol_volume', 'grams', 'option_group', 'description', 'description_additional', 'area',
      'quantity_min', 'quantity_max', 'quantity_increment', 'option_ids', 'track_inventory', 'allow_backorder', 'import_hash'];
    const vars = await this.upsert(m, tenantId, { table: 'variants', cols: vcols }, vrows, 1);
    for (const [k, id] of vars.ids) s.variantIds[k] = id;
    let varsUpdated = vars.updated;
    for (const v of variants) if (vars.changed.has(v.row[0] as string)) s.touched.add(s.productIds[v.productKey]);

    // stock: a movement where the ledger differs from the imported on-hand
    const withStock = variants.filter((v) => v.stock && v.stock.length > 0);
    if (withStock.length > 0) {
      const vids = withStock.map((v) => vars.ids.get(v.row[0] as string)!);
      const rows: Array<{ variant_id: string; location_id: string; on_hand: string }> = await m.query(
        `SELECT variant_id, location_id, sum(delta) AS on_hand FROM stock_movements WHERE tenant_id = $1 AND variant_id = ANY($2::uuid[]) GROUP BY variant_id, location_id`,
        [tenantId, vids],
      );
      const have = new Map(rows.map((r) => [`${r.variant_id}/${r.location_id}`, Number(r.on_hand)]));
      const moves: unknown[][] = [];
      for (const v of withStock) {
        const vid = vars.ids.get(v.row[0] as string)!;
        let moved = false;
        for (const [loc, qty] of v.stock!) {
          const delta = round4(qty - (have.get(`${vid}/${loc}`) ?? 0));
          if (delta !== 0) {
            moves.push([vid, loc, delta, 'import']);
            moved = true;
          }
        }
        if (moved) {
          s.touched.add(s.productIds[v.productKey]);
          if (!vars.changed.has(v.row[0] as string)) varsUpdated += 1;
        }
      }
      await this.insertMany(m, tenantId, 'stock_movements', ['variant_id', 'location_id', 'delta', 'reason'], moves);
    }
    s.created.variants = (s.created.variants ?? 0) + vars.created;
    s.updated.variants = (s.updated.variants ?? 0) + varsUpdated;
  }

  private async importCollections(
    m: EntityManager,
    tenantId: string,
    list: unknown[],
    lang: string,
    s: { productIds: Record<string, string>; created: KindCounts; updated: KindCounts },
  ): Promise<Record<string, string>> {
    if (list.length === 0) return {};
    const productKeys = new Map(Object.entries(s.productIds));
    const rows: unknown[][] = [];
    const members: Array<{ key: string; manual: boolean; products: string[] }> = [];
    list.forEach((raw, i) => {
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
      const productList = type === 'manual' ? strArray(c.products, `${p}.products`) : [];
      productList.forEach((k, j) => {
        if (!productKeys.has(k)) throw bad(`${p}.products[${j}]`, `names no product of this import ("${k}")`);
      });
      members.push({ key: ckey, manual: type === 'manual', products: productList });
      rows.push([
        ckey,
        str(c.handle, `${p}.handle`, 255) ?? slugify(title[lang] ?? Object.values(title)[0] ?? ckey),
        JSON.stringify(title),
        JSON.stringify(trans(c.body_html, `${p}.body_html`, lang)),
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
    uniqueKeys(members.map((x) => x.key), 'collections');
    const res = await this.upsert(
      m,
      tenantId,
      { table: 'collections', cols: ['key', 'handle', 'title', 'body_html', 'collection_type', 'published', 'sort_order', 'template_name', 'rules_json', 'meta_title', 'meta_description', 'image_src', 'image_alt', 'image_width', 'image_height'], conflict: '(tenant_id, key) WHERE key IS NOT NULL', compareAll: true },
      rows,
    );
    let updatedCount = res.updated;
    for (const mem of members) {
      if (!mem.manual) continue;
      const cid = res.ids.get(mem.key)!;
      const want = [...new Set(mem.products.map((k) => s.productIds[k]))];
      const have: Array<{ product_id: string }> = await m.query(`SELECT product_id FROM collection_products WHERE tenant_id = $1 AND collection_id = $2 ORDER BY position, product_id`, [tenantId, cid]);
      if (have.map((h) => h.product_id).join() === want.join()) continue;
      await m.query(`DELETE FROM collection_products WHERE tenant_id = $1 AND collection_id = $2`, [tenantId, cid]);
      await this.insertMany(m, tenantId, 'collection_products', ['collection_id', 'product_id', 'position'], want.map((pid, pos) => [cid, pid, pos + 1]));
      if (!res.changed.has(mem.key)) updatedCount += 1;
    }
    s.created.collections = res.created;
    s.updated.collections = updatedCount;
    return Object.fromEntries(res.ids);
  }

  /** Multi-row upsert by key; returns every key's id and what was created or changed. */
  private async upsert(m: EntityManager, tenantId: string, spec: UpsertSpec, rows: unknown[][], keyIndex = 0): Promise<UpsertResult> {
    const result: UpsertResult = { ids: new Map(), created: 0, updated: 0, changed: new Set() };
    if (rows.length === 0) return result;
    const conflict = spec.conflict ?? '(tenant_id, key)';
    const updatable = spec.cols.filter((c) => c !== 'key' && c !== 'dimension' && !(spec.insertOnly ?? []).includes(c));
    const t = spec.table;
    const distinct = spec.compareAll
      ? `(${updatable.map((c) => `${t}.${c}`).join(', ')}) IS DISTINCT FROM (${updatable.map((c) => `EXCLUDED.${c}`).join(', ')})`
      : `${t}.import_hash IS DISTINCT FROM EXCLUDED.import_hash`;
    const perChunk = Math.max(1, Math.floor(MAX_PARAMS / (spec.cols.length + 1)));
    for (const chunk of chunks(rows, perChunk)) {
      const params: unknown[] = [tenantId];
      const values = chunk.map((r) => `($1, ${r.map((v) => `$${params.push(v)}`).join(', ')})`);
      const returned: Array<{ id: string; key: string; inserted: boolean }> = await m.query(
        `INSERT INTO ${t} AS ${t} (tenant_id, ${spec.cols.join(', ')}) VALUES ${values.join(', ')}
         ON CONFLICT ${conflict} DO UPDATE SET ${updatable.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = now()
         WHERE ${distinct}
         RETURNING id, key, (xmax = 0) AS inserted`,
        params,
      );
      for (const r of returned) {
        result.ids.set(r.key, r.id);
        result.changed.add(r.key);
        if (r.inserted) result.created += 1;
        else result.updated += 1;
      }
      const missing = chunk.map((r) => r[keyIndex] as string).filter((k) => !result.ids.has(k));
      if (missing.length > 0) {
        const found: Array<{ id: string; key: string }> = await m.query(
          `SELECT id, key FROM ${t} WHERE tenant_id = $1 AND key = ANY($2::text[]) ${spec.lookupWhere ? `AND ${spec.lookupWhere}` : ''}`,
          [tenantId, missing],
        );
        for (const r of found) result.ids.set(r.key, r.id);
      }
    }
    return result;
  }

  private async insertMany(m: EntityManager, tenantId: string, table: string, cols: string[], rows: unknown[][]): Promise<void> {
    const perChunk = Math.max(1, Math.floor(MAX_PARAMS / (cols.length + 1)));
    for (const chunk of chunks(rows, perChunk)) {
      const params: unknown[] = [tenantId];
      const values = chunk.map((r) => `($1, ${r.map((v) => `$${params.push(v)}`).join(', ')})`);
      await m.query(`INSERT INTO ${table} (tenant_id, ${cols.join(', ')}) VALUES ${values.join(', ')}`, params);
    }
  }
}

function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

export type { Translations };
