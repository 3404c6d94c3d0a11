import type { SortKey, SortValue } from '../common/paging/pager.service.js';

/** One matching product with every list sort key, as the grouped list query returns it (pg's types). */
export interface MatchRow {
  id: string;
  /** Lowest matching variant price in the active currency (numeric as text). */
  price: string;
  created: Date;
  title: string;
  rating: string;
  /** Relevance to the search words (numeric as text), with `q` only. */
  rel?: string;
}

/** Largest match set kept in memory; a larger one is listed by SQL each time (its products are a large share). */
export const MATCH_SET_MAX = 5000;

type Cmp = (a: unknown, b: unknown) => number;

const num: Cmp = (a, b) => Number(a) - Number(b);
const time: Cmp = (a, b) => ms(a) - ms(b);
const text: Cmp = (a, b) => compareC(String(a), String(b));
const ASCII = /^[\x00-\x7f]*$/;

function ms(v: unknown): number {
  return v instanceof Date ? v.getTime() : Date.parse(String(v));
}

/** PostgreSQL's "C" collation: byte order of the UTF-8 encoding (uuids in their lower-case text form sort alike). */
export function compareC(a: string, b: string): number {
  if (ASCII.test(a) && ASCII.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

const COMPARE: Record<string, Cmp> = { price: num, rating: num, rel: num, created: time, title: text, id: text };

/**
 * The products matching one variant-constrained filter set (CONTRACT 7: a product is in it when one of its visible
 * variants satisfies every variant-level clause), computed by one grouped query and cached with the facet counts
 * (`CatalogueCache`, same key, same invalidation). A list page is then a binary search for the cursor position
 * in the set sorted by the order's keys (memoized per order) and a slice: the keyset semantics of the SQL path
 * (`(k1, ..., id) > cursor` in the order's directions), with the same cursor values.
 */
export class MatchSet {
  private readonly sorted = new Map<string, MatchRow[]>();

  constructor(readonly rows: MatchRow[]) {}

  get size(): number {
    return this.rows.length;
  }

  /** Up to `n` rows after the cursor position `after` (null: from the start) in the order of `keys`. */
  page(keys: SortKey[], after: SortValue[] | null, n: number): MatchRow[] {
    const cols = keys.map((k) => ({ col: k.expr.slice(2) as keyof MatchRow, sign: k.dir === 'ASC' ? 1 : -1, cmp: COMPARE[k.expr.slice(2)] ?? text }));
    const sig = keys.map((k) => `${k.expr} ${k.dir}`).join(',');
    let list = this.sorted.get(sig);
    if (!list) {
      list = [...this.rows].sort((a, b) => {
        for (const c of cols) {
          const d = c.cmp(a[c.col], b[c.col]);
          if (d !== 0) return c.sign * d;
        }
        return 0;
      });
      this.sorted.set(sig, list);
    }
    let start = 0;
    if (after) {
      // first row strictly after the cursor
      const afterCursor = (r: MatchRow) => {
        for (let i = 0; i < cols.length; i++) {
          const d = cols[i].cmp(r[cols[i].col], after[i]);
          if (d !== 0) return cols[i].sign * d > 0;
        }
        return false;
      };
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (afterCursor(list[mid])) hi = mid;
        else lo = mid + 1;
      }
      start = lo;
    }
    return list.slice(start, start + n);
  }
}
