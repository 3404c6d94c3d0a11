import { Injectable, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ImageDto } from '../collections/index.js';
import { ReadReplicas } from '../database/read-replicas.js';
import type { RequestContext } from '../common/context/request-context.js';
import type { Translations } from '../common/db/base.entity.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { translate } from '../common/i18n.js';
import { convertMinor, fromMinor, toMinor } from '../pricing/index.js';
import { categoryPathOf } from './category-path.js';
import type { CustomFieldDto, FacetRefDto, ProductDetailDto, ProductListDto, VariantDto } from './dto/catalogue.dto.js';
import { FacetNameSnapshot, Snapshot } from './facet-name-snapshot.service.js';
import { ProductJsonCache } from '../catalogue-search/index.js';
import { CatalogueSearch, Extensions, type VariantStock } from '../extensions/index.js';
import {
  productImageRows,
  productJsonRows,
  variantRowsOfProduct,
  variantRowsOfProducts,
  visibleProductIds,
  type ProductJsonRow as ProductRow,
  type ProductJsonVariantRow as VariantRow,
} from './repositories/product-json.repository.js';
import { fixedListJson, ListJson, listArrayParts, listJsonBytes, parseListJson, toListJson } from './list-json.js';
import { serializedArray } from './preserialized-json.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const BLANK_IMAGE: ImageDto = { id: null, src: null, preview_src: null, alt: null, position: 0, width: 0, height: 0 };

/**
 * Storefront product JSON: the list projection and the detail of products, per product from `ProductJsonCache`
 * (filled from the database on a miss: the request's replica when it has replayed the product's last change, else
 * the primary), with the catalogue engine's live availability and on-hand overlaid.
 */
@Injectable()
export class ProductJsonService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly snapshot: FacetNameSnapshot,
    private readonly extensions: Extensions,
    private readonly productCache: ProductJsonCache,
    @Optional() private readonly replicas?: ReadReplicas,
  ) {}

  /** The catalogue engine: the `CatalogueSearch` extension point's implementation (the built-in one unless replaced). */
  private get search(): CatalogueSearch {
    return this.extensions.one(CatalogueSearch)!;
  }

  /**
   * The storefront list projection of these products, in the given order, for other modules (the wishlist).
   * Products without a visible variant (unpublished, or every variant hidden) are left out.
   */
  async listProjection(ctx: RequestContext, ids: string[]): Promise<ProductListDto[]> {
    if (ids.length === 0) return [];
    const visible = new Set(await visibleProductIds(managerOf(ctx, this.dataSource), ctx.tenantId, ids));
    return this.hydrateList(
      ctx,
      ids.filter((id) => visible.has(id)),
    );
  }

  /**
   * The list projection of a page, as bytes: each product's list JSON from `ProductJsonCache` (per product,
   * language, currency and name snapshot; filled on a miss, see `fillContext`) kept as a `ListJson` with holes for
   * the stock, filled with the index's live availability and on-hand of each variant; with `q` only the matching
   * variants are listed (and priced). The result is a serialized array (`serializedArray`): the response splices
   * its bytes, nothing else reads it.
   */
  async hydratePage(ctx: RequestContext, snap: Snapshot, rows: Array<{ id: string; variantIds: string[] | null }>): Promise<ProductListDto[]> {
    if (rows.length === 0) return [];
    const cur = ctx.activeCurrency;
    const keyOf = (id: string) => `${ctx.tenantId}|${id}|list|${ctx.language}/${ctx.defaultLanguage}|${cur.code}/${cur.rate}/${cur.precision}|${snap.at}`;
    const cached = new Map<string, ListJson>();
    const missing: string[] = [];
    for (const r of rows) {
      const hit = this.productCache.get<ListJson>(keyOf(r.id));
      if (hit) cached.set(r.id, hit);
      else missing.push(r.id);
    }
    if (missing.length > 0) {
      // the holes for the stock are filled from the index below: the fill does not sum the stock ledger
      for (const p of await this.hydrateList(this.fillContext(ctx, missing), missing, false)) {
        const j = toListJson(p);
        cached.set(p.id, j);
        this.productCache.set(keyOf(p.id), ctx.tenantId, p.id, j, listJsonBytes(j));
      }
    }
    const stock = await this.search.stock(
      ctx,
      [...cached.values()].flatMap((j) => j.variantIds),
    );
    const items: ListJson[] = [];
    for (const r of rows) {
      const j = cached.get(r.id);
      if (!j) continue; // gone since the index answered
      if (!r.variantIds || j.variantIds.every((id) => r.variantIds!.includes(id))) items.push(j);
      else items.push(fixedListJson(onlyVariants(parseListJson(j, stock), r.variantIds)));
    }
    const { parts, digest } = listArrayParts(items, stock);
    return serializedArray<ProductListDto>(parts, digest);
  }

  /**
   * Products of a page: one statement for the products (flag, first image, visible variant count), one for their
   * variants, with their on-hand summed from the stock ledger unless `onHand` is false (then 0: the caller overlays
   * the index's live stock).
   */
  private async hydrateList(ctx: RequestContext, ids: string[], onHand = true): Promise<ProductListDto[]> {
    if (ids.length === 0) return [];
    const snap = await this.snapshot.get(ctx.tenantId);
    const [products, variants] = await Promise.all([
      this.productRows(ctx, ids, true),
      variantRowsOfProducts(managerOf(ctx, this.dataSource), ctx.tenantId, ids, onHand),
    ]);
    const byProduct = groupBy(variants, (v) => v.product_id);
    // a product gone since the index answered (a change not yet applied here) is left out
    return ids
      .filter((id) => products.has(id))
      .map((id) => {
        const p = products.get(id)!;
        const vs = (byProduct.get(id) ?? []).map((v) => this.mapVariant(ctx, snap, v, Number(v.on_hand ?? 0), false));
        const by = byVariants(vs);
        return {
          id,
          handle: p.handle,
          title: translate(p.title, ctx),
          body_html: translate(p.body_html, ctx),
          image: p.image ?? null,
          available: by.available,
          currency: ctx.activeCurrency.code,
          price_min: by.price_min,
          price_max: by.price_max,
          variants_count: p.variants_count ?? 0,
          manufacturer: this.manufacturerOf(snap, p.manufacturer_id),
          flag: { name: p.flag_name ? translate(p.flag_name, ctx) : null, color: p.flag_color },
          rating: Number(p.rating),
          rating_count: p.rating_count,
          custom_fields: by.custom_fields,
          variants: vs,
        };
      });
  }

  /** GET /products/{id}: visible per the index; the detail JSON from `ProductJsonCache` with live stock overlaid. */
  async product(ctx: RequestContext, id: string): Promise<ProductDetailDto> {
    if (!UUID.test(id)) throw AppError.notFound('product');
    const [visible, snap] = await Promise.all([this.search.visible(ctx, [id.toLowerCase()]), this.snapshot.get(ctx.tenantId)]);
    id = id.toLowerCase();
    if (!visible.has(id)) throw AppError.notFound('product');
    const cur = ctx.activeCurrency;
    const key = `${ctx.tenantId}|${id}|detail|${ctx.language}/${ctx.defaultLanguage}|${cur.code}/${cur.rate}/${cur.precision}|${snap.at}`;
    let detail = this.productCache.get<ProductDetailDto>(key);
    if (!detail) {
      detail = await this.loadProduct(this.fillContext(ctx, [id]), id, snap);
      this.productCache.set(key, ctx.tenantId, id, detail, JSON.stringify(detail).length * 2);
    }
    const stock = await this.search.stock(
      ctx,
      detail.variants.map((v) => v.id),
    );
    const variants = detail.variants.map((v) => withStock(v, stock.get(v.id)));
    return { ...detail, variants, available: variants.some((v) => v.available) };
  }

  /**
   * Where a cache fill reads: the request's replica when it has replayed the WAL up to the products' last change as
   * the engine knows it (`changeLsn`: the index's build snapshot, or the statement that re-read a changed product;
   * `ReadReplicas.mayServe` compares it with the replica's replay position from its last health check), else the
   * primary. Without a replica bound, the context reads the primary anyway.
   */
  private fillContext(ctx: RequestContext, productIds: string[]): RequestContext {
    if (!ctx.manager || !this.replicas) return ctx;
    return this.replicas.mayServe(ctx.manager, this.search.changeLsn(ctx.tenantId, productIds)) ? ctx : onPrimary(ctx);
  }

  private async loadProduct(ctx: RequestContext, id: string, snap: Snapshot): Promise<ProductDetailDto> {
    const m = managerOf(ctx, this.dataSource);
    const [variants, products, imageRows] = await Promise.all([
      variantRowsOfProduct(m, ctx.tenantId, id),
      this.productRows(ctx, [id], false),
      productImageRows(m, ctx.tenantId, id),
    ]);
    if (variants.length === 0) throw AppError.notFound('product');
    const p = products.get(id)!;
    const vs = variants.map((v) => this.mapVariant(ctx, snap, v, Number(v.on_hand ?? 0), true));
    const images = imageRows.map((i) => ({ id: i.id, src: i.src, preview_src: i.src, alt: i.alt, position: i.position, width: i.width, height: i.height }));
    const path = categoryPathOf(p.category_ids, (cid) => snap.entries.get(cid)?.path);
    const by = byVariants(vs);
    const manufacturer = this.manufacturerOf(snap, p.manufacturer_id);
    return {
      id,
      handle: p.handle,
      title: translate(p.title, ctx),
      body_html: translate(p.body_html, ctx),
      summary_html: translate(p.summary_html, ctx),
      // SPEC Image.id is a uuid: without images the blank image carries the product's id (as collections use their own)
      image: images[0] ?? { ...BLANK_IMAGE, id },
      images,
      available: by.available,
      // SPEC: vendor is a string (not nullable): "" without a manufacturer
      vendor: manufacturer.name ?? '',
      rating: Number(p.rating),
      rating_count: p.rating_count,
      currency: ctx.activeCurrency.code,
      price_min: by.price_min,
      price_max: by.price_max,
      manufacturer,
      category_path: path.map((cid) => ({ id: cid, name: snap.entries.has(cid) ? nameOf(snap.entries.get(cid)!.name, ctx) : null })),
      flag: { name: p.flag_name ? translate(p.flag_name, ctx) : null, color: p.flag_color },
      custom_fields: by.custom_fields,
      variants: vs,
    };
  }

  /** Product rows; `listed` adds the first image and the visible variant count (from the rollup). */
  private async productRows(ctx: RequestContext, ids: string[], listed: boolean): Promise<Map<string, ProductRow>> {
    const rows = await productJsonRows(managerOf(ctx, this.dataSource), ctx.tenantId, ids, listed);
    return new Map(rows.map((r) => [r.id, r]));
  }

  private manufacturerOf(snap: Snapshot, id: string | null): { id: string | null; name: string | null; logo_url: string | null } {
    if (!id) return { id: null, name: null, logo_url: null };
    const e = snap.entries.get(id);
    return { id, name: e ? (e.name['*'] ?? null) : null, logo_url: e?.logoUrl ?? null };
  }

  /** A visible variant in the active currency; the list view leaves tax_rate, alcohol_volume and option_group at defaults. */
  mapVariant(ctx: RequestContext, snap: Snapshot, v: VariantRow, onHand: number, full: boolean): VariantDto {
    const cur = ctx.activeCurrency;
    const money = (amount: string) => fromMinor(convertMinor(toMinor(amount, 4), cur.rate, 4, cur.precision), cur.precision);
    const price = money(v.gross);
    const compare = v.compare_at_gross === null ? 0 : money(v.compare_at_gross);
    const ref = (id: string | null): FacetRefDto | null => (id ? { id, name: snap.entries.has(id) ? nameOf(snap.entries.get(id)!.name, ctx) : null } : null);
    const name = (id: string | null) => (id ? (ref(id)?.name ?? null) : null);
    const options = v.option_ids.map((oid) => {
      const e = snap.entries.get(oid);
      const field = e?.fieldId ? snap.fields.get(e.fieldId) : undefined;
      return {
        field,
        option: { field_key: field?.key ?? '', field_label: field ? translate(field.label, ctx) : null, id: oid, name: e ? nameOf(e.name, ctx) : null },
      };
    });
    const customFields: CustomFieldDto[] = [];
    const byField = groupBy(
      options.filter((o) => o.field),
      (o) => o.field!.id,
    );
    for (const [, list] of [...byField].sort((a, b) => a[1][0].field!.position - b[1][0].field!.position)) {
      const field = list[0].field!;
      customFields.push({ key: field.key, label: translate(field.label, ctx), value: list.map((o) => o.option.name ?? '').join(', '), type: field.type });
    }
    return {
      id: v.id,
      product_id: v.product_id,
      handle: v.handle,
      title: translate(v.title, ctx),
      sku: v.sku,
      option_group: full ? v.option_group : null,
      price,
      net_price: money(v.net),
      compare_at_price: compare > price ? compare : 0,
      lowest_price_30_days: compare > price && v.lowest_prior !== null ? money(v.lowest_prior) : null,
      tax_rate: full ? Number(v.tax_rate) : 0,
      available: v.available,
      inventory_quantity: onHand,
      description: translate(v.description, ctx),
      description_additional: translate(v.description_additional, ctx),
      year: name(v.year_id),
      size: name(v.size_id),
      area: v.area,
      country: name(v.country_id),
      alcohol_volume: full && v.alcohol_volume !== null ? Number(v.alcohol_volume) : null,
      quantity_rule: { min: Number(v.quantity_min), max: v.quantity_max === null ? null : Number(v.quantity_max), increment: Number(v.quantity_increment) },
      custom_fields: customFields,
      factsheet_url: `/storefront/factsheets/${v.id}.pdf`,
      facets: { color: ref(v.color_id), region: ref(v.region_id), vintage: ref(v.year_id), size: ref(v.size_id), options: options.map((o) => o.option) },
    };
  }
}

/** The context without a replica or transaction manager: cache fills read the primary (never a lagging replica). */
function onPrimary(ctx: RequestContext): RequestContext {
  if (!ctx.manager || ctx.manager.queryRunner?.isTransactionActive) return ctx;
  const copy = Object.assign(Object.create(Object.getPrototypeOf(ctx) as object) as RequestContext, ctx);
  copy.manager = null;
  return copy;
}

/** A product listed with only these variants (a search lists the matching ones), priced and flagged by them. */
function onlyVariants(p: ProductListDto, variantIds: string[]): ProductListDto {
  const listed = new Set(variantIds);
  const vs = p.variants.filter((v) => listed.has(v.id));
  return { ...p, ...byVariants(vs), variants: vs };
}

/** What a product shows of its (listed) variants: available when one is, its price span, the first one's custom fields. */
function byVariants(vs: VariantDto[]): Pick<ProductListDto, 'available' | 'price_min' | 'price_max' | 'custom_fields'> {
  const prices = vs.map((v) => v.price);
  return {
    available: vs.some((v) => v.available),
    price_min: prices.length ? Math.min(...prices) : 0,
    price_max: prices.length ? Math.max(...prices) : 0,
    custom_fields: vs[0]?.custom_fields ?? [],
  };
}

/** A variant with the index's live availability and on-hand. */
function withStock(v: VariantDto, s: VariantStock | undefined): VariantDto {
  return s ? { ...v, available: s.available, inventory_quantity: s.onHand } : v;
}

export function nameOf(name: Translations, ctx: RequestContext): string | null {
  if (name['*'] !== undefined) return name['*'];
  return translate(name, ctx);
}

function groupBy<T>(list: T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of list) {
    const k = key(item);
    if (!out.has(k)) out.set(k, []);
    out.get(k)!.push(item);
  }
  return out;
}
