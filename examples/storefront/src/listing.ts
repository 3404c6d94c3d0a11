// The catalogue listing request, shared by the category page and the entry module: main.tsx starts the first page's
// request before the app's code has loaded, and the page takes that response instead of asking again.
import { api, nextQuery, ok, session, type Facet, type PriceRange, type Product } from './api/client';
import type { operations } from '../../openapi-client/schema';

/** The list query, as the API documents it (generated from openapi.json). */
export type ListQuery = NonNullable<operations['StorefrontCatalogueController_list']['parameters']['query']>;

/** Facet key → query parameter (SPEC: filter token to query parameter mapping). */
export const PARAM: Record<Facet['key'], string> = {
  manufacturers: 'vendor',
  categories: 'category_id',
  colors: 'color_id',
  sizes: 'size_id',
  years: 'year_id',
  countries: 'country_id',
  regions: 'region_id',
  custom_fields: 'custom_field_id',
};
export const FILTERS = [...Object.values(PARAM), 'q', 'price_min', 'price_max', 'available', 'on_sale'];
const PAGE_SIZE = 24;

export interface Listing {
  products: Product[];
  facets: Facet[];
  priceRange: PriceRange;
  next: string | null;
}

/** The first page's query for the page URL's search string: its filters, the order, and the facets. */
export function listingQuery(search: string): ListQuery {
  const params = new URLSearchParams(search);
  const query: ListQuery = { include: 'facets', limit: PAGE_SIZE };
  const text = query as Record<string, string | number | undefined>;
  for (const key of FILTERS) {
    const v = params.get(key);
    if (!v) continue;
    const n = Number(v);
    text[key] = key === 'price_min' || key === 'price_max' ? (Number.isFinite(n) ? n : undefined) : v;
  }
  query.order = params.get('order') ?? (params.get('q') ? 'relevance' : 'created desc');
  return query;
}

async function fetchListing(collectionId: string | undefined, search: string): Promise<Listing> {
  const query = listingQuery(search);
  // a collection is listed in its own `sort_order` unless the shopper chose an order
  if (collectionId && !new URLSearchParams(search).get('order')) delete query.order;
  const r = collectionId
    ? await api.GET('/api/2026-04-01/collections/{id}/products', { params: { path: { id: collectionId }, query } })
    : await api.GET('/api/2026-04-01/products', { params: { query } });
  const data = ok(r);
  return { products: data.products, facets: data.facets ?? [], priceRange: data.price_range, next: nextQuery(r.response) };
}

let early: { key: string; listing: Promise<Listing> } | null = null;
const keyOf = (collectionId: string | undefined, search: string) => `${collectionId ?? ''}?${search}#${session.locale}`;

/** The listing for a page; the entry module's early request when it asked for exactly this one. */
export function loadListing(collectionId: string | undefined, search: string): Promise<Listing> {
  const key = keyOf(collectionId, search);
  if (early?.key === key) {
    const { listing } = early;
    early = null;
    return listing;
  }
  early = null;
  return fetchListing(collectionId, search);
}

/**
 * Called by main.tsx at once: when the page is a catalogue listing (`/wines`, `/` with a query string — without one
 * `/` is the home page — or `/collections/{id}` under `base`), ask now.
 */
export function startFirstListing(base: string): void {
  const path = location.pathname.startsWith(base) ? location.pathname.slice(base.length) || '/' : null;
  const all = path === '/wines' || (path === '/' && location.search.replace(/^\?/, '') !== '');
  const m = all ? [] : path?.match(/^\/collections\/([0-9a-f-]{36})$/);
  if (!m) return;
  const search = location.search.replace(/^\?/, '');
  const listing = fetchListing(m[1], search);
  listing.catch(() => undefined); // the page reports errors when it takes it
  early = { key: keyOf(m[1], search), listing };
}

/** How many products the listing holds: the manufacturer facet counts each product once (its own filter excluded). */
export function resultCount(facets: Facet[], search: string): number | null {
  const makers = facets.find((f) => f.key === 'manufacturers');
  if (!makers) return null;
  const selected = (new URLSearchParams(search).get(PARAM.manufacturers) ?? '').split(',').filter(Boolean);
  return makers.values.filter((v) => selected.length === 0 || selected.includes(v.id)).reduce((sum, v) => sum + v.count, 0);
}

/** A listing as the shopper left it: the pages loaded with "more" and the scroll position. */
export interface SavedListing {
  listing: Listing;
  more: { products: Product[]; next: string | null } | null;
  scrollY: number;
}
const saved = new Map<string, SavedListing>();
let popped = false;
if (typeof window !== 'undefined') {
  // back and forward put the listing back where it was (below); a link opens it fresh at the top
  history.scrollRestoration = 'manual';
  addEventListener('popstate', () => {
    popped = true;
  });
  // wouter announces its own navigations as events of these names
  for (const type of ['pushState', 'replaceState']) addEventListener(type, () => (popped = false));
}

export function saveListing(collectionId: string | undefined, search: string, state: SavedListing): void {
  saved.set(keyOf(collectionId, search), state);
}

/** The saved listing when the page was reached by back or forward; null after any other navigation. */
export function restoreListing(collectionId: string | undefined, search: string): SavedListing | null {
  const state = popped ? (saved.get(keyOf(collectionId, search)) ?? null) : null;
  popped = false;
  return state;
}
