import { DomainEvents } from '../../events/index.js';
import { Injectable, Optional } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { RequestContext } from '../../common/context/request-context.js';
import type { Translations } from '../../common/db/base.entity.js';
import { isUniqueViolation, managerOf } from '../../common/db/tenant-scope.js';
import { AppError } from '../../common/http/app-error.js';
import { AppConfig } from '../../config/app-config.js';
import { tenantSettingsOf, TenantSettings } from '../../tenancy/index.js';
import { setDefaultCurrency, TenancyService, upsertCountries, upsertCurrencies } from '../../tenancy/index.js';
import { arrayProducts, ProductSource, scanNdjson, withLine } from './ndjson-document.js';
import { ndjsonImportLimits } from '../../common/http/json-body.guard.js';
import { checkImportDocument } from './schema-check.js';
import { CatalogueChanges, CatalogueWrite } from '../catalogue-changes.service.js';
import { arr, bad, isObj, Json } from './import-input.js';
import {
  checkPriceCurrency,
  chunks,
  defaultCurrencyOf,
  hash,
  insertMany,
  KindCounts,
  loadLookups,
  upsert,
  UpsertResult,
  writeProducts,
} from './catalogue-writer.js';
import { ImportPlan, planImport } from './import-plan.js';
import type { CollectionRows } from './kind-parsers.js';
import { upsertCollections } from '../../collections/index.js';
import { productCount } from '../catalogue.repository.js';
import { categoryTreeRows, collectionPickIds, deleteCollectionPicks, updateCategoryLinks } from '../repositories/catalogue-import.repository.js';
import { checkProductsWanted, enforceProductQuota } from '../product-quota.js';
import { importTax, importVariantTaxes } from '../../tax/index.js';
import { upsertDestinationRules } from '../../shipping/index.js';
import { SearchSynonymsAdmin, SearchSynonymsService } from '../../search-synonyms/index.js';

export type { KindCounts };

export interface ImportReport {
  created: KindCounts;
  updated: KindCounts;
  ids: Record<string, Record<string, string> | Record<string, Record<string, string>>>;
}

/**
 * The catalogue import of CONTRACT 6: the document is checked against its schema, parsed into a plan of typed rows
 * (`import-plan.ts`, `kind-parsers.ts`), then written kind by kind in one transaction by the batch writers
 * (`catalogue-writer.ts`: multi-row `INSERT ... ON CONFLICT` statements; products in batches, `ndjson-document.ts` PRODUCT_BATCH). Each row carries a hash of its imported content, so an identical re-import
 * updates nothing. Invalid input is a 422 naming the first bad member's path.
 */
@Injectable()
export class CatalogueImportService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly tenancy: TenancyService,
    private readonly changes: CatalogueChanges,
    private readonly events: DomainEvents,
    private readonly synonymsAdmin: SearchSynonymsAdmin,
    private readonly synonyms: SearchSynonymsService,
    @Optional() private readonly config?: AppConfig,
  ) {}

  private get maxProducts(): number {
    return this.config?.TENANT_MAX_PRODUCTS ?? 1_000_000;
  }

  async import(ctx: RequestContext, body: unknown): Promise<ImportReport> {
    if (!isObj(body)) throw AppError.unprocessable('the import body must be a JSON object');
    checkImportDocument(body);
    return this.write(ctx, body, arrayProducts(arr(body.products, 'products')));
  }

  /**
   * The NDJSON form, from a file (the spooled request body, or the CLI's FILE): scanned once (`scanNdjson`: shapes,
   * the product schema, the other members kept), then imported as the document it makes, its products read again
   * from the file batch by batch inside the transaction; a 422 names the line too.
   */
  async importNdjson(ctx: RequestContext, path: string): Promise<ImportReport> {
    const { document, lines, products } = await scanNdjson(path, ndjsonImportLimits(this.config));
    try {
      checkImportDocument(document);
      return await this.write(ctx, document, products);
    } catch (err) {
      throw withLine(err, lines);
    }
  }

  private async write(ctx: RequestContext, body: Json, products: ProductSource): Promise<ImportReport> {
    // the synonyms admin's own scope: a catalogue writer without Shop/search/write does not change search rules
    if (body.search_synonyms !== undefined && body.search_synonyms !== null && ctx.actor.type === 'staff' && !ctx.scopes.has('Shop/search/write'))
      throw AppError.forbidden('the token lacks the scope Shop/search/write, which a document with search_synonyms needs');
    try {
      const report = await this.changes.write(ctx, (tx) => this.run(tx, body, products));
      // the search engine's rules are read again once the import committed (a no-op inside the transaction)
      if (body.search_synonyms !== undefined && body.search_synonyms !== null) await this.synonyms.changed(ctx);
      return report;
    } catch (err) {
      if (isUniqueViolation(err))
        throw AppError.unprocessable(
          `the import conflicts with existing data: ${(err as { driverError?: { detail?: string } }).driverError?.detail ?? 'duplicate value'}`,
        );
      throw err;
    }
  }

  private async run(ctx: RequestContext, body: Json, productsIn: ProductSource): Promise<CatalogueWrite<ImportReport>> {
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

    const current: TenantSettings | null = await tenantSettingsOf(m, tenantId);
    if (!current) throw new Error(`tenant ${tenantId} not found`);
    const plan: ImportPlan = planImport(body, current);
    const { settings, settingsPatch: patch } = plan;
    const lang = settings.default_language;

    // ---- settings
    let fullRefresh = false;
    if (Object.keys(patch).some((k) => JSON.stringify((patch as Json)[k]) !== JSON.stringify((current as unknown as Json)[k]))) {
      await this.tenancy.updateSettings(m, tenantId, patch);
      updated.settings = 1;
      fullRefresh = fullRefresh || (patch.default_language !== undefined && patch.default_language !== current.default_language);
    }

    // ---- taxes (issue 31): settings, categories, zones, rates (before the variants that name a category)
    if (body.tax !== undefined && body.tax !== null) {
      const tax = await importTax(m, tenantId, body.tax);
      for (const [kind, n] of Object.entries(tax.created)) created[kind] = n;
      for (const [kind, n] of Object.entries(tax.updated)) if (kind !== 'tax_settings') updated[kind] = n;
      if (tax.updated.tax_settings) updated.settings = 1;
      ids.tax_categories = tax.ids.tax_categories;
      ids.tax_zones = tax.ids.tax_zones;
    }

    // ---- currencies (then the default one), countries
    const cur = await upsertCurrencies(m, tenantId, plan.currencies);
    count('currencies', cur);
    ids.currencies = idsOf(cur);
    if (plan.defaultCurrency !== null) {
      const code = plan.defaultCurrency;
      const outcome = await setDefaultCurrency(m, tenantId, code);
      if (outcome === 'unknown') throw bad('settings.default_currency', `names no currency of the shop (${code})`);
      if (outcome === 'changed') updated.settings = 1;
    }
    const ctr = await upsertCountries(m, tenantId, plan.countries);
    count('countries', ctr);
    ids.countries = idsOf(ctr);

    // prices are in the default currency: one sent with them must be it (never a price in EUR stored as CHF)
    const currency = await defaultCurrencyOf(m, tenantId);
    arr(body.shipping_methods, 'shipping_methods').forEach((sm, i) =>
      checkPriceCurrency(isObj(sm) ? sm.currency : undefined, `shipping_methods[${i}].currency`, currency),
    );

    // ---- simple kinds
    for (const kind of plan.simple) {
      const r = 'write' in kind.target ? await kind.target.write(m, tenantId, kind.rows) : await upsert(m, tenantId, kind.target, kind.rows);
      count(kind.kind, r);
      ids[kind.kind] = idsOf(r);
      if (kind.kind === 'manufacturers' && r.updated > 0) fullRefresh = true;
    }

    if (plan.destinationRules !== null) {
      const r = await upsertDestinationRules(m, tenantId, plan.destinationRules);
      count('destination_rules', r);
      ids.destination_rules = idsOf(r);
    }

    // ---- facets per dimension
    const facetIds: Record<string, Record<string, string>> = {};
    for (const { dimension: dim, rows } of plan.facets) {
      const r = await upsert(
        m,
        tenantId,
        {
          table: 'facet_values',
          cols: ['dimension', 'key', 'name', 'position', 'import_hash'],
          conflict: '(tenant_id, dimension, key)',
          lookupWhere: `dimension = '${dim}'`,
        },
        rows,
        1,
      );
      count(`facets.${dim}`, r);
      facetIds[dim] = idsOf(r);
    }
    ids.facets = facetIds;

    // ---- custom fields and their options
    const fields = await upsert(m, tenantId, { table: 'custom_fields', cols: ['key', 'label', 'type', 'position', 'import_hash'] }, plan.customFields.fields);
    count('custom_fields', fields);
    ids.custom_fields = idsOf(fields);
    const optRows = plan.customFields.options.map(({ field, values }) => {
      const row = [fields.ids.get(field), ...values];
      return [...row, hash(row)];
    });
    const options = await upsert(
      m,
      tenantId,
      { table: 'custom_field_options', cols: ['field_id', 'key', 'name', 'value', 'position', 'import_hash'] },
      optRows,
      1,
    );
    count('custom_field_options', options);
    ids.custom_field_options = idsOf(options);
    if (fields.updated + options.updated > 0) fullRefresh = true;

    // ---- categories: upsert, then parents and ancestor paths
    const cats = await upsert(
      m,
      tenantId,
      { table: 'categories', cols: ['key', 'name', 'position', 'import_hash'] },
      plan.categories.map((c) => c.row),
    );
    count('categories', cats);
    ids.categories = idsOf(cats);
    if (plan.categories.length > 0) {
      await this.linkCategories(
        m,
        tenantId,
        plan.categories.map((c, i) => ({ key: c.row[0], parent: c.parent, path: `categories[${i}].parent` })),
      );
      if (cats.updated > 0) fullRefresh = true;
    }

    // ---- products and variants, in batches
    const lookups = await loadLookups(m, tenantId);
    const productIds: Record<string, string> = {};
    const variantIds: Record<string, string> = {};
    const touched = new Set<string>();
    checkProductsWanted(productsIn.count, this.maxProducts, 'products');
    const seenProducts = new Set<string>();
    const seenVariants = new Set<string>();
    // one batch held at a time (an NDJSON import reads each from its file as it is written)
    for await (const batch of productsIn.batches()) {
      try {
        await writeProducts(m, tenantId, batch.items, batch.offset, {
          lang,
          includeTax: settings.prices_include_tax,
          currency,
          lookups,
          seenProducts,
          seenVariants,
          productIds,
          variantIds,
          touched,
          created,
          updated,
        });
        await importVariantTaxes(m, tenantId, variantTaxEntries(batch.items, batch.offset, variantIds));
      } catch (err) {
        throw batch.locate(err);
      }
    }
    if (productsIn.count > 0) await enforceProductQuota(() => productCount(m, tenantId), this.maxProducts, 'products');
    ids.products = productIds;
    ids.variants = variantIds;

    // ---- collections
    ids.collections = await this.writeCollections(m, tenantId, plan.collections, { productIds, created, updated });

    // ---- search synonyms (issue 35): upserted by key as POST /admin/search/synonyms/import does, in this transaction
    if (body.search_synonyms !== undefined && body.search_synonyms !== null) {
      const r = await this.synonymsAdmin.import(ctx, { search_synonyms: arr(body.search_synonyms, 'search_synonyms') as never });
      created.search_synonyms = r.created.search_synonyms;
      updated.search_synonyms = r.updated.search_synonyms;
      ids.search_synonyms = r.ids.search_synonyms;
    }

    for (const kind of ['products', 'variants', 'collections']) {
      created[kind] ??= 0;
      updated[kind] ??= 0;
    }
    await this.events.emit(ctx, 'catalogue.imported', { import: { created, updated } });
    return { result: { created, updated, ids }, productIds: fullRefresh ? null : [...touched], defaultLanguage: lang, settingsChanged: true };
  }

  /** Sets parent ids and root-first paths for the whole tree (so moved subtrees follow). */
  private async linkCategories(m: EntityManager, tenantId: string, links: Array<{ key: string; parent: string | null; path: string }>): Promise<void> {
    const rows = await categoryTreeRows(m, tenantId);
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
    for (const chunk of chunks(changes, 1000)) await updateCategoryLinks(m, tenantId, chunk);
  }

  /** Upserts the collections and sets each manual one's picks (product keys of this import, order kept). */
  private async writeCollections(
    m: EntityManager,
    tenantId: string,
    plan: CollectionRows,
    s: { productIds: Record<string, string>; created: KindCounts; updated: KindCounts },
  ): Promise<Record<string, string>> {
    if (plan.rows.length === 0) return {};
    for (const mem of plan.members) {
      mem.products.forEach((k, j) => {
        if (!Object.hasOwn(s.productIds, k)) throw bad(`${mem.path}[${j}]`, `names no product of this import ("${k}")`);
      });
    }
    const res = await upsertCollections(m, tenantId, plan.rows);
    let updatedCount = res.updated;
    for (const mem of plan.members) {
      if (!mem.manual) continue;
      const cid = res.ids.get(mem.key)!;
      const want = [...new Set(mem.products.map((k) => s.productIds[k]))];
      const have = await collectionPickIds(m, tenantId, cid);
      if (have.map((h) => h.product_id).join() === want.join()) continue;
      await deleteCollectionPicks(m, tenantId, cid);
      await insertMany(
        m,
        tenantId,
        'collection_products',
        ['collection_id', 'product_id', 'position'],
        want.map((pid, pos) => [cid, pid, pos + 1]),
      );
      if (!res.changed.has(mem.key)) updatedCount += 1;
    }
    s.created.collections = res.created;
    s.updated.collections = updatedCount;
    return Object.fromEntries(res.ids);
  }
}

export type { Translations };

/** The variants' `tax_category` and `volume_ml` members of an import (only where given), with their ids. */
function variantTaxEntries(
  products: unknown[],
  offset: number,
  variantIds: Record<string, string>,
): Array<{ variantId: string; category: string | null | undefined; volumeMl: number | null | undefined; path: string }> {
  const out: Array<{ variantId: string; category: string | null | undefined; volumeMl: number | null | undefined; path: string }> = [];
  products.forEach((p, i) => {
    const variants = isObj(p) && Array.isArray(p.variants) ? p.variants : [];
    variants.forEach((v: unknown, j: number) => {
      if (!isObj(v) || typeof v.key !== 'string' || (v.tax_category === undefined && v.volume_ml === undefined)) return;
      const variantId = variantIds[v.key];
      if (!variantId) return;
      const path = `products[${offset + i}].variants[${j}]`;
      if (v.tax_category !== undefined && v.tax_category !== null && typeof v.tax_category !== 'string')
        throw bad(`${path}.tax_category`, 'must be a string or null');
      out.push({ variantId, category: v.tax_category as string | null | undefined, volumeMl: v.volume_ml as number | null | undefined, path });
    });
  });
  return out;
}
