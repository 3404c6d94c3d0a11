import type { SortValue } from '../common/paging/pager.service.js';
import { compareC } from './index-page.js';
import type { IndexPageRequest, IndexResult } from './index-types.js';
import type { ReadonlyTenantIndex } from './tenant-index-view.js';

type Static = 'created' | 'title' | 'rating';
const ASCII = /^[\x00-\x7f]*$/;

/**
 * Presorted permutations of the visible products by a product-level order column (`created`, `title`, `rating`),
 * ascending by (key, id), made on first use per content version (a stock change keeps them). A page of a whole
 * category in such an order is then a binary search for the cursor and a walk until the page is full, instead of a
 * top-k over the category's products.
 */
export class Orderings {
  private readonly perms = new Map<Static, Int32Array>();
  private version = -1;

  constructor(private readonly idx: ReadonlyTenantIndex) {}

  static handles(column: string): column is Static {
    return column === 'created' || column === 'title' || column === 'rating';
  }

  bytes(): number {
    let b = 0;
    for (const p of this.perms.values()) b += p.byteLength;
    return b;
  }

  private perm(column: Static, alive: Int32Array): Int32Array {
    const idx = this.idx;
    if (this.version !== idx.contentVersion) {
      this.perms.clear();
      this.version = idx.contentVersion;
    }
    let perm = this.perms.get(column);
    if (perm) return perm;
    const ids = idx.pIds;
    const byId = (a: number, b: number) => (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0);
    if (column === 'title') {
      const titles = idx.pTitle;
      const ascii = titles.every((t) => ASCII.test(t));
      const cmp = ascii ? (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0) : compareC;
      perm = Int32Array.from(alive).sort((a, b) => cmp(titles[a], titles[b]) || byId(a, b));
    } else {
      const key = column === 'created' ? idx.pCreated : idx.pRating;
      perm = Int32Array.from(alive).sort((a, b) => key[a] - key[b] || byId(a, b));
    }
    this.perms.set(column, perm);
    return perm;
  }

  /** The first `n` products of `has` (null: every visible product) after the cursor, in the order (key, id) × dir. */
  page(column: Static, alive: Int32Array, has: Uint8Array | null, page: IndexPageRequest): IndexResult['rows'] {
    const idx = this.idx;
    const perm = this.perm(column, alive);
    const { dir, n } = page;
    const ids = idx.pIds;
    const titles = idx.pTitle;
    const num = column === 'created' ? idx.pCreated : column === 'rating' ? idx.pRating : null;
    let start = dir === 1 ? 0 : perm.length - 1;
    if (page.after) {
      const raw = page.after[0];
      let afterNum = 0;
      const afterText = String(raw ?? '');
      if (num !== null) {
        afterNum = column === 'created' ? Date.parse(String(raw)) : Number(raw);
        if (Number.isNaN(afterNum)) afterNum = -Infinity;
      }
      const afterId = String(page.after[1] ?? '');
      // sign of (key, id) of perm[i] against the cursor, ascending: non-decreasing in i
      const sign = (i: number): number => {
        const p = perm[i];
        const d = num !== null ? num[p] - afterNum : compareC(titles[p], afterText);
        if (d !== 0) return d;
        return ids[p] < afterId ? -1 : ids[p] > afterId ? 1 : 0;
      };
      let lo = 0;
      let hi = perm.length;
      if (dir === 1) {
        // first index with sign > 0
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (sign(mid) > 0) hi = mid;
          else lo = mid + 1;
        }
        start = lo;
      } else {
        // last index with sign < 0
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (sign(mid) < 0) lo = mid + 1;
          else hi = mid;
        }
        start = lo - 1;
      }
    }
    const out: IndexResult['rows'] = [];
    for (let i = start; i >= 0 && i < perm.length && out.length < n; i += dir) {
      const p = perm[i];
      if (has !== null && has[p] === 0) continue;
      let position: SortValue;
      if (column === 'created') position = new Date(idx.pCreated[p]).toISOString();
      else if (column === 'title') position = titles[p];
      else position = idx.pRating[p];
      out.push({ slot: p, id: ids[p], position: [position, ids[p]] });
    }
    return out;
  }
}
