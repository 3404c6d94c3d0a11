import type { RequestContext } from '../common/context/request-context.js';
import type { CatalogueSearchRequest, CatalogueSearchResult } from './catalogue-search.js';

type Groups = NonNullable<CatalogueSearchResult['facets']>;

/** A text search's facet counts, kept for the variants it matched (`FacetSets`). */
export interface FacetSet {
  /** The matched variant slots the counts were made for (sorted; compared whole on every hit). */
  slots: Int32Array;
  facets: Groups;
}

/** Facet sets kept per index at most, and their estimated bytes (counted in the memory budget with the answers). */
export const FACET_SETS_MAX_ENTRIES = 256;
export const FACET_SETS_MAX_BYTES = 8 * 1024 * 1024;

/**
 * The key of a text search's facet counts (issue 35): what the counts depend on besides the matched variants —
 * every filter but the words, the scope, the facet ranks' version (their order), the currency's conversion (price
 * bounds) — and a digest and the length of the matched slots. The words, order, cursor and page size are left out:
 * the counts are those of the matched variants under the other filters, whatever typing of the words matched them
 * ("riesling mosel", "mosel ries" and "ries mosel" match the same wines). Null for a manual collection (its picks are
 * read each time, as for the answers). A hit must still find the same slots (`sameSlots`): the digest only files it.
 */
export function facetSetKey(ctx: Pick<RequestContext, 'activeCurrency'>, req: CatalogueSearchRequest, slots: Int32Array): string | null {
  if (req.scope?.type === 'manual') return null;
  const cur = ctx.activeCurrency;
  return JSON.stringify(['facets', ...filtersButWords(req), req.rank.version, cur.rate, cur.precision, slots.length, slotsDigest(slots)]);
}

/** What a request's answer depends on among its filters, the words left out (shared by this key and `answerKey`). */
export function filtersButWords(req: CatalogueSearchRequest): unknown[] {
  const f = req.filters;
  return [f.ids, f.dims, f.priceMin, f.priceMax, f.available, f.onSale, req.scope ? [req.scope.id, req.scope.rulesJson] : null];
}

/** FNV-1a over the slots (32 bits): files a facet set, never proves it (`sameSlots` does). */
export function slotsDigest(slots: Int32Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < slots.length; i++) h = Math.imul(h ^ slots[i], 0x01000193);
  return h >>> 0;
}

export function sameSlots(a: Int32Array, b: Int32Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Estimated bytes of a kept facet set: its key, slots, and its facets (`facetBytes`). */
export function facetSetBytes(key: string, set: FacetSet): number {
  return 256 + key.length * 2 + set.slots.byteLength + facetBytes(set.facets);
}

/** Estimated bytes of facet value lists with their JSON (written once per language, kept as long as they are). */
export function facetBytes(facets: Groups): number {
  let b = 0;
  for (const g of facets) b += 64 + g.values.length * 160;
  return b;
}
