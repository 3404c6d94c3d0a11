import type { EntityManager } from 'typeorm';
import type { AdminProductDto, AdminVariantDto } from '../dto/admin-product.dto.js';
import { productDocumentRows } from '../repositories/product-documents.repository.js';

/**
 * Reads products back as CONTRACT 6 import members (keys, every language, prices as stored, stock per location key),
 * so what the admin API shows and the export writes can be imported again unchanged. Archived variants are left out.
 */

/** A variant as the import takes it: the admin representation without its read-only members. */
export type VariantDoc = Omit<AdminVariantDto, 'id' | 'inventory_quantity' | 'prices' | 'created_at' | 'updated_at'>;

/** A product as the import takes it: the admin representation without its read-only members. */
export type ProductDoc = Omit<AdminProductDto, 'id' | 'vendor' | 'archived_at' | 'updated_at' | 'rating' | 'collections' | 'variants'> & {
  variants: VariantDoc[];
};

/** The rows behind a product document, for the admin representation's extra (read-only) members. */
export interface ProductMeta {
  id: string;
  vendor: string | null;
  updatedAt: string | null;
  archivedAt: string | null;
  rating: number;
  ratingCount: number;
  variants: Array<{ id: string; key: string; gross: number; compareAtGross: number | null; createdAt: string; updatedAt: string | null }>;
}

const num = (v: string | number | null): number | null => (v === null ? null : Number(v));
const iso = (v: Date | string | null): string | null => (v === null ? null : new Date(v).toISOString());

/** Documents of the given products (those of the shop only), in the order of `ids`. */
export async function readProductDocuments(m: EntityManager, tenantId: string, ids: string[]): Promise<Array<{ doc: ProductDoc; meta: ProductMeta }>> {
  if (ids.length === 0) return [];
  const { products, images, ratings, variants, stock } = await productDocumentRows(m, tenantId, ids);
  const group = <T extends { product_id: string }>(rows: T[]) => {
    const out = new Map<string, T[]>();
    for (const r of rows) (out.get(r.product_id) ?? out.set(r.product_id, []).get(r.product_id)!).push(r);
    return out;
  };
  const imagesOf = group(images);
  const ratingsOf = group(ratings);
  const variantsOf = group(variants);
  const stockOf = new Map<string, Record<string, number>>();
  for (const s of stock) (stockOf.get(s.variant_id) ?? stockOf.set(s.variant_id, {}).get(s.variant_id)!)[s.location] = Number(s.on_hand);
  const byId = new Map(products.map((p) => [p.id, p]));
  return ids
    .filter((id) => byId.has(id))
    .map((id) => {
      const p = byId.get(id)!;
      const vs = variantsOf.get(id) ?? [];
      const doc: ProductDoc = {
        key: p.key,
        handle: p.handle,
        title: p.title,
        body_html: p.body_html,
        summary_html: p.summary_html,
        manufacturer: p.manufacturer,
        categories: p.categories,
        flag: p.flag,
        tags: p.tags,
        published: p.published,
        created_at: iso(p.created_at)!,
        images: (imagesOf.get(id) ?? []).map((i) => ({ src: i.src, alt: i.alt, width: i.width, height: i.height })),
        ratings: (ratingsOf.get(id) ?? []).map((r) => Number(r.value)),
        variants: vs.map((v) => {
          const customFields: Record<string, string[]> = {};
          for (const [field, option] of v.options) (customFields[field] ??= []).push(option);
          return {
            key: v.key,
            handle: v.handle,
            sku: v.sku,
            title: v.title,
            price: Number(v.price),
            compare_at_price: num(v.compare_at_price),
            tax_rate: Number(v.tax_rate),
            published: v.published,
            active: v.active,
            color: v.color,
            region: v.region,
            year: v.year,
            size: v.size,
            country: v.country,
            alcohol_volume: num(v.alcohol_volume),
            grams: v.grams,
            option_group: v.option_group,
            description: v.description,
            description_additional: v.description_additional,
            area: v.area,
            quantity_rule: { min: Number(v.quantity_min), max: num(v.quantity_max), increment: Number(v.quantity_increment) },
            custom_fields: customFields,
            track_inventory: v.track_inventory,
            allow_backorder: v.allow_backorder,
            gift_card: v.gift_card,
            stock: stockOf.get(v.id) ?? {},
          };
        }),
      };
      const meta: ProductMeta = {
        id,
        vendor: p.vendor,
        updatedAt: iso(p.updated_at),
        archivedAt: iso(p.archived_at),
        rating: Number(p.rating),
        ratingCount: p.rating_count,
        variants: vs.map((v) => ({
          id: v.id,
          key: v.key,
          gross: Number(v.gross),
          compareAtGross: num(v.compare_at_gross),
          createdAt: iso(v.created_at)!,
          updatedAt: iso(v.updated_at),
        })),
      };
      return { doc, meta };
    });
}
