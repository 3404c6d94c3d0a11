import { Injectable, Optional } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { isUniqueViolation, managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { Page } from '../common/paging/page.js';
import type { PageRequest } from '../common/paging/pager.service.js';
import { Pager } from '../common/paging/pager.service.js';
import { DomainEvents } from '../events/index.js';
import { Extensions, OrderHistory } from '../extensions/index.js';
import { AppConfig } from '../config/app-config.js';
import { importVariantTaxes, variantTaxMembers } from '../tax/index.js';
import { tenantSettingsOf, TenantSettings } from '../tenancy/index.js';
import { AdminProductFilters, isUuid } from './admin-product-filters.js';
import { mergeProduct, mergeVariant, sameDocument } from './admin-product-merge.js';
import { mapAdminProduct } from './admin-product.mapper.js';
import { collectionsOfProduct, listAdminProducts, shopCurrencies } from './repositories/admin-product-reads.repository.js';
import {
  archiveProduct,
  archiveVariant,
  claimedKeyHolder,
  deleteProduct,
  deleteVariant,
  lockLiveProduct,
  renameProductKey,
  renameVariantKey,
  touchProduct,
  variantIdsOfProduct,
} from './repositories/admin-products.repository.js';
import { productCount } from './catalogue.repository.js';
import { CatalogueChanges } from './catalogue-changes.service.js';
import type { AdminProductDto, AdminProductRowDto, AdminVariantDto } from './dto/admin-product.dto.js';
import { ProductDoc, ProductMeta, readProductDocuments, VariantDoc } from './export/catalogue-document.js';
import { checkPriceCurrency, defaultCurrencyOf, loadLookups, ProductWriteState, writeProducts } from './import/catalogue-writer.js';
import { bad, isObj, Json } from './import/import-input.js';
import { CatalogueSchema, checkCatalogueBody } from './import/schema-check.js';
import { enforceProductQuota } from './product-quota.js';

/**
 * The admin catalogue API (issue 18): products and variants read as CONTRACT 6 members plus read-only facts, and
 * changed member by member. A body is checked against the import's member schemas (`ImportProduct`, `ImportVariant`,
 * and for POST `AdminProductCreate`/`AdminVariantCreate`), merged into the stored document (`admin-product-merge.ts`)
 * and the whole product handed to the import's writer (`writeProducts`: same checks of references, same SQL), inside
 * `CatalogueChanges.write`, the import's path to the storefront. Reads: `repositories/admin-product-reads.repository.ts`; shapes:
 * `admin-product.mapper.ts`; list query: `admin-product-filters.ts`.
 */
@Injectable()
export class AdminProductsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly changes: CatalogueChanges,
    private readonly events: DomainEvents,
    private readonly pager: Pager,
    private readonly extensions: Extensions,
    @Optional() private readonly config?: AppConfig,
  ) {}

  // ---- reads

  async list(ctx: RequestContext, page: PageRequest, f: AdminProductFilters): Promise<Page<AdminProductRowDto>> {
    const m = managerOf(ctx, this.dataSource);
    return listAdminProducts(m, this.pager, ctx.tenantId, page, f, await this.settings(m, ctx.tenantId));
  }

  async get(ctx: RequestContext, id: string): Promise<AdminProductDto> {
    if (!isUuid(id)) throw AppError.notFound('product');
    const m = managerOf(ctx, this.dataSource);
    const [found] = await readProductDocuments(m, ctx.tenantId, [id]);
    if (!found) throw AppError.notFound('product');
    return this.present(m, ctx.tenantId, found.doc, found.meta);
  }

  // ---- writes

  async create(ctx: RequestContext, body: unknown): Promise<AdminProductDto> {
    const input = this.body(body, 'product', 'AdminProductCreate');
    return this.write(ctx, async (m, tenantId, settings) => {
      const doc: Json = { ...input, key: (input.key as string | null | undefined) ?? randomUUID() };
      doc.variants = ((input.variants ?? []) as Json[]).map((v) => ({ ...v, key: (v.key as string | null | undefined) ?? randomUUID() }));
      await this.claimKey(m, tenantId, 'products', doc.key as string, null, 'product.key');
      for (const [i, v] of (doc.variants as Json[]).entries())
        await this.claimKey(m, tenantId, 'variants', v.key as string, null, `product.variants[${i}].key`);
      const id = await this.writeDoc(m, tenantId, settings, doc, { product: () => 'product', variant: (p, j) => `${p}.variants[${j}]` });
      await enforceProductQuota(() => productCount(m, tenantId), this.config?.TENANT_MAX_PRODUCTS ?? 1_000_000, 'product');
      return { id, topic: 'product.created' as const };
    }).then((r) => r.product);
  }

  async update(ctx: RequestContext, id: string, body: unknown): Promise<AdminProductDto> {
    const patch = this.body(body, 'product', 'ImportProduct');
    return this.write(ctx, async (m, tenantId, settings) => {
      const current = await this.lockedDoc(m, tenantId, id);
      const merged = mergeProduct(current.doc, patch, settings.default_language);
      const labels = new Map<number, string>();
      if (patch.variants !== undefined && patch.variants !== null) {
        for (const [i, v] of (patch.variants as Json[]).entries()) {
          const path = `product.variants[${i}]`;
          checkPriceCurrency(v.currency, `${path}.currency`, await defaultCurrencyOf(m, tenantId));
          let at = -1;
          if (v.id !== undefined && v.id !== null) {
            const vid = current.meta.variants.findIndex((x) => x.id === String(v.id).toLowerCase());
            if (vid < 0) throw bad(`${path}.id`, 'names no variant of this product');
            at = vid;
          } else if (typeof v.key === 'string') at = merged.variants.findIndex((x) => x.key === v.key);
          if (at >= 0) {
            const was = merged.variants[at].key;
            merged.variants[at] = mergeVariant(merged.variants[at], v, settings.default_language, path);
            if (merged.variants[at].key !== was)
              await this.claimKey(m, tenantId, 'variants', merged.variants[at].key as string, current.meta.variants[at]?.id ?? null, `${path}.key`);
            labels.set(at, path);
          } else {
            const fresh: Json = { ...v, key: (v.key as string | null | undefined) ?? randomUUID() };
            delete fresh.id;
            await this.claimKey(m, tenantId, 'variants', fresh.key as string, null, `${path}.key`);
            labels.set(merged.variants.length, path);
            merged.variants.push(fresh as unknown as VariantDoc);
          }
        }
      }
      if (sameDocument(withoutNullTax(merged), withoutNullTax(current.doc))) return { id, topic: null };
      if (merged.key !== current.doc.key) await this.claimKey(m, tenantId, 'products', merged.key, id, 'product.key');
      await this.renameKeys(m, tenantId, id, current, merged);
      await this.writeDoc(m, tenantId, settings, merged as unknown as Json, {
        product: () => 'product',
        variant: (p, j) => labels.get(j) ?? `${p}.variants[${j}]`,
      });
      return { id, topic: 'product.updated' as const };
    }).then((r) => r.product);
  }

  async createVariant(ctx: RequestContext, productId: string, body: unknown): Promise<AdminVariantDto> {
    const input = this.body(body, 'variant', 'AdminVariantCreate');
    let variantKey = '';
    const out = await this.write(ctx, async (m, tenantId, settings) => {
      const current = await this.lockedDoc(m, tenantId, productId);
      variantKey = (input.key as string | null | undefined) ?? randomUUID();
      await this.claimKey(m, tenantId, 'variants', variantKey, null, 'variant.key');
      const doc = { ...current.doc, variants: [...current.doc.variants, { ...input, key: variantKey } as unknown as VariantDoc] };
      const at = doc.variants.length - 1;
      await this.writeDoc(m, tenantId, settings, doc as unknown as Json, {
        product: () => 'product',
        variant: (p, j) => (j === at ? 'variant' : `${p}.variants[${j}]`),
      });
      return { id: productId, topic: 'product.updated' as const };
    });
    return out.product.variants.find((v) => v.key === variantKey)!;
  }

  async updateVariant(ctx: RequestContext, productId: string, variantId: string, body: unknown): Promise<AdminVariantDto> {
    const patch = this.body(body, 'variant', 'ImportVariant');
    if (!isUuid(variantId)) throw AppError.notFound('variant');
    const out = await this.write(ctx, async (m, tenantId, settings) => {
      const current = await this.lockedDoc(m, tenantId, productId);
      const at = current.meta.variants.findIndex((v) => v.id === variantId);
      if (at < 0) throw AppError.notFound('variant');
      checkPriceCurrency(patch.currency, 'variant.currency', await defaultCurrencyOf(m, tenantId));
      const doc: ProductDoc = { ...current.doc, variants: [...current.doc.variants] };
      doc.variants[at] = mergeVariant(doc.variants[at], patch, settings.default_language, 'variant');
      if (sameDocument(withoutNullTax(doc), withoutNullTax(current.doc))) return { id: productId, topic: null };
      if (doc.variants[at].key !== current.doc.variants[at].key) await this.claimKey(m, tenantId, 'variants', doc.variants[at].key, variantId, 'variant.key');
      await this.renameKeys(m, tenantId, productId, current, doc);
      await this.writeDoc(m, tenantId, settings, doc as unknown as Json, {
        product: () => 'product',
        variant: (p, j) => (j === at ? 'variant' : `${p}.variants[${j}]`),
      });
      return { id: productId, topic: 'product.updated' as const };
    });
    return out.product.variants.find((v) => v.id === variantId)!;
  }

  /** Removes a product; one with order history is kept, unpublished, as archived (its order lines keep their snapshot). */
  async delete(ctx: RequestContext, id: string): Promise<void> {
    await this.changes.write(ctx, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      const settings = await this.settings(m, tx.tenantId);
      const current = await this.lockedDoc(m, tx.tenantId, id);
      const variants = await variantIdsOfProduct(m, tx.tenantId, id);
      const ordered = await this.ordered(
        m,
        tx.tenantId,
        [id],
        variants.map((v) => v.id),
      );
      if (ordered) await archiveProduct(m, tx.tenantId, id);
      else await deleteProduct(m, tx.tenantId, id);
      await this.events.emit(tx, 'product.deleted', { product: { id, key: current.doc.key, archived: !!ordered } });
      return { result: undefined, productIds: [id], defaultLanguage: settings.default_language };
    });
  }

  /** Removes a variant; one with order history is kept, unpublished, as archived. */
  async deleteVariant(ctx: RequestContext, productId: string, variantId: string): Promise<void> {
    if (!isUuid(variantId)) throw AppError.notFound('variant');
    await this.changes.write(ctx, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      const settings = await this.settings(m, tx.tenantId);
      const current = await this.lockedDoc(m, tx.tenantId, productId);
      if (!current.meta.variants.some((v) => v.id === variantId)) throw AppError.notFound('variant');
      const ordered = await this.ordered(m, tx.tenantId, [], [variantId]);
      if (ordered) await archiveVariant(m, tx.tenantId, variantId);
      else await deleteVariant(m, tx.tenantId, variantId);
      await touchProduct(m, tx.tenantId, productId);
      const [after] = await readProductDocuments(m, tx.tenantId, [productId]);
      await this.events.emit(tx, 'product.updated', { product: await this.present(m, tx.tenantId, after.doc, after.meta) });
      return { result: undefined, productIds: [productId], defaultLanguage: settings.default_language };
    });
  }

  // ---- helpers

  /** Whether orders name these products or variants (the checkout's `OrderHistory`; none: nothing is ordered). */
  private ordered(m: EntityManager, tenantId: string, productIds: string[], variantIds: string[]): Promise<boolean> {
    return this.extensions.one(OrderHistory)?.anyOrdered(m, tenantId, { productIds, variantIds }) ?? Promise.resolve(false);
  }

  /** One write: a transaction through `CatalogueChanges` (search rows, caches), the event, and the product as it is now. */
  private async write(
    ctx: RequestContext,
    work: (m: EntityManager, tenantId: string, settings: TenantSettings) => Promise<{ id: string; topic: 'product.created' | 'product.updated' | null }>,
  ): Promise<{ product: AdminProductDto }> {
    try {
      return await this.changes.write(ctx, async (tx) => {
        const m = managerOf(tx, this.dataSource);
        const settings = await this.settings(m, tx.tenantId);
        const { id, topic } = await work(m, tx.tenantId, settings);
        const [found] = await readProductDocuments(m, tx.tenantId, [id]);
        const product = await this.present(m, tx.tenantId, found.doc, found.meta);
        if (topic) await this.events.emit(tx, topic, { product });
        return { result: { product }, productIds: topic ? [id] : [], defaultLanguage: settings.default_language };
      });
    } catch (err) {
      if (isUniqueViolation(err))
        throw AppError.unprocessable(
          `the change conflicts with existing data: ${(err as { driverError?: { detail?: string } }).driverError?.detail ?? 'duplicate value'}`,
        );
      throw err;
    }
  }

  /** The body checked against its published schema (the import's member schemas): 422 naming the member. */
  private body(body: unknown, what: 'product' | 'variant', schema: CatalogueSchema): Json {
    if (!isObj(body)) throw AppError.unprocessable(`the ${what} must be a JSON object`);
    checkCatalogueBody(schema, body, what);
    return body;
  }

  private async settings(m: EntityManager, tenantId: string): Promise<TenantSettings> {
    const settings = await tenantSettingsOf(m, tenantId);
    if (!settings) throw new Error(`tenant ${tenantId} not found`);
    return settings;
  }

  /** The product's document, its row locked for the transaction; 404 for an unknown, foreign or archived one. */
  private async lockedDoc(m: EntityManager, tenantId: string, id: string): Promise<{ doc: ProductDoc; meta: ProductMeta }> {
    if (!isUuid(id)) throw AppError.notFound('product');
    if (!(await lockLiveProduct(m, tenantId, id))) throw AppError.notFound('product');
    const [found] = await readProductDocuments(m, tenantId, [id]);
    return { doc: await this.withTaxMembers(m, tenantId, found.doc, found.meta), meta: found.meta };
  }

  /**
   * The document with each variant's `tax_category` and `volume_ml` where set (kept by the tax module); a variant
   * without them has neither member, so a shop that uses no taxes by destination answers as before.
   */
  private async withTaxMembers(m: EntityManager, tenantId: string, doc: ProductDoc, meta: ProductMeta): Promise<ProductDoc> {
    const taxes = await variantTaxMembers(
      m,
      tenantId,
      meta.variants.map((v) => v.id),
    );
    return { ...doc, variants: doc.variants.map((v, i) => withoutNullTaxOf({ ...v, ...taxes.get(meta.variants[i].id) })) };
  }

  /** Refuses a key another row of the shop holds (the writer upserts by key, so it would take that row over). */
  private async claimKey(m: EntityManager, tenantId: string, table: 'products' | 'variants', key: string, ownId: string | null, path: string): Promise<void> {
    const holder = await claimedKeyHolder(m, tenantId, table, key);
    if (holder !== undefined && holder !== ownId) throw bad(path, `"${key}" is already the key of another ${table === 'products' ? 'product' : 'variant'}`);
  }

  /** Applies key changes to the stored rows first, so the writer's upsert by key finds them. */
  private async renameKeys(
    m: EntityManager,
    tenantId: string,
    productId: string,
    current: { doc: ProductDoc; meta: ProductMeta },
    next: ProductDoc,
  ): Promise<void> {
    if (next.key !== current.doc.key) await renameProductKey(m, tenantId, productId, next.key);
    for (const [i, v] of current.meta.variants.entries()) {
      if (next.variants[i] && next.variants[i].key !== v.key) await renameVariantKey(m, tenantId, v.id, next.variants[i].key);
    }
  }

  private async writeDoc(
    m: EntityManager,
    tenantId: string,
    settings: TenantSettings,
    doc: Json,
    paths: NonNullable<ProductWriteState['paths']>,
  ): Promise<string> {
    const state: ProductWriteState = {
      lang: settings.default_language,
      includeTax: settings.prices_include_tax,
      currency: await defaultCurrencyOf(m, tenantId),
      lookups: await loadLookups(m, tenantId),
      seenProducts: new Set(),
      seenVariants: new Set(),
      productIds: {},
      variantIds: {},
      touched: new Set(),
      created: {},
      updated: {},
      stockReason: 'admin',
      paths,
    };
    await writeProducts(m, tenantId, [doc], 0, state);
    // each variant's tax category and volume (issue 31), stored by the tax module as the import does
    const entries = (doc.variants as Json[]).flatMap((v, j) =>
      v.tax_category === undefined && v.volume_ml === undefined
        ? []
        : [
            {
              variantId: state.variantIds[v.key as string],
              category: v.tax_category as string | null | undefined,
              volumeMl: v.volume_ml as number | null | undefined,
              path: paths.variant(paths.product(0), j),
            },
          ],
    );
    await importVariantTaxes(m, tenantId, entries);
    return state.productIds[doc.key as string];
  }

  /** The admin representation of a stored product (`admin-product.mapper.ts`). */
  private async present(m: EntityManager, tenantId: string, doc: ProductDoc, meta: ProductMeta): Promise<AdminProductDto> {
    const full = await this.withTaxMembers(m, tenantId, doc, meta);
    return mapAdminProduct(full, meta, await shopCurrencies(m, tenantId), await collectionsOfProduct(m, tenantId, meta.id));
  }
}

/** A variant without its unset (null) `tax_category` and `volume_ml`: null and absent mean the same there. */
function withoutNullTaxOf<T extends { tax_category?: string | null; volume_ml?: number | null }>(v: T): T {
  const out = { ...v };
  if (out.tax_category === null) delete out.tax_category;
  if (out.volume_ml === null) delete out.volume_ml;
  return out;
}

/** The document with `withoutNullTaxOf` applied to each variant (for comparing a merged PUT with the stored one). */
function withoutNullTax(doc: ProductDoc): ProductDoc {
  return { ...doc, variants: doc.variants.map(withoutNullTaxOf) };
}
