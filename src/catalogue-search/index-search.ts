import { B_CAT, B_MAN, B_OPT, B_PRICE, DIM } from './dims.js';
import { IdRank, topK } from './index-page.js';
import type { IndexPageRequest, IndexQuery, IndexResult } from './index-types.js';
import { CategoryStats } from './category-stats.js';
import { Orderings } from './index-order.js';
import { EMPTY, ProductSets, type Walk } from './product-sets.js';
import { countMisses, countOnce } from './index-misses.js';
import { variantMask } from './variant-mask.js';

export type { IndexPageRequest, IndexQuery, IndexResult, OrderColumn } from './index-types.js';
import type { ReadonlyTenantIndex } from './tenant-index-view.js';

/**
 * The query engine of one `TenantIndex`. For each product it looks at, the bit mask of the filter clauses each of
 * its variants fails is computed: failing nothing, the product matches; failing exactly one filtered dimension, that
 * dimension's values are counted (CONTRACT 7's self-excluding rule); failing at most the price bounds, it feeds
 * `price_range`. Variant-level clauses hold for one variant together (the same-variant rule).
 *
 * Which products it looks at: a product outside the product sets of two filtered dimensions contributes to nothing,
 * so with k ≥ 2 filtered dimensions only the union of the two smallest dimensions' posting lists is walked (with
 * facets), or the smallest one alone (without facets: a match must pass every dimension). With one filtered
 * dimension and no other restriction, that dimension's own counts are the whole catalogue's (computed once per
 * content version) and only its products are walked. Posting lists are built per facet value on first use and kept
 * for the content version (a stock change keeps them). Nothing here allocates per product or per variant.
 */
export class IndexSearch {
  // scratch memory of a query (JavaScript runs one query at a time)
  private stamp = new Int32Array(0);
  private counts = new Int32Array(0);
  private want = new Uint8Array(0);
  private keyPrice = new Float64Array(0);
  private keyRel = new Float64Array(0);
  private textMask = new Uint8Array(0);
  private textRel = new Float64Array(0);
  private matched = new Int32Array(0);
  private readonly range = new Float64Array(2);

  private readonly sets: ProductSets;
  private readonly stats: CategoryStats;
  private readonly orders: Orderings;
  private readonly byId: IdRank;

  constructor(private readonly idx: ReadonlyTenantIndex) {
    this.sets = new ProductSets(idx);
    this.stats = new CategoryStats(idx);
    this.orders = new Orderings(idx);
    this.byId = new IdRank(idx);
  }

  bytes(): number {
    return (
      this.stamp.byteLength +
      this.counts.byteLength +
      this.want.byteLength +
      this.keyPrice.byteLength +
      this.keyRel.byteLength +
      this.textMask.byteLength +
      this.textRel.byteLength +
      this.matched.byteLength +
      this.sets.bytes() +
      this.stats.bytes() +
      this.orders.bytes() +
      this.byId.bytes()
    );
  }

  private scratch(): void {
    const idx = this.idx;
    const codes = idx.codeIds.length;
    if (this.stamp.length < codes) {
      this.stamp = new Int32Array(codes + 256);
      this.counts = new Int32Array(codes + 256);
      this.want = new Uint8Array(codes + 256);
    }
    if (this.keyPrice.length < idx.pCount) {
      this.keyPrice = new Float64Array(idx.pCount + 1024);
      this.keyRel = new Float64Array(idx.pCount + 1024);
      this.matched = new Int32Array(idx.pCount + 1024);
    }
    if (this.textMask.length < idx.vCount) {
      this.textMask = new Uint8Array(idx.vCount + 1024);
      this.textRel = new Float64Array(idx.vCount + 1024);
    }
  }

  private prepare(q: IndexQuery): { dimsV: number[]; hasOpt: boolean; makers: boolean } {
    this.scratch();
    const want = this.want;
    const dimsV: number[] = [];
    let hasOpt = false;
    let makers = false;
    for (const [d, codes] of q.dims) {
      for (const c of codes) if (c >= 0) want[c] = 1;
      if (d === DIM.custom_fields) hasOpt = true;
      else if (d === DIM.manufacturers) makers = true;
      else dimsV.push(d);
    }
    if (q.text) {
      const { slots, rel } = q.text;
      for (let i = 0; i < slots.length; i++) {
        this.textMask[slots[i]] = 1;
        this.textRel[slots[i]] = rel[i];
      }
    }
    return { dimsV, hasOpt, makers };
  }

  private release(q: IndexQuery): void {
    for (const codes of q.dims.values()) for (const c of codes) if (c >= 0) this.want[c] = 0;
    if (q.text) for (let i = 0; i < q.text.slots.length; i++) this.textMask[q.text.slots[i]] = 0;
  }

  /** One page of matching products after the cursor, the price range, and facet counts when asked. */
  search(q: IndexQuery, page: IndexPageRequest): IndexResult {
    const idx = this.idx;
    this.scratch();
    const k = q.dims.size + (q.categories !== null ? 1 : 0);
    const facets = page.facets;
    const free = q.allowed === null && !q.available && !q.onSale && q.text === null && q.priceMin === null && q.priceMax === null;
    if (free && (k === 0 || (k === 1 && q.dims.size === 0 && q.categories!.length === 1 && q.categories![0] >= 0)))
      return this.wholeCategory(k === 0 ? -1 : q.categories![0], q, page);
    // which products to walk (null: all), and the dimension whose counts come from the whole catalogue
    let walk: Walk | null = null;
    let selfBit = 0;
    let global: Int32Array | null = null;
    if (k === 1 && free && facets) {
      global = this.stats.wholeCounts();
      selfBit = q.categories !== null ? B_CAT : 1 << [...q.dims.keys()][0];
      walk = this.sets.walk(q, false);
    } else if (k > 0 || q.text !== null || q.allowed !== null) walk = this.sets.walk(q, facets);
    const { dimsV, hasOpt, makers } = this.prepare(q);
    try {
      const counts = this.counts;
      const stamp = this.stamp;
      const nMatched = this.scan(q, walk, facets, selfBit, dimsV, hasOpt, makers);
      const min = this.range[0];
      const max = this.range[1];
      if (facets && walk !== null && walk.nm > 0) countMisses(idx, walk, q, { want: this.want, textMask: this.textMask, dimsV, hasOpt }, counts, stamp);
      if (facets && global !== null) {
        const d = Math.log2(selfBit);
        for (const c of idx.dimCodes[d]) counts[c] = global[c];
      }
      const rows = page.n > 0 ? topK(idx, this.keyPrice, this.keyRel, this.matched, nMatched, page, this.byId) : [];
      return { rows, min: min === Infinity ? null : min, max: max === -Infinity ? null : max, counts: facets ? counts : null };
    } finally {
      this.release(q);
    }
  }

  /**
   * The per-variant mask pass over the products of `walk` (null: all): matches into `matched` (their price and
   * relevance keys), the price range into `range`, facet counts of the products passing every dimension or failing
   * exactly one (unless that one's counts come from the whole catalogue: `selfBit`). Returns how many matched.
   *
   * Nothing follows the loop but the return: V8 compiles a long loop on its first run (on-stack replacement) and
   * keeps that code, so a property read or comparison after the loop that had never run before deoptimizes the
   * function on every later call.
   */
  private scan(q: IndexQuery, walk: Walk | null, facets: boolean, selfBit: number, dimsV: number[], hasOpt: boolean, makers: boolean): number {
    const idx = this.idx;
    const counts = this.counts;
    const stamp = this.stamp;
    const codes = idx.codeIds.length;
    if (facets) {
      counts.fill(0, 0, codes);
      stamp.fill(0, 0, codes);
    }
    // min and max are kept in `range`, written in the loop: nothing after the loop but the return (see above)
    const range = this.range;
    range[0] = Infinity;
    range[1] = -Infinity;
    let nMatched = 0;
    const matched = this.matched;
    const keyPrice = this.keyPrice;
    const keyRel = this.keyRel;
    const prices = q.prices;
    const text = q.text !== null;
    const textMask = this.textMask;
    const textRel = this.textRel;
    const want = this.want;
    const allowed = q.allowed;
    const available = q.available;
    const onSale = q.onSale;
    const { vAvail, vOnSale, pAlive, pMaker, pVarStart, pVarLen, pCatStart, pCatLen, catPool, varPool, optPool, vOptStart, vOptLen } = idx;
    const priceMin = q.priceMin ?? -Infinity;
    const priceMax = q.priceMax ?? Infinity;
    const priced = q.priceMin !== null || q.priceMax !== null;
    const catSets = (q.categories ?? []).map((c) => (c < 0 ? null : this.sets.members(c).has));
    const hasCats = q.categories !== null;
    // per filtered variant dimension (and custom fields): membership of its wanted values, to skip products early
    const preDims: Array<Array<Uint8Array<ArrayBuffer>>> = [];
    // (a walk already holds only products missing at most one dimension: then this check is not needed)
    if (walk === null)
      for (const [d, list] of q.dims) if (d !== DIM.manufacturers) preDims.push(list.filter((c) => c >= 0).map((c) => this.sets.members(c).has));
    const nPre = preDims.length;
    const nd = dimsV.length;
    const d0 = nd > 0 ? dimsV[0] : 0;
    const d1 = nd > 1 ? dimsV[1] : 0;
    const d2 = nd > 2 ? dimsV[2] : 0;
    const d3 = nd > 3 ? dimsV[3] : 0;
    const d4 = nd > 4 ? dimsV[4] : 0;
    const col0 = idx.vDim[d0];
    const col1 = idx.vDim[d1];
    const col2 = idx.vDim[d2];
    const col3 = idx.vDim[d3];
    const col4 = idx.vDim[d4];
    const colColors = idx.vDim[DIM.colors];
    const colSizes = idx.vDim[DIM.sizes];
    const colYears = idx.vDim[DIM.years];
    const colCountries = idx.vDim[DIM.countries];
    const colRegions = idx.vDim[DIM.regions];
    const dimCols = [colColors, colSizes, colYears, colCountries, colRegions];
    const walkList = walk?.list ?? EMPTY;
    const total = walk ? walk.n : idx.pCount;
    const full = walk === null;
    for (let w = 0; w < total; w++) {
      const p = full ? w : walkList[w];
      if (pAlive[p] === 0) continue;
      if (allowed !== null && allowed[p] === 0) continue;
      let pm = 0;
      if (hasCats) {
        for (let i = 0; i < catSets.length; i++) {
          const set = catSets[i];
          if (set === null || set[p] === 0) {
            pm = B_CAT;
            break;
          }
        }
      }
      if (makers) {
        const c = pMaker[p];
        if (c < 0 || want[c] === 0) {
          if (pm !== 0) continue; // fails two dimensions: contributes to nothing
          pm = B_MAN;
        }
      }
      if (nPre > 0) {
        // a product without any wanted value of two filtered dimensions contributes to nothing
        let misses = pm !== 0 ? 1 : 0;
        for (let j = 0; j < nPre && misses < 2; j++) {
          const has = preDims[j];
          let hit = false;
          for (let i = 0; i < has.length; i++) {
            if (has[i][p] !== 0) {
              hit = true;
              break;
            }
          }
          if (!hit) misses++;
        }
        if (misses >= 2) continue;
      }
      let best = Infinity;
      let rel = -Infinity;
      let hit = false;
      const vs = pVarStart[p];
      const ve = vs + pVarLen[p];
      const stampId = p + 1;
      let makerDone = false;
      let catsDone = false;
      for (let i = vs; i < ve; i++) {
        const v = varPool[i];
        if (available && vAvail[v] === 0) continue;
        if (onSale && vOnSale[v] === 0) continue;
        if (text && textMask[v] === 0) continue;
        let m = pm;
        if (nd > 0) {
          let c = col0[v];
          if (c < 0 || want[c] === 0) m |= 1 << d0;
          if (nd > 1) {
            c = col1[v];
            if (c < 0 || want[c] === 0) m |= 1 << d1;
            if (nd > 2) {
              c = col2[v];
              if (c < 0 || want[c] === 0) m |= 1 << d2;
              if (nd > 3) {
                c = col3[v];
                if (c < 0 || want[c] === 0) m |= 1 << d3;
                if (nd > 4) {
                  c = col4[v];
                  if (c < 0 || want[c] === 0) m |= 1 << d4;
                }
              }
            }
          }
        }
        if (hasOpt) {
          let ok = false;
          const s0 = vOptStart[v];
          const e0 = s0 + vOptLen[v];
          for (let j = s0; j < e0; j++) {
            if (want[optPool[j]] !== 0) {
              ok = true;
              break;
            }
          }
          if (!ok) m |= B_OPT;
        }
        const price = prices[v];
        if (priced && (price < priceMin || price > priceMax)) m |= B_PRICE;
        if ((m & ~B_PRICE) === 0) {
          if (price < range[0]) range[0] = price;
          if (price > range[1]) range[1] = price;
        }
        if (m === 0) {
          hit = true;
          if (price < best) best = price;
          if (text && textRel[v] > rel) rel = textRel[v];
        }
        // counted: m is 0 (every dimension) or one filtered dimension's bit (that dimension only), unless that
        // dimension's counts come from the whole catalogue
        if (!facets || (m & (m - 1)) !== 0 || (m & B_PRICE) !== 0 || (m !== 0 && m === selfBit)) continue;
        // the product's own values (manufacturer, categories) are counted once, by its first variant that counts them
        if ((m === 0 || m === B_MAN) && !makerDone) {
          makerDone = true;
          countOnce(counts, stamp, pMaker[p], stampId);
        }
        if ((m === 0 || m === B_CAT) && !catsDone) {
          catsDone = true;
          const s0 = pCatStart[p];
          const e0 = s0 + pCatLen[p];
          for (let j = s0; j < e0; j++) countOnce(counts, stamp, catPool[j], stampId);
        }
        if (m === 0) {
          // every single-valued dimension, one column at a time (no array of columns: one load less per value)
          countOnce(counts, stamp, colColors[v], stampId);
          countOnce(counts, stamp, colSizes[v], stampId);
          countOnce(counts, stamp, colYears[v], stampId);
          countOnce(counts, stamp, colCountries[v], stampId);
          countOnce(counts, stamp, colRegions[v], stampId);
        } else {
          // m is one dimension's bit here: only that dimension counts
          const j = 31 - Math.clz32(m) - DIM.colors;
          if (j >= 0 && j < 5) countOnce(counts, stamp, dimCols[j][v], stampId);
        }
        if (m === 0 || m === B_OPT) {
          const s0 = vOptStart[v];
          const e0 = s0 + vOptLen[v];
          for (let j = s0; j < e0; j++) countOnce(counts, stamp, optPool[j], stampId);
        }
      }
      if (hit) {
        matched[nMatched++] = p;
        keyPrice[p] = best;
        keyRel[p] = text ? rel : 0;
      }
    }
    return nMatched;
  }

  /**
   * A whole category (c < 0: the whole catalogue) without other filters: its products are its posting list, its
   * counts and price range come from `CategoryStats`; only the page is computed: walked from the cursor along a
   * presorted permutation (created, title, rating), else a top-k (prices as keys when ordered by price).
   */
  private wholeCategory(c: number, q: IndexQuery, page: IndexPageRequest): IndexResult {
    const idx = this.idx;
    const list = this.stats.products(c, (code) => this.sets.members(code).list);
    // every product matches: its price key is its lowest price (kept per currency and content version)
    const extremes = this.sets.priceExtremes(q.prices);
    let rows: IndexResult['rows'] = [];
    if (page.n > 0 && Orderings.handles(page.column))
      rows = this.orders.page(
        page.column,
        this.stats.products(-1, (code) => this.sets.members(code).list),
        c < 0 ? null : this.sets.members(c).has,
        page,
      );
    else if (page.n > 0) rows = topK(idx, extremes.min, this.keyRel, list, list.length, page, this.byId);
    if (page.facets) this.stats.counts(c, this.counts);
    const { min, max } = this.stats.range(c, q.prices, extremes);
    return { rows, min, max, counts: page.facets ? this.counts : null, category: c };
  }

  /**
   * The variant slots of each product of `ps` that match every filter (the variants listed on a search's page): the
   * query's scratch (wanted codes, the text match's mask) is set once for the whole page.
   */
  matchingVariants(ps: readonly number[], q: IndexQuery): number[][] {
    const idx = this.idx;
    const { dimsV, hasOpt, makers } = this.prepare(q);
    try {
      const scratch = { want: this.want, textMask: this.textMask, dimsV, hasOpt };
      return ps.map((p) => {
        let pm = 0;
        if (q.categories !== null && q.categories.some((c) => c < 0 || !this.sets.hasCategory(p, c))) pm |= B_CAT;
        if (makers && (idx.pMaker[p] < 0 || this.want[idx.pMaker[p]] === 0)) pm |= B_MAN;
        const out: number[] = [];
        const s = idx.pVarStart[p];
        for (let i = s; i < s + idx.pVarLen[p]; i++) if (variantMask(idx, scratch, idx.varPool[i], pm, q) === 0) out.push(idx.varPool[i]);
        return out;
      });
    } finally {
      this.release(q);
    }
  }
}
