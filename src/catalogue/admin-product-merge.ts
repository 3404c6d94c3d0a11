import type { Translations } from '../common/db/base.entity.js';
import type { ProductDoc, VariantDoc } from './export/catalogue-document.js';
import { bad, isObj, Json, trans } from './import/import-input.js';

/**
 * The PUT semantics of the admin catalogue API over a stored CONTRACT 6 document (the body has passed the member
 * schema already): absent = unchanged; null = cleared, or unchanged where the member has no empty value; translated
 * text merges per language (a plain string sets the default language, `{"de": null}` removes one).
 */

/** Members whose null on PUT means "unchanged" (they have no empty value). */
const KEEP_ON_NULL = new Set(['key', 'published', 'active', 'price', 'tax_rate', 'track_inventory', 'allow_backorder', 'gift_card', 'created_at', 'variants']);
const PRODUCT_TRANSLATED = new Set(['title', 'body_html', 'summary_html']);
const VARIANT_TRANSLATED = new Set(['title', 'description', 'description_additional']);
const PRODUCT_MEMBERS = [
  'key',
  'handle',
  'title',
  'body_html',
  'summary_html',
  'manufacturer',
  'categories',
  'flag',
  'tags',
  'published',
  'created_at',
  'images',
  'ratings',
];
const VARIANT_MEMBERS = [
  'key',
  'handle',
  'sku',
  'title',
  'price',
  'compare_at_price',
  'tax_rate',
  'published',
  'active',
  'color',
  'region',
  'year',
  'size',
  'country',
  'alcohol_volume',
  'grams',
  'option_group',
  'description',
  'description_additional',
  'area',
  'quantity_rule',
  'custom_fields',
  'track_inventory',
  'allow_backorder',
  'gift_card',
  'stock',
  'tax_category',
  'volume_ml',
];

/** The product's own members merged (its `variants` are merged one by one with `mergeVariant`). */
export function mergeProduct(current: ProductDoc, patch: Json, lang: string): ProductDoc {
  const next = { ...current, variants: [...current.variants] } as unknown as Json;
  for (const k of PRODUCT_MEMBERS) mergeMember(next, current as unknown as Json, patch, k, PRODUCT_TRANSLATED.has(k), lang, `product.${k}`);
  return next as unknown as ProductDoc;
}

export function mergeVariant(current: VariantDoc, patch: Json, lang: string, path: string): VariantDoc {
  const next = { ...current } as unknown as Json;
  for (const k of VARIANT_MEMBERS) mergeMember(next, current as unknown as Json, patch, k, VARIANT_TRANSLATED.has(k), lang, `${path}.${k}`);
  return next as unknown as VariantDoc;
}

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
export function sameDocument(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObj(v))
    return `{${Object.keys(v)
      .sort()
      .filter((k) => v[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v ?? null);
}
