import { DomainEvents } from '../../events/domain-events.service.js';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { parseCollectionRules } from '../../collections/collection-rules.js';
import type { RequestContext } from '../../common/context/request-context.js';
import type { Translations } from '../../common/db/base.entity.js';
import { isUniqueViolation, managerOf } from '../../common/db/tenant-scope.js';
import { AppError } from '../../common/http/app-error.js';
import { DEFAULT_SETTINGS, Tenant, TenantSettings } from '../../tenancy/entities/tenant.entity.js';
import { slugify, TenancyService } from '../../tenancy/tenancy.service.js';
import { FACET_DIMENSIONS } from '../entities/catalogue.entities.js';
import { documentFromLines, withLine } from './ndjson-document.js';
import { checkImportDocument } from './schema-check.js';
import { CatalogueChanges, CatalogueWrite } from '../catalogue-changes.service.js';
import { arr, bad, bool, dec, isObj, Json, key, money, num, obj, optObj, reqNum, reqStr, str, strArray, trans, uniqueKeys } from './import-input.js';
import { chunks, hash, insertMany, KindCounts, loadLookups, upsert, UpsertResult, writeProducts } from './catalogue-writer.js';

export type { KindCounts };

export interface ImportReport {
  created: KindCounts;
  updated: KindCounts;
  ids: Record<string, Record<string, string> | Record<string, Record<string, string>>>;
}

const PRODUCT_BATCH = 500;

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
    private readonly changes: CatalogueChanges,
    private readonly events: DomainEvents,
  ) {}

  async import(ctx: RequestContext, body: unknown): Promise<ImportReport> {
    if (!isObj(body)) throw AppError.unprocessable('the import body must be a JSON object');
    checkImportDocument(body);
    try {
      return await this.changes.write(ctx, (tx) => this.run(tx, body));
    } catch (err) {
      if (isUniqueViolation(err)) throw AppError.unprocessable(`the import conflicts with existing data: ${(err as { driverError?: { detail?: string } }).driverError?.detail ?? 'duplicate value'}`);
      throw err;
    }
  }

  /** The NDJSON form: the values of its lines (`ndjson-document.ts`), imported as the document they make; a 422 names the line too. */
  async importLines(ctx: RequestContext, values: unknown[]): Promise<ImportReport> {
    const { document, lines } = documentFromLines(values);
    try {
      return await this.import(ctx, document);
    } catch (err) {
      throw withLine(err, lines);
    }
  }

  private async run(ctx: RequestContext, body: Json): Promise<CatalogueWrite<ImportReport>> {
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
    const cur = await upsert(m, tenantId, { table: 'currencies', cols: ['key', 'code', 'name', 'symbol', 'rate', 'precision', 'published'], compareAll: true }, currencies);
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
    const ctr = await upsert(m, tenantId, { table: 'countries', cols: ['key', 'code', 'name', 'shipping'], compareAll: true }, countries);
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
      const r = await upsert(m, tenantId, { table, cols: ['key', ...cols, 'import_hash'] }, rows);
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
      const r = await upsert(m, tenantId, { table: 'facet_values', cols: ['dimension', 'key', 'name', 'position', 'import_hash'], conflict: '(tenant_id, dimension, key)', lookupWhere: `dimension = '${dim}'` }, rows, 1);
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
    const fields = await upsert(m, tenantId, { table: 'custom_fields', cols: ['key', 'label', 'type', 'position', 'import_hash'] }, fieldRows);
    count('custom_fields', fields);
    ids.custom_fields = idsOf(fields);
    const seenOpt = new Set<string>();
    const optRows = optionRows.map(({ field, values }) => {
      if (seenOpt.has(values[0] as string)) throw bad('custom_fields', `repeats the option key "${String(values[0])}" (option keys are unique per shop)`);
      seenOpt.add(values[0] as string);
      const row = [fields.ids.get(field), ...values];
      return [...row, hash(row)];
    });
    const options = await upsert(m, tenantId, { table: 'custom_field_options', cols: ['field_id', 'key', 'name', 'value', 'position', 'import_hash'] }, optRows, 1);
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
    const cats = await upsert(m, tenantId, { table: 'categories', cols: ['key', 'name', 'position', 'import_hash'] }, catIn.map((c) => c.row));
    count('categories', cats);
    ids.categories = idsOf(cats);
    if (catIn.length > 0) {
      await this.linkCategories(m, tenantId, catIn.map((c, i) => ({ key: c.row[0] as string, parent: c.parent, path: `categories[${i}].parent` })));
      if (cats.updated > 0) fullRefresh = true;
    }

    // ---- products and variants, in batches
    const lookups = await loadLookups(m, tenantId);
    const productIds: Record<string, string> = {};
    const variantIds: Record<string, string> = {};
    const touched = new Set<string>();
    const productsIn = arr(body.products, 'products');
    const seenProducts = new Set<string>();
    const seenVariants = new Set<string>();
    for (let start = 0; start < productsIn.length; start += PRODUCT_BATCH) {
      const batch = productsIn.slice(start, start + PRODUCT_BATCH);
      await writeProducts(m, tenantId, batch, start, { lang, includeTax: settings.prices_include_tax, lookups, seenProducts, seenVariants, productIds, variantIds, touched, created, updated });
    }
    ids.products = productIds;
    ids.variants = variantIds;

    // ---- collections
    ids.collections = await this.importCollections(m, tenantId, arr(body.collections, 'collections'), lang, { productIds, created, updated });

    for (const kind of ['products', 'variants', 'collections']) {
      created[kind] ??= 0;
      updated[kind] ??= 0;
    }
    await this.events.emit(ctx, 'catalogue.imported', { import: { created, updated } });
    return { result: { created, updated, ids }, productIds: fullRefresh ? null : [...touched], defaultLanguage: lang, settingsChanged: true };
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
    const res = await upsert(
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
      await insertMany(m, tenantId, 'collection_products', ['collection_id', 'product_id', 'position'], want.map((pid, pos) => [cid, pid, pos + 1]));
      if (!res.changed.has(mem.key)) updatedCount += 1;
    }
    s.created.collections = res.created;
    s.updated.collections = updatedCount;
    return Object.fromEntries(res.ids);
  }

  /** Multi-row upsert by key; returns every key's id and what was created or changed. */
}


export type { Translations };
