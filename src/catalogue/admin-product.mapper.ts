import type { Translations } from '../common/db/base.entity.js';
import { convertMinor, fromMinor, toMinor } from '../pricing/index.js';
import type { AdminProductDto, AdminProductRowDto, AdminVariantDto, CollectionRefDto } from './dto/admin-product.dto.js';
import type { ProductDoc, ProductMeta } from './export/catalogue-document.js';

/** The admin product shapes, built in one place from the stored document and the rows read for them. */

export interface CurrencyRow {
  code: string;
  rate: string;
  precision: number;
  is_default: boolean;
}

/** A list row as `productRows` reads it. */
export interface AdminProductRow {
  id: string;
  key: string;
  handle: string | null;
  title: Translations;
  published: boolean;
  archived_at: Date | null;
  vendor: string | null;
  categories: Array<{ id: string; key: string }>;
  variants_count: number;
  min_price: string | null;
  max_price: string | null;
  total_stock: string | null;
  created_at: Date;
  updated_at: Date | null;
}

export interface CollectionRow {
  id: string;
  key: string | null;
  handle: string;
  collection_type: string;
}

/** The detail: the document plus ids, names, prices in every currency, stock totals and collections. */
export function mapAdminProduct(doc: ProductDoc, meta: ProductMeta, currencies: CurrencyRow[], collections: CollectionRefDto[]): AdminProductDto {
  const base = currencies.find((c) => c.is_default)?.precision ?? 2;
  const convert = (gross: number, c: CurrencyRow) => fromMinor(convertMinor(toMinor(gross, base), c.rate, base, c.precision), c.precision);
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
    collections,
    variants: doc.variants.map((v, i): AdminVariantDto => {
      const vm = meta.variants[i];
      return {
        id: vm.id,
        ...v,
        inventory_quantity: Object.values(v.stock).reduce((a, b) => a + b, 0),
        prices: currencies.map((c) => ({
          currency: c.code,
          price: convert(vm.gross, c),
          compare_at_price: vm.compareAtGross === null ? null : convert(vm.compareAtGross, c),
        })),
        created_at: vm.createdAt,
        updated_at: vm.updatedAt,
      };
    }),
  };
}

export function mapAdminProductRow(r: AdminProductRow, currency: string): AdminProductRowDto {
  return {
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
    currency,
    total_stock: Number(r.total_stock ?? 0),
    created_at: new Date(r.created_at).toISOString(),
    updated_at: r.updated_at ? new Date(r.updated_at).toISOString() : null,
  };
}

export function mapCollectionRef(c: CollectionRow): CollectionRefDto {
  return { id: c.id, key: c.key, handle: c.handle, collection_type: c.collection_type };
}
