import type { SortValue } from '../common/paging/pager.service.js';
import type { IndexPageRequest, IndexResult } from './index-types.js';
import type { Column, ReadonlyTenantIndex } from './tenant-index-view.js';

const ASCII = /^[\x00-\x7f]*$/;
/** Byte order of UTF-8 (PostgreSQL's "C" collation of `title_sort`). */
export function compareC(a: string, b: string): number {
  if (ASCII.test(a) && ASCII.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * Product slots ranked by product id (`rank[p] < rank[q]` exactly when `pIds[p] < pIds[q]`), for the tie-break of a
 * top-k without reading id strings (scattered through the heap: a cache miss each). A slot keeps its id for life
 * (a removed product comes back in its slot), so a rank holds until slots are added; the slots added since are
 * compared by their ids, and the rank is made again once they are more than 1/16 of the ranked ones.
 */
export class IdRank {
  rank = new Int32Array(0);
  /** Slots below this are ranked. */
  ranked = 0;

  constructor(private readonly idx: ReadonlyTenantIndex) {}

  /** The rank, made again when too many slots were added since. */
  current(): this {
    const n = this.idx.pCount;
    if (n - this.ranked > this.ranked / 16) {
      const ids = this.idx.pIds;
      const order = new Int32Array(n);
      for (let p = 0; p < n; p++) order[p] = p;
      order.sort((a, b) => (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0));
      const rank = new Int32Array(n);
      for (let i = 0; i < n; i++) rank[order[i]] = i;
      this.rank = rank;
      this.ranked = n;
    }
    return this;
  }

  bytes(): number {
    return this.rank.byteLength;
  }
}

/** The first `n` matched products after the cursor in the order (key, id), by insertion into a bounded buffer. */
export function topK(
  idx: ReadonlyTenantIndex,
  keyPrice: Float64Array,
  keyRel: Float64Array,
  matched: Int32Array,
  count: number,
  page: IndexPageRequest,
  byId: IdRank,
): IndexResult['rows'] {
  const { column, dir, n } = page;
  const ids = idx.pIds;
  const isText = column === 'title';
  // numeric keys come from a typed array (no boxing in the loop); titles and manual positions otherwise
  let num: Column<Float64Array> | null = null;
  if (column === 'price') num = keyPrice;
  else if (column === 'created') num = idx.pCreated;
  else if (column === 'rating') num = idx.pRating;
  else if (column === 'rel') num = keyRel;
  let posArr: Float64Array | null = null;
  if (column === 'pos') {
    posArr = new Float64Array(idx.pCount).fill(Number.MAX_SAFE_INTEGER);
    for (const [p, v] of page.pos ?? []) posArr[p] = v;
    num = posArr;
  }
  let afterNum = 0;
  let afterText = '';
  let afterId: string | null = null;
  if (page.after) {
    const raw = page.after[0];
    if (isText) afterText = String(raw ?? '');
    else {
      afterNum = column === 'created' ? Date.parse(String(raw)) : Number(raw);
      if (Number.isNaN(afterNum)) afterNum = -Infinity;
    }
    afterId = String(page.after[1] ?? '');
  }
  const titles = idx.pTitle;
  const { rank, ranked } = byId.current();
  /** dir-adjusted comparison of products a and b by (key, id). */
  const cmpP = (a: number, b: number): number => {
    const d = num !== null ? num[a] - num[b] : compareC(titles[a], titles[b]);
    if (d !== 0) return dir * d;
    if (a < ranked && b < ranked) return dir * (rank[a] - rank[b]);
    const ia = ids[a];
    const ib = ids[b];
    return dir * (ia < ib ? -1 : ia > ib ? 1 : 0);
  };
  const afterCursor = (p: number): boolean => {
    const d = num !== null ? num[p] - afterNum : compareC(titles[p], afterText);
    if (d !== 0) return dir * d > 0;
    const id = ids[p];
    return dir * (id < afterId! ? -1 : id > afterId! ? 1 : 0) > 0;
  };
  const buf: number[] = [];
  for (let i = 0; i < count; i++) {
    const p = matched[i];
    if (afterId !== null && !afterCursor(p)) continue;
    if (buf.length === n) {
      if (cmpP(p, buf[n - 1]) >= 0) continue;
      buf.pop();
    }
    let lo = 0;
    let hi = buf.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cmpP(buf[mid], p) < 0) lo = mid + 1;
      else hi = mid;
    }
    buf.splice(lo, 0, p);
  }
  return buf.map((p) => {
    let position: SortValue;
    if (column === 'created') position = new Date(idx.pCreated[p]).toISOString();
    else if (isText) position = titles[p];
    else position = num![p];
    return { slot: p, id: ids[p], position: [position, ids[p]] };
  });
}
