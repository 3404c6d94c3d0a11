import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import type { Translations } from '../common/db/base.entity.js';
import { isUniqueViolation, managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { convertMinor, fromMinor, toMinor } from '../common/money.js';
import { Page } from '../common/paging/page.js';
import type { PageRequest, SortValue } from '../common/paging/pager.service.js';
import { Pager } from '../common/paging/pager.service.js';
import { DomainEvents } from '../events/domain-events.service.js';
import { DEFAULT_SETTINGS, Tenant, TenantSettings } from '../tenancy/entities/tenant.entity.js';
import { CatalogueChanges } from './catalogue-changes.service.js';
import { collectionClause } from './catalogue-query.js';
import type { AdminProductDto, AdminProductRowDto, AdminVariantDto, CollectionRefDto } from './dto/admin-product.dto.js';
import { ProductDoc, ProductMeta, readProductDocuments, VariantDoc } from './export/catalogue-document.js';
import { loadLookups, ProductWriteState, writeProducts } from './import/catalogue-writer.js';
import { bad, isObj, Json, key as keyOf, obj, trans } from './import/import-input.js';

export const ADMIN_PRODUCT_ORDERS = ['created desc', 'title asc', 'updated desc'] as const;
export type AdminProductOrder = (typeof ADMIN_PRODUCT_ORDERS)[number];

export interface AdminProductFilters {
  published?: boolean;
  archived: boolean;
  vendor?: string[];
  categoryIds?: string[];
  collectionIds?: string[];
  q?: string;
  updatedAtMin?: string;
  createdAtMin?: string;
  order: AdminProductOrder;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Members whose null on PUT means "unchanged" (they have no empty value). */
const KEEP_ON_NULL = new Set(['key', 'published', 'active', 'price', 'tax_rate', 'track_inventory', 'allow_backorder', 'created_at', 'variants']);
const PRODUCT_TRANSLATED = new Set(['title', 'body_html', 'summary_html']);
const VARIANT_TRANSLATED = new Set(['title', 'description', 'description_additional']);
const PRODUCT_MEMBERS = ['key', 'handle', 'title', 'body_html', 'summary_html', 'manufacturer', 'categories', 'flag', 'tags', 'published', 'created_at', 'images', 'ratings'];
const VARIANT_MEMBERS = ['key', 'handle', 'sku', 'title', 'price', 'compare_at_price', 'tax_rate', 'published', 'active', 'color', 'region', 'year', 'size', 'country', 'alcohol_volume', 'grams',
  'option_group', 'description', 'description_additional', 'area', 'quantity_rule', 'custom_fields', 'track_inventory', 'allow_backorder', 'stock'];

/** Positional parameters for one statement (the shape `collectionClause` takes). */
class Params {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

/**
 * The admin catalogue API (issue 18): products and variants read as CONTRACT 6 members plus read-only facts, and
 * changed member by member. Every write merges the request into the stored document and hands the whole product to
 * the import's writer (`writeProducts`: same validation, same SQL), inside `CatalogueChanges.write`, the import's
 * path to the storefront.
 */
@Injectable()
export class AdminProductsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly changes: CatalogueChanges,
    private readonly events: DomainEvents,
    private readonly pager: Pager,
  ) {}

  // ---- reads

  async list(ctx: RequestContext, page: PageRequest, f: AdminProductFilters): Promise<Page<AdminProductRowDto>> {
    const m = managerOf(ctx, this.dataSource);
    const settings = await this.settings(m, ctx.tenantId);
    const params = new Params();
    const t = params.add(ctx.tenantId);
    const where = [`p.tenant_id = ${t}`, f.archived ? 'p.archived_at IS NOT NULL' : 'p.archived_at IS NULL'];
    if (f.published !== undefined) where.push(`p.published = ${params.add(f.published)}`);
    if (f.vendor) where.push(`p.manufacturer_id = ANY(${params.add(f.vendor)}::uuid[])`);
    if (f.categoryIds) {
      where.push(`EXISTS (SELECT 1 FROM categories c WHERE c.tenant_id = p.tenant_id AND c.id = ANY(p.category_ids) AND c.path && ${params.add(f.categoryIds)}::uuid[])`);
    }
    if (f.collectionIds) where.push(await this.collectionFilter(m, ctx.tenantId, f.collectionIds, params, t));
    if (f.q) {
      const like = params.add(`%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      where.push(`(EXISTS (SELECT 1 FROM jsonb_each_text(p.title) tt WHERE tt.value ILIKE ${like}) OR p.handle ILIKE ${like} OR p.key ILIKE ${like}
        OR EXISTS (SELECT 1 FROM variants v WHERE v.tenant_id = p.tenant_id AND v.product_id = p.id AND v.sku ILIKE ${like}))`);
    }
    if (f.updatedAtMin) where.push(`coalesce(p.updated_at, p.created_at) >= ${params.add(f.updatedAtMin)}::timestamptz`);
    if (f.createdAtMin) where.push(`p.created_at >= ${params.add(f.createdAtMin)}::timestamptz`);
    const keys: Array<{ expr: string; dir: 'ASC' | 'DESC' }> =
      f.order === 'title asc'
        ? [{ expr: `coalesce(lower(p.title->>${params.add(settings.default_language)}), '')`, dir: 'ASC' }, { expr: 'p.id', dir: 'ASC' }]
        : f.order === 'updated desc'
          ? [{ expr: 'coalesce(p.updated_at, p.created_at)', dir: 'DESC' }, { expr: 'p.id', dir: 'DESC' }]
          : [{ expr: 'p.created_at', dir: 'DESC' }, { expr: 'p.id', dir: 'DESC' }];
    if (page.after) {
      if (page.after.length !== keys.length) throw AppError.unprocessable('page_info does not match this list');
      const casts = [f.order === 'title asc' ? 'text' : 'timestamptz', 'uuid'];
      const ors = keys.map((k, i) => {
        const ands = keys.slice(0, i).map((e, j) => `${e.expr} = ${params.add(page.after![j])}::${casts[j]}`);
        ands.push(`${k.expr} ${k.dir === 'ASC' ? '>' : '<'} ${params.add(page.after![i])}::${casts[i]}`);
        return `(${ands.join(' AND ')})`;
      });
      where.push(`(${ors.join(' OR ')})`);
    }
    const rows: Array<{ id: string; sort0: Date | string }> = await m.query(
      `SELECT p.id, ${keys[0].expr} AS sort0 FROM products p WHERE ${where.join(' AND ')}
       ORDER BY ${keys.map((k) => `${k.expr} ${k.dir}`).join(', ')} LIMIT ${page.limit + 1}`,
      params.values,
    );
    const position = (r: { id: string; sort0: Date | string }): SortValue[] => [r.sort0 instanceof Date ? r.sort0.toISOString() : r.sort0, r.id];
    const ids = this.pager.page(rows, page, position);
    const summaries = await this.rows(m, ctx.tenantId, ids.items.map((r) => r.id), settings);
    return new Page(ids.items.map((r) => summaries.get(r.id)!), ids.limit, ids.nextPageInfo);
  }

  async get(ctx: RequestContext, id: string): Promise<AdminProductDto> {
    if (!UUID.test(id)) throw AppError.notFound('product');
    const m = managerOf(ctx, this.dataSource);
    const [found] = await readProductDocuments(m, ctx.tenantId, [id]);
    if (!found) throw AppError.notFound('product');
    return this.present(m, ctx.tenantId, found.doc, found.meta);
  }

  // ---- writes

  async create(ctx: RequestContext, body: unknown): Promise<AdminProductDto> {
    const input = this.body(body, 'product');
    return this.write(ctx, async (m, tenantId, settings) => {
      const doc: Json = { ...input, key: input.key === undefined || input.key === null ? randomUUID() : keyOf(input.key, 'product.key') };
      const variants = input.variants === undefined || input.variants === null ? [] : Array.isArray(input.variants) ? input.variants : (() => { throw bad('product.variants', 'must be an array'); })();
      doc.variants = variants.map((v, i) => {
        const vo = obj(v, `product.variants[${i}]`);
        return { ...vo, key: vo.key === undefined || vo.key === null ? randomUUID() : keyOf(vo.key, `product.variants[${i}].key`) };
      });
      await this.claimKey(m, tenantId, 'products', doc.key as string, null, 'product.key');
      for (const [i, v] of (doc.variants as Json[]).entries()) await this.claimKey(m, tenantId, 'variants', v.key as string, null, `product.variants[${i}].key`);
      const id = await this.writeDoc(m, tenantId, settings, doc, { product: () => 'product', variant: (p, j) => `${p}.variants[${j}]` });
      return { id, topic: 'product.created' as const };
    }).then((r) => r.product);
  }

  async update(ctx: RequestContext, id: string, body: unknown): Promise<AdminProductDto> {
    const patch = this.body(body, 'product');
    return this.write(ctx, async (m, tenantId, settings) => {
      const current = await this.lockedDoc(m, tenantId, id);
      const merged = this.mergeProduct(current.doc, patch, settings.default_language);
      const labels = new Map<number, string>();
      if (patch.variants !== undefined && patch.variants !== null) {
        if (!Array.isArray(patch.variants)) throw bad('product.variants', 'must be an array');
        for (const [i, raw] of patch.variants.entries()) {
          const path = `product.variants[${i}]`;
          const v = obj(raw, path);
          let at = -1;
          if (v.id !== undefined && v.id !== null) {
            const vid = typeof v.id === 'string' ? current.meta.variants.findIndex((x) => x.id === v.id) : -1;
            if (vid < 0) throw bad(`${path}.id`, 'names no variant of this product');
            at = vid;
          } else if (typeof v.key === 'string') at = merged.variants.findIndex((x) => x.key === v.key);
          if (at >= 0) {
            const was = merged.variants[at].key;
            merged.variants[at] = this.mergeVariant(merged.variants[at], v, settings.default_language, path);
            if (merged.variants[at].key !== was) await this.claimKey(m, tenantId, 'variants', merged.variants[at].key as string, current.meta.variants[at]?.id ?? null, `${path}.key`);
            labels.set(at, path);
          } else {
            const fresh: Json = { ...v, key: v.key === undefined || v.key === null ? randomUUID() : keyOf(v.key, `${path}.key`) };
            delete fresh.id;
            await this.claimKey(m, tenantId, 'variants', fresh.key as string, null, `${path}.key`);
            labels.set(merged.variants.length, path);
            merged.variants.push(fresh as unknown as VariantDoc);
          }
        }
      }
      if (same(merged, current.doc)) return { id, topic: null };
      if (merged.key !== current.doc.key) await this.claimKey(m, tenantId, 'products', merged.key, id, 'product.key');
      await this.renameKeys(m, tenantId, id, current, merged);
      await this.writeDoc(m, tenantId, settings, merged as unknown as Json, { product: () => 'product', variant: (p, j) => labels.get(j) ?? `${p}.variants[${j}]` });
      return { id, topic: 'product.updated' as const };
    }).then((r) => r.product);
  }

  async createVariant(ctx: RequestContext, productId: string, body: unknown): Promise<AdminVariantDto> {
    const input = this.body(body, 'variant');
    let variantKey = '';
    const out = await this.write(ctx, async (m, tenantId, settings) => {
      const current = await this.lockedDoc(m, tenantId, productId);
      variantKey = input.key === undefined || input.key === null ? randomUUID() : keyOf(input.key, 'variant.key');
      await this.claimKey(m, tenantId, 'variants', variantKey, null, 'variant.key');
      const doc = { ...current.doc, variants: [...current.doc.variants, { ...input, key: variantKey } as unknown as VariantDoc] };
      const at = doc.variants.length - 1;
      await this.writeDoc(m, tenantId, settings, doc as unknown as Json, { product: () => 'product', variant: (p, j) => (j === at ? 'variant' : `${p}.variants[${j}]`) });
      return { id: productId, topic: 'product.updated' as const };
    });
    return out.product.variants.find((v) => v.key === variantKey)!;
  }

  async updateVariant(ctx: RequestContext, productId: string, variantId: string, body: unknown): Promise<AdminVariantDto> {
    const patch = this.body(body, 'variant');
    if (!UUID.test(variantId)) throw AppError.notFound('variant');
    const out = await this.write(ctx, async (m, tenantId, settings) => {
      const current = await this.lockedDoc(m, tenantId, productId);
      const at = current.meta.variants.findIndex((v) => v.id === variantId);
      if (at < 0) throw AppError.notFound('variant');
      const doc: ProductDoc = { ...current.doc, variants: [...current.doc.variants] };
      doc.variants[at] = this.mergeVariant(doc.variants[at], patch, settings.default_language, 'variant');
      if (same(doc, current.doc)) return { id: productId, topic: null };
      if (doc.variants[at].key !== current.doc.variants[at].key) await this.claimKey(m, tenantId, 'variants', doc.variants[at].key, variantId, 'variant.key');
      await this.renameKeys(m, tenantId, productId, current, doc);
      await this.writeDoc(m, tenantId, settings, doc as unknown as Json, { product: () => 'product', variant: (p, j) => (j === at ? 'variant' : `${p}.variants[${j}]`) });
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
      const [{ ordered }] = await m.query(
        `SELECT EXISTS (SELECT 1 FROM order_lines ol WHERE ol.tenant_id = $1 AND (ol.product_id = $2 OR ol.variant_id IN (SELECT v.id FROM variants v WHERE v.tenant_id = $1 AND v.product_id = $2))) AS ordered`,
        [tx.tenantId, id],
      );
      if (ordered) await m.query(`UPDATE products SET published = false, archived_at = now(), import_hash = NULL, updated_at = now() WHERE tenant_id = $1 AND id = $2`, [tx.tenantId, id]);
      else await m.query(`DELETE FROM products WHERE tenant_id = $1 AND id = $2`, [tx.tenantId, id]);
      await this.events.emit(tx, 'product.deleted', { product: { id, key: current.doc.key, archived: !!ordered } });
      return { result: undefined, productIds: [id], defaultLanguage: settings.default_language };
    });
  }

  /** Removes a variant; one with order history is kept, unpublished, as archived. */
  async deleteVariant(ctx: RequestContext, productId: string, variantId: string): Promise<void> {
    if (!UUID.test(variantId)) throw AppError.notFound('variant');
    await this.changes.write(ctx, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      const settings = await this.settings(m, tx.tenantId);
      const current = await this.lockedDoc(m, tx.tenantId, productId);
      if (!current.meta.variants.some((v) => v.id === variantId)) throw AppError.notFound('variant');
      const [{ ordered }] = await m.query(`SELECT EXISTS (SELECT 1 FROM order_lines WHERE tenant_id = $1 AND variant_id = $2) AS ordered`, [tx.tenantId, variantId]);
      if (ordered) await m.query(`UPDATE variants SET published = false, archived_at = now(), import_hash = NULL, updated_at = now() WHERE tenant_id = $1 AND id = $2`, [tx.tenantId, variantId]);
      else await m.query(`DELETE FROM variants WHERE tenant_id = $1 AND id = $2`, [tx.tenantId, variantId]);
      await m.query(`UPDATE products SET updated_at = now() WHERE tenant_id = $1 AND id = $2`, [tx.tenantId, productId]);
      const [after] = await readProductDocuments(m, tx.tenantId, [productId]);
      await this.events.emit(tx, 'product.updated', { product: await this.present(m, tx.tenantId, after.doc, after.meta) });
      return { result: undefined, productIds: [productId], defaultLanguage: settings.default_language };
    });
  }

  // ---- helpers

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
      if (isUniqueViolation(err)) throw AppError.unprocessable(`the change conflicts with existing data: ${(err as { driverError?: { detail?: string } }).driverError?.detail ?? 'duplicate value'}`);
      throw err;
    }
  }

  private body(body: unknown, what: string): Json {
    if (!isObj(body)) throw AppError.unprocessable(`the ${what} must be a JSON object`);
    return body;
  }

  private async settings(m: EntityManager, tenantId: string): Promise<TenantSettings> {
    const tenant = await m.findOneOrFail(Tenant, { where: { id: tenantId } });
    return { ...DEFAULT_SETTINGS, ...tenant.settings };
  }

  /** The product's document, its row locked for the transaction; 404 for an unknown, foreign or archived one. */
  private async lockedDoc(m: EntityManager, tenantId: string, id: string): Promise<{ doc: ProductDoc; meta: ProductMeta }> {
    if (!UUID.test(id)) throw AppError.notFound('product');
    const [row] = await m.query(`SELECT id FROM products WHERE tenant_id = $1 AND id = $2 AND archived_at IS NULL FOR UPDATE`, [tenantId, id]);
    if (!row) throw AppError.notFound('product');
    const [found] = await readProductDocuments(m, tenantId, [id]);
    return found;
  }

  /** Refuses a key another row of the shop holds (the writer upserts by key, so it would take that row over). */
  private async claimKey(m: EntityManager, tenantId: string, table: 'products' | 'variants', key: string, ownId: string | null, path: string): Promise<void> {
    await m.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`${tenantId}/${table}/${key}`]);
    const [hit] = await m.query(`SELECT id FROM ${table} WHERE tenant_id = $1 AND key = $2`, [tenantId, key]);
    if (hit && hit.id !== ownId) throw bad(path, `"${key}" is already the key of another ${table === 'products' ? 'product' : 'variant'}`);
  }

  /** Applies key changes to the stored rows first, so the writer's upsert by key finds them. */
  private async renameKeys(m: EntityManager, tenantId: string, productId: string, current: { doc: ProductDoc; meta: ProductMeta }, next: ProductDoc): Promise<void> {
    if (next.key !== current.doc.key) await m.query(`UPDATE products SET key = $3 WHERE tenant_id = $1 AND id = $2`, [tenantId, productId, next.key]);
    for (const [i, v] of current.meta.variants.entries()) {
      if (next.variants[i] && next.variants[i].key !== v.key) await m.query(`UPDATE variants SET key = $3 WHERE tenant_id = $1 AND id = $2`, [tenantId, v.id, next.variants[i].key]);
    }
  }

  private async writeDoc(m: EntityManager, tenantId: string, settings: TenantSettings, doc: Json, paths: NonNullable<ProductWriteState['paths']>): Promise<string> {
    const state: ProductWriteState = {
      lang: settings.default_language,
      includeTax: settings.prices_include_tax,
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
    return state.productIds[doc.key as string];
  }

  private mergeProduct(current: ProductDoc, patch: Json, lang: string): ProductDoc {
    const next = { ...current, variants: [...current.variants] } as unknown as Json;
    for (const k of PRODUCT_MEMBERS) mergeMember(next, current as unknown as Json, patch, k, PRODUCT_TRANSLATED.has(k), lang, `product.${k}`);
    if (patch.key !== undefined && patch.key !== null) next.key = keyOf(patch.key, 'product.key');
    return next as unknown as ProductDoc;
  }

  private mergeVariant(current: VariantDoc, patch: Json, lang: string, path: string): VariantDoc {
    const next = { ...current } as unknown as Json;
    for (const k of VARIANT_MEMBERS) mergeMember(next, current as unknown as Json, patch, k, VARIANT_TRANSLATED.has(k), lang, `${path}.${k}`);
    if (patch.key !== undefined && patch.key !== null) next.key = keyOf(patch.key, `${path}.key`);
    return next as unknown as VariantDoc;
  }

  /** The admin representation: the document plus ids, names, prices in every currency, stock totals and collections. */
  private async present(m: EntityManager, tenantId: string, doc: ProductDoc, meta: ProductMeta): Promise<AdminProductDto> {
    const currencies: Array<{ code: string; rate: string; precision: number; is_default: boolean }> = await m.query(
      `SELECT code, rate::text AS rate, precision, is_default FROM currencies WHERE tenant_id = $1 ORDER BY is_default DESC, code`,
      [tenantId],
    );
    const base = currencies.find((c) => c.is_default)?.precision ?? 2;
    const convert = (gross: number, c: { rate: string; precision: number }) => fromMinor(convertMinor(toMinor(gross, base), c.rate, base, c.precision), c.precision);
    return {
      id: meta.id,
      key: doc.key,
      handle: doc.handle,
      title: doc.title,
      body_html: doc.body_html,
      summary_html: doc.summary_html,
      manufacturer: doc.manufacturer,
      vendor: meta.vendor,
      categories: doc.categories,
      flag: doc.flag,
      tags: doc.tags,
      published: doc.published,
      archived_at: meta.archivedAt,
      created_at: doc.created_at,
      updated_at: meta.updatedAt,
      images: doc.images,
      ratings: doc.ratings,
      rating: { average: meta.rating, count: meta.ratingCount },
      collections: await this.collectionsOf(m, tenantId, meta.id),
      variants: doc.variants.map((v, i) => {
        const vm = meta.variants[i];
        return {
          id: vm.id,
          ...v,
          inventory_quantity: Object.values(v.stock).reduce((a, b) => a + b, 0),
          prices: currencies.map((c) => ({ currency: c.code, price: convert(vm.gross, c), compare_at_price: vm.compareAtGross === null ? null : convert(vm.compareAtGross, c) })),
          created_at: vm.createdAt,
          updated_at: vm.updatedAt,
        };
      }),
    };
  }

  /** Manual collections that pick the product, and smart ones whose rules it matches now. */
  private async collectionsOf(m: EntityManager, tenantId: string, productId: string): Promise<CollectionRefDto[]> {
    const all: Array<{ id: string; key: string | null; handle: string; collection_type: string; rules_json: string | null; picked: boolean }> = await m.query(
      `SELECT c.id, c.key, c.handle, c.collection_type, c.rules_json,
         EXISTS (SELECT 1 FROM collection_products cp WHERE cp.tenant_id = c.tenant_id AND cp.collection_id = c.id AND cp.product_id = $2) AS picked
       FROM collections c WHERE c.tenant_id = $1 ORDER BY c.created_at, c.id`,
      [tenantId, productId],
    );
    const out: CollectionRefDto[] = [];
    for (const c of all) {
      let member = c.picked;
      if (c.collection_type === 'smart') {
        const params = new Params();
        const t = params.add(tenantId);
        const clause = collectionClause(params, t, { id: c.id, type: 'smart', rulesJson: c.rules_json }, 'ps');
        const [hit] = await m.query(`SELECT 1 FROM product_search ps WHERE ps.tenant_id = ${t} AND ps.product_id = ${params.add(productId)} AND ${clause}`, params.values);
        member = !!hit;
      }
      if (member) out.push({ id: c.id, key: c.key, handle: c.handle, collection_type: c.collection_type });
    }
    return out;
  }

  private async collectionFilter(m: EntityManager, tenantId: string, ids: string[], params: Params, t: string): Promise<string> {
    const rows: Array<{ id: string; collection_type: 'manual' | 'smart'; rules_json: string | null }> = await m.query(
      `SELECT id, collection_type, rules_json FROM collections WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
      [tenantId, ids],
    );
    const parts = rows.map((c) =>
      c.collection_type === 'manual'
        ? `p.id IN (SELECT cp.product_id FROM collection_products cp WHERE cp.tenant_id = ${t} AND cp.collection_id = ${params.add(c.id)}::uuid)`
        : `p.id IN (SELECT ps.product_id FROM product_search ps WHERE ps.tenant_id = ${t} AND ${collectionClause(params, t, { id: c.id, type: 'smart', rulesJson: c.rules_json }, 'ps')})`,
    );
    return parts.length ? `(${parts.join(' OR ')})` : 'false';
  }

  /** List rows: the page's products with their aggregates, in two statements. */
  private async rows(m: EntityManager, tenantId: string, ids: string[], _settings: TenantSettings): Promise<Map<string, AdminProductRowDto>> {
    if (ids.length === 0) return new Map();
    const [currency] = await m.query(`SELECT code FROM currencies WHERE tenant_id = $1 AND is_default`, [tenantId]);
    const rows: Array<{
      id: string; key: string; handle: string | null; title: Translations; published: boolean; archived_at: Date | null; vendor: string | null; categories: Array<{ id: string; key: string }>;
      variants_count: number; min_price: string | null; max_price: string | null; total_stock: string | null; created_at: Date; updated_at: Date | null;
    }> = await m.query(
      `SELECT p.id, p.key, p.handle, p.title, p.published, p.archived_at, mf.name AS vendor,
         coalesce((SELECT json_agg(json_build_object('id', c.id, 'key', c.key) ORDER BY u.n) FROM unnest(p.category_ids) WITH ORDINALITY AS u(id, n)
                   JOIN categories c ON c.tenant_id = p.tenant_id AND c.id = u.id), '[]') AS categories,
         v.variants_count, v.min_price, v.max_price,
         (SELECT sum(sm.delta) FROM stock_movements sm WHERE sm.tenant_id = p.tenant_id AND sm.variant_id IN (SELECT x.id FROM variants x WHERE x.tenant_id = p.tenant_id AND x.product_id = p.id AND x.archived_at IS NULL)) AS total_stock,
         p.created_at, p.updated_at
       FROM products p
       LEFT JOIN manufacturers mf ON mf.tenant_id = p.tenant_id AND mf.id = p.manufacturer_id
       CROSS JOIN LATERAL (SELECT count(*)::int AS variants_count, min(x.price) AS min_price, max(x.price) AS max_price
                           FROM variants x WHERE x.tenant_id = p.tenant_id AND x.product_id = p.id AND x.archived_at IS NULL) v
       WHERE p.tenant_id = $1 AND p.id = ANY($2::uuid[])`,
      [tenantId, ids],
    );
    return new Map(
      rows.map((r) => [
        r.id,
        {
          id: r.id,
          key: r.key,
          handle: r.handle,
          title: r.title,
          published: r.published,
          archived_at: r.archived_at ? new Date(r.archived_at).toISOString() : null,
          vendor: r.vendor,
          categories: r.categories,
          variants_count: r.variants_count,
          min_price: r.min_price === null ? null : Number(r.min_price),
          max_price: r.max_price === null ? null : Number(r.max_price),
          currency: currency?.code ?? '',
          total_stock: Number(r.total_stock ?? 0),
          created_at: new Date(r.created_at).toISOString(),
          updated_at: r.updated_at ? new Date(r.updated_at).toISOString() : null,
        },
      ]),
    );
  }
}

/**
 * One member of a PUT: absent = unchanged; null = cleared (or unchanged where the member has no empty value);
 * translated text merges per language (a plain string sets the default language, `{"de": null}` removes one).
 */
function mergeMember(next: Json, current: Json, patch: Json, k: string, translated: boolean, lang: string, path: string): void {
  if (!(k in patch) || patch[k] === undefined) return;
  const v = patch[k];
  if (v === null) {
    if (KEEP_ON_NULL.has(k)) return;
    next[k] = translated ? {} : null;
    return;
  }
  if (!translated) {
    next[k] = v;
    return;
  }
  const given = trans(v, path, lang);
  const merged: Translations = { ...((current[k] as Translations | undefined) ?? {}), ...given };
  if (isObj(v)) for (const [l, text] of Object.entries(v)) if (text === null) delete merged[l];
  next[k] = merged;
  if (k === 'title' && Object.keys(merged).length === 0) throw bad(path, 'is required');
}

/** Documents equal member by member (object key order ignored). */
function same(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObj(v)) return `{${Object.keys(v).sort().filter((k) => v[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  return JSON.stringify(v ?? null);
}

/** The list's query parameters; a malformed one is 422 naming it. */
export function parseAdminProductFilters(query: Record<string, unknown>): AdminProductFilters {
  const one = (name: string): string | undefined => {
    const v = query[name];
    if (v === undefined || v === '') return undefined;
    if (typeof v !== 'string') throw AppError.unprocessable(`${name} must be given once`);
    return v;
  };
  const bool = (name: string): boolean | undefined => {
    const v = one(name);
    if (v === undefined) return undefined;
    if (v !== 'true' && v !== 'false') throw AppError.unprocessable(`${name} must be true or false`);
    return v === 'true';
  };
  const ids = (name: string): string[] | undefined => {
    const v = one(name);
    if (v === undefined) return undefined;
    const list = v.split(',').map((x) => x.trim()).filter(Boolean);
    if (list.length === 0 || list.length > 100 || list.some((x) => !UUID.test(x))) throw AppError.unprocessable(`${name} must be comma-separated ids`);
    return list;
  };
  const date = (name: string): string | undefined => {
    const v = one(name);
    if (v === undefined) return undefined;
    if (Number.isNaN(Date.parse(v))) throw AppError.unprocessable(`${name} must be an ISO 8601 date-time`);
    return new Date(v).toISOString();
  };
  const q = one('q');
  if (q !== undefined && q.length > 255) throw AppError.unprocessable('q must be at most 255 characters');
  const order = (one('order') ?? 'created desc').trim().replace(/\s+/g, ' ').toLowerCase();
  if (!(ADMIN_PRODUCT_ORDERS as readonly string[]).includes(order)) throw AppError.unprocessable(`order must be one of: ${ADMIN_PRODUCT_ORDERS.join(', ')}`);
  return {
    published: bool('published'),
    archived: bool('archived') ?? false,
    vendor: ids('vendor'),
    categoryIds: ids('category_id'),
    collectionIds: ids('collection_id'),
    q: q?.trim() || undefined,
    updatedAtMin: date('updated_at_min'),
    createdAtMin: date('created_at_min'),
    order: order as AdminProductOrder,
  };
}
