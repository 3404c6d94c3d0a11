import { AppError } from '../common/http/app-error.js';
import { FACET_KEYS, ORDERS, type CatalogueFilters, type FacetKey, type OrderSpec } from '../extensions/index.js';
import { textTokens } from '../catalogue-search/index.js';

/*
 * The storefront catalogue's filters (CONTRACT 7): parameter names, orders, and parsing of the raw query
 * (`CatalogueQueryPipe`). The SQL built from them is in catalogue-query.ts.
 */

export { FACET_KEYS, ORDERS } from '../extensions/index.js';
export type { CatalogueFilters, CollectionScope, FacetKey, OrderSpec } from '../extensions/index.js';

/** Each facet's filter parameter. */
export const FACET_PARAM: Record<FacetKey, string> = {
  manufacturers: 'vendor',
  categories: 'category_id',
  colors: 'color_id',
  sizes: 'size_id',
  years: 'year_id',
  countries: 'country_id',
  regions: 'region_id',
  custom_fields: 'custom_field_id',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The raw query object of a request (the `extended` parser: strings, arrays and nested objects). */
export type RawQuery = Record<string, unknown>;

function one(query: RawQuery, name: string): string | null {
  const v = query[name];
  if (v === undefined) return null;
  if (Array.isArray(v)) return v.map(String).join(',');
  if (typeof v !== 'string') throw AppError.unprocessable(`${name} is invalid`);
  return v;
}

function uuidList(query: RawQuery, name: string): string[] {
  const raw = one(query, name);
  if (raw === null) return [];
  const out: string[] = [];
  for (const part of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (!UUID.test(part)) throw AppError.unprocessable(`${name} must hold comma-separated UUIDs ("${part.slice(0, 60)}" is not one)`);
    if (!out.includes(part.toLowerCase())) out.push(part.toLowerCase());
  }
  return out;
}

function boolParam(query: RawQuery, name: string): boolean {
  const raw = one(query, name);
  if (raw === null || raw === '') return false;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw AppError.unprocessable(`${name} must be true or false`);
}

function numParam(query: RawQuery, name: string): number | null {
  const raw = one(query, name);
  if (raw === null || raw.trim() === '') return null;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw AppError.unprocessable(`${name} must be a non-negative number`);
  return n;
}

/** Lower case, accents removed, split into words (the same normalization as the indexed text). */
export function searchWords(q: string): string[] {
  return textTokens(q).slice(0, 8);
}

/** Which filter parameters an endpoint takes: `/products`, a collection's products, or facets. */
export type FilterKind = 'products' | 'collection' | 'facets';

/**
 * The catalogue filter parameters of SPEC from a request's raw query object; `kind` says which ones the endpoint
 * takes. Controllers get the result through `CatalogueQueryPipe`; the errors are 422 naming the parameter.
 */
export function parseFilters(query: RawQuery, kind: FilterKind): CatalogueFilters {
  const dims = {} as Record<FacetKey, string[]>;
  for (const k of FACET_KEYS) dims[k] = uuidList(query, FACET_PARAM[k]);
  const q = one(query, 'q');
  if (q !== null && q.length > 200) throw AppError.unprocessable('q must be at most 200 characters');
  const words = q ? searchWords(q) : [];
  const include = (one(query, 'include') ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const includeFacets = include.includes('facets') || one(query, 'IncludeFacets') === 'true';
  let order: OrderSpec | null = null;
  const rawOrder = kind === 'facets' ? null : one(query, 'order');
  if (rawOrder !== null && rawOrder.trim() !== '') {
    const spec = rawOrder
      .trim()
      .toLowerCase()
      .replace(/[\s+_]+/g, ' ');
    if (!(ORDERS as readonly string[]).includes(spec)) throw AppError.unprocessable(`order must be one of ${ORDERS.join(', ')}`);
    if (spec === 'relevance' && words.length === 0) throw AppError.unprocessable('order relevance needs q');
    order = spec as OrderSpec;
  }
  const priceMin = numParam(query, 'price_min');
  const priceMax = numParam(query, 'price_max');
  return {
    ids: kind === 'products' && one(query, 'ids') !== null ? uuidList(query, 'ids') : null,
    collectionId: kind !== 'collection' ? (uuidList(query, 'collection_id')[0] ?? null) : null,
    words,
    q,
    dims,
    priceMin,
    priceMax,
    available: boolParam(query, 'available'),
    onSale: boolParam(query, 'on_sale'),
    order,
    includeFacets,
    includeSuggestions: include.includes('suggestions'),
  };
}
