import type { SortValue } from '../common/paging/pager.service.js';

/** What to match: dimension filters as codes (an unknown id has no code and matches nothing). */
export interface IndexQuery {
  /** Products allowed at all (ids filter, collection scope); null: every product. */
  allowed: Uint8Array | null;
  /** Category codes, ANDed (a product must have each, ancestors included); -1: an unknown category. */
  categories: number[] | null;
  /** Per dimension (manufacturers, colors, …, custom_fields): the wanted codes, ORed. */
  dims: Map<number, number[]>;
  priceMin: number | null;
  priceMax: number | null;
  available: boolean;
  onSale: boolean;
  /** Variants matching the search text, with their relevance; null without `q`. */
  text: { slots: Int32Array; rel: Float64Array } | null;
  /** Variant prices in the active currency (see `prices`). */
  prices: Float64Array;
}

export type OrderColumn = 'price' | 'created' | 'title' | 'rating' | 'rel' | 'pos' | 'id';

export interface IndexPageRequest {
  column: OrderColumn;
  dir: 1 | -1;
  /** Cursor position (`[key, id]`) or null. */
  after: SortValue[] | null;
  /** Rows wanted (limit + 1). */
  n: number;
  /** Manual collection positions by product slot. */
  pos?: Map<number, number>;
  facets: boolean;
}

export interface IndexResult {
  rows: Array<{ slot: number; id: string; position: SortValue[] }>;
  min: number | null;
  max: number | null;
  /** Counts per code (a view of scratch memory: read it before the next query). */
  counts: Int32Array | null;
  /** Set when the answer is a whole category's (its code; -1: the whole catalogue): its counts are the index's category statistics. */
  category?: number;
}
