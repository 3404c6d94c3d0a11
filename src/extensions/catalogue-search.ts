/**
 * The contract of the storefront catalogue engine (an extension point, see extension-points.ts): the question
 * (filters, scope, order, cursor) and the answer. Declared here so src/extensions/ imports no feature module; the
 * catalogue's filter parsing (catalogue/catalogue-filters.ts) and the in-memory engine (catalogue/index/) build on it.
 */
import type { RequestContext } from '../common/context/request-context.js';
import type { SortValue } from '../common/paging/pager.service.js';
import type { CatalogueIndexSnapshot } from './catalogue-index-stats.js';

/** Facet keys in SPEC order (their filter parameters: the catalogue's `FACET_PARAM`). */
export const FACET_KEYS = ['manufacturers', 'categories', 'colors', 'sizes', 'years', 'countries', 'regions', 'custom_fields'] as const;
export type FacetKey = (typeof FACET_KEYS)[number];

export const ORDERS = ['price asc', 'price desc', 'created asc', 'created desc', 'title asc', 'title desc', 'rating desc', 'relevance'] as const;
export type OrderSpec = (typeof ORDERS)[number] | 'manual';

export interface CatalogueFilters {
  ids: string[] | null;
  collectionId: string | null;
  /** Normalized search words (unaccented, lower case). */
  words: string[];
  /** The raw search text (an exact SKU matches only its variants). */
  q?: string | null;
  dims: Record<FacetKey, string[]>;
  priceMin: number | null;
  priceMax: number | null;
  available: boolean;
  onSale: boolean;
  order: OrderSpec | null;
  includeFacets: boolean;
  /** `include=suggestions`: a search without a match answers did-you-mean in `meta.suggestions` (issue 35). */
  includeSuggestions: boolean;
  /** Variants matching the search words, resolved once per request (see `textMatchSql`). */
  textMatches?: string[];
}

/** A collection the list is confined to: its picked products, or its rules evaluated in SQL. */
export interface CollectionScope {
  id: string;
  type: 'manual' | 'smart';
  rulesJson: string | null;
}

export interface CatalogueSearchRequest {
  filters: CatalogueFilters;
  scope: CollectionScope | null;
  /** Resolved order (`manual` only for a manual collection). */
  order: OrderSpec;
  /** Cursor position of the previous page (`[key, id]`), or null. */
  after: SortValue[] | null;
  /** Rows wanted (the page size + 1, so the caller knows whether a next page exists). */
  rows: number;
  facets: boolean;
  /** Facet values are ordered by this rank (lower first, then id); `version` changes when the ranks do. */
  rank: { version: number; of: (id: string) => number };
  /**
   * Names of facet values, categories, manufacturers and options in every language by id (what `q` matches besides
   * the products' own text), under a version that changes when they do (the facet-name snapshot's). Absent: none.
   */
  names?: { version: number; of: () => Map<string, readonly string[]> };
}

export interface CatalogueSearchResult {
  rows: Array<{
    id: string;
    /** The cursor position of the row (order key, id). */
    position: SortValue[];
    /** With `q`: the ids of the product's variants matching every filter (only those are listed); else null. */
    variantIds: string[] | null;
  }>;
  /** Facets in SPEC order, values with a non-zero count, ranked. Null unless asked for. */
  facets: Array<{ key: FacetKey; values: Array<{ id: string; count: number }> }> | null;
  /** Lowest and highest gross price in the active currency over the filters without the price bounds (null: nothing matches). */
  priceRange: { min: number | null; max: number | null };
}

export interface VariantStock {
  available: boolean;
  onHand: number;
}

/**
 * The storefront catalogue engine: every filter, count, order and page of `/products`, `/products/facets` and the
 * collection lists, and the live stock state of variants. Implementations: the per-instance in-memory index
 * (`CatalogueIndexService`); an adapter for an external engine (OpenSearch, Meilisearch) for tenants beyond one
 * machine's memory would implement the same (see README, "Catalogue engine").
 *
 * An `Extensions` point (one, the last registered wins: `extensions.one(CatalogueSearch)`): the catalogue engine module
 * registers the built-in one as a provider, an extension module registering its own replaces it.
 */
export abstract class CatalogueSearch {
  /** The answer is read-only: an engine may hand the same (frozen) answer to every request asking the same question. */
  abstract search(ctx: RequestContext, request: CatalogueSearchRequest): Promise<CatalogueSearchResult>;
  /** Which of these products are visible on the storefront now. */
  abstract visible(ctx: RequestContext, productIds: string[]): Promise<Set<string>>;
  /** Current availability and on-hand of visible variants (absent: not visible). */
  abstract stock(ctx: RequestContext, variantIds: string[]): Promise<Map<string, VariantStock>>;
  /**
   * The primary WAL position (a number, see `parseLsn`) a replica must have replayed before it may serve these
   * products' rows as the engine knows them; null: unknown (read the primary).
   */
  abstract changeLsn(tenantId: string, productIds: string[]): number | null;
  /** Did-you-mean (issue 35): corrected whole queries of `words` that match, with their product counts, best first. */
  didYouMean?(ctx: RequestContext, request: CatalogueSearchRequest, limit: number): Promise<Array<{ q: string; count: number }>>;
  /** Figures for metrics. */
  abstract stats(): CatalogueIndexSnapshot;
}
