import { convertMinor, toMinor } from '../pricing/index.js';
import { FACET_KEYS, type FacetKey } from '../extensions/index.js';
import { AnswerMemo } from './answer-memo.js';
import { FACET_SETS_MAX_BYTES, FACET_SETS_MAX_ENTRIES, type FacetSet } from './facet-sets.js';
import type { CatalogueSearchResult } from './catalogue-search.js';
import { DIM, VARIANT_DIM_COLUMNS } from './dims.js';
import { growF64, growI32, growU8 } from './grow.js';
import { layoutJob, type LayoutJob } from './index-layout.js';
import type { IndexRow } from './index-row.js';
import { IndexSearch } from './index-search.js';
import type { IndexPageRequest, IndexQuery, IndexResult } from './index-types.js';
import { TextIndex } from './text-index.js';
import { TextMatcher } from './text-match.js';
import type { TenantIndexWriter } from './tenant-index-view.js';

export type { IndexRow } from './index-row.js';
export type { ReadonlyTenantIndex, TenantIndexWriter } from './tenant-index-view.js';

/**
 * One tenant's storefront catalogue in memory (issue 14): every visible product and variant as columns of typed
 * arrays, facet ids as small integer codes. A request is one pass over the products (and their variants) that
 * computes, for each variant, the bit mask of the filter clauses it fails: a variant failing nothing makes its
 * product match; failing exactly one filtered dimension counts that dimension's values (CONTRACT 7's self-excluding
 * rule); failing at most the price bounds feeds `price_range`. Counts are distinct products per value (a stamp per
 * code). The page is a top-k selection after the cursor. Nothing here allocates per product or per variant.
 *
 * Deltas: a stock change sets one variant's availability and on-hand in place; a product change marks the product's
 * old variant slots dead and appends its new rows (pools are append-only, nothing moves); garbage asks for a rebuild.
 */

/** The writer; its fields are documented on `ReadonlyTenantIndex`. Only this file and `index-layout.ts` write them. */
export class TenantIndex implements TenantIndexWriter {
  version = 0;
  contentVersion = 0;
  stockVersion = 0;
  availVersion = 0;
  builtAt = Date.now();
  byCategory = false;

  // dictionary of facet ids
  readonly codeOf = new Map<string, number>();
  codeIds: string[] = [];
  codeDim = new Uint8Array(0);
  /** Codes per dimension, in insertion order. */
  readonly dimCodes: number[][] = FACET_KEYS.map(() => []);

  // products
  pCount = 0;
  pIds: string[] = [];
  readonly pIndex = new Map<string, number>();
  pAlive = new Uint8Array(0);
  pCreated = new Float64Array(0);
  pTitle: string[] = [];
  pRating = new Float64Array(0);
  pMaker = new Int32Array(0);
  pCatStart = new Int32Array(0);
  pCatLen = new Int32Array(0);
  pVarStart = new Int32Array(0);
  pVarLen = new Int32Array(0);
  alive = 0;

  // variants
  vCount = 0;
  vIds: string[] = [];
  readonly vIndex = new Map<string, number>();
  vProduct = new Int32Array(0);
  vGross4 = new Float64Array(0);
  vAvail = new Uint8Array(0);
  vOnSale = new Uint8Array(0);
  vOnHand = new Float64Array(0);
  vDim: Array<Int32Array<ArrayBuffer>> = FACET_KEYS.map(() => new Int32Array(0));
  vOptStart = new Int32Array(0);
  vOptLen = new Uint8Array(0);
  vSku: Array<string | null> = [];
  readonly skuIndex = new Map<string, number[]>();
  deadVariants = 0;

  // append-only pools
  catPool = new Int32Array(0);
  catLen = 0;
  varPool = new Int32Array(0);
  varLen = 0;
  optPool = new Int32Array(0);
  optLen = 0;

  /** Variant prices per currency (`rate/precision`), extended as variants are appended (a slot never changes). */
  private readonly priceCache = new Map<string, { values: Float64Array<ArrayBuffer>; upTo: number }>();
  readonly memo = new Map<string, { version: number; value: unknown; bytes: number }>();
  /** Not in `bytes()`: the budget counts them live (`facetSets`: a text search's facet counts per matched set). */
  readonly answers = new AnswerMemo<CatalogueSearchResult>();
  readonly facetSets = new AnswerMemo<FacetSet>(FACET_SETS_MAX_ENTRIES, FACET_SETS_MAX_BYTES);

  /** The query engine over these columns (scratch memory, per-value product sets), made on first use. */
  private engine: IndexSearch | null = null;
  /** The token dictionary and posting lists of the text search (issue 35), and its matcher (made on first use). */
  readonly text = new TextIndex();
  private matcher: TextMatcher | null = null;

  /**
   * Primary WAL position (`pg_current_wal_lsn()`, as a number) the index's content of each product is known to be at:
   * the build's snapshot for every product, then the statement that re-read a changed product. A replica that has
   * replayed up to it may serve that product's rows (see `ReadReplicas.mayServe`).
   */
  buildLsn = 0;
  pLsn = new Float64Array(0);

  constructor(readonly tenantId: string) {}

  // ------------------------------------------------------------------ loading

  private code(id: string | null, dim: number): number {
    if (id === null) return -1;
    let c = this.codeOf.get(id);
    if (c === undefined) {
      c = this.codeIds.length;
      this.codeOf.set(id, c);
      this.codeIds.push(id);
      this.codeDim = growU8(this.codeDim, c + 1);
      this.codeDim[c] = dim;
      this.dimCodes[dim].push(c);
    }
    return c;
  }

  /** Appends one product with its visible variant rows (sorted by position); replaces a previous version of it. */
  putProduct(productId: string, rows: IndexRow[], lsn = 0): void {
    let p = this.pIndex.get(productId);
    if (p !== undefined) {
      this.removeVariantsOf(p);
      this.pLsn[p] = lsn;
    }
    if (rows.length === 0) {
      if (p !== undefined && this.pAlive[p]) {
        this.pAlive[p] = 0;
        this.alive -= 1;
      }
      return;
    }
    if (p === undefined) {
      p = this.pCount++;
      this.pIndex.set(productId, p);
      this.pIds.push(productId);
      this.pTitle.push('');
      const n = this.pCount;
      this.pAlive = growU8(this.pAlive, n);
      this.pCreated = growF64(this.pCreated, n);
      this.pRating = growF64(this.pRating, n);
      this.pMaker = growI32(this.pMaker, n);
      this.pCatStart = growI32(this.pCatStart, n);
      this.pCatLen = growI32(this.pCatLen, n);
      this.pVarStart = growI32(this.pVarStart, n);
      this.pVarLen = growI32(this.pVarLen, n);
      this.pLsn = growF64(this.pLsn, n);
    }
    const first = rows[0];
    this.pLsn[p] = lsn;
    if (!this.pAlive[p]) this.alive += 1;
    this.pAlive[p] = 1;
    this.pCreated[p] = first.created;
    this.pTitle[p] = first.title_sort;
    this.pRating[p] = first.rating;
    this.pMaker[p] = this.code(first.manufacturer_id, DIM.manufacturers);
    const cats = first.category_ids;
    this.catPool = growI32(this.catPool, this.catLen + cats.length);
    this.pCatStart[p] = this.catLen;
    this.pCatLen[p] = cats.length;
    for (const c of cats) this.catPool[this.catLen++] = this.code(c, DIM.categories);
    this.varPool = growI32(this.varPool, this.varLen + rows.length);
    this.pVarStart[p] = this.varLen;
    this.pVarLen[p] = rows.length;
    for (const r of rows) this.varPool[this.varLen++] = this.putVariant(p, r);
  }

  private putVariant(p: number, r: IndexRow): number {
    const v = this.vCount++;
    const n = this.vCount;
    this.vIds.push(r.variant_id);
    this.vIndex.set(r.variant_id, v);
    if (this.vProduct.length < n) {
      this.vProduct = growI32(this.vProduct, n);
      this.vGross4 = growF64(this.vGross4, n);
      this.vAvail = growU8(this.vAvail, n);
      this.vOnSale = growU8(this.vOnSale, n);
      this.vOnHand = growF64(this.vOnHand, n);
      this.vOptStart = growI32(this.vOptStart, n);
      this.vOptLen = growU8(this.vOptLen, n);
    }
    this.vProduct[v] = p;
    // a numeric(14,4) as text: exact in a double once scaled (well below 2^53)
    const g = Number(r.gross);
    this.vGross4[v] = Number.isFinite(g) && Math.abs(g) < 1e11 ? Math.round(g * 10_000) : toMinor(r.gross, 4);
    this.vAvail[v] = r.available ? 1 : 0;
    this.vOnSale[v] = r.on_sale ? 1 : 0;
    this.vOnHand[v] = Number(r.on_hand);
    if (this.vDim[DIM.colors].length < n) for (const [d] of VARIANT_DIM_COLUMNS) this.vDim[d] = growI32(this.vDim[d], n);
    // one explicit store per dimension (not a keyed read by column name: that is slow per row)
    this.vDim[DIM.colors][v] = this.code(r.color_id, DIM.colors);
    this.vDim[DIM.sizes][v] = this.code(r.size_id, DIM.sizes);
    this.vDim[DIM.years][v] = this.code(r.year_id, DIM.years);
    this.vDim[DIM.countries][v] = this.code(r.country_id, DIM.countries);
    this.vDim[DIM.regions][v] = this.code(r.region_id, DIM.regions);
    const opts = r.option_ids.slice(0, 255);
    this.optPool = growI32(this.optPool, this.optLen + opts.length);
    this.vOptStart[v] = this.optLen;
    this.vOptLen[v] = opts.length;
    for (const o of opts) this.optPool[this.optLen++] = this.code(o, DIM.custom_fields);
    const sku = r.sku ? r.sku.toLowerCase() : null;
    this.vSku.push(sku);
    this.text.put(v, r.search_text ?? '', r.handle ?? null);
    if (sku) {
      const list = this.skuIndex.get(sku);
      if (list) list.push(v);
      else this.skuIndex.set(sku, [v]);
    }
    return v;
  }

  private removeVariantsOf(p: number): void {
    const start = this.pVarStart[p];
    const end = start + this.pVarLen[p];
    for (let i = start; i < end; i++) {
      const v = this.varPool[i];
      if (this.vProduct[v] < 0) continue;
      this.vProduct[v] = -1;
      this.deadVariants += 1;
      if (this.vIndex.get(this.vIds[v]) === v) this.vIndex.delete(this.vIds[v]);
      const sku = this.vSku[v];
      if (sku) {
        const list = this.skuIndex.get(sku)!.filter((x) => x !== v);
        if (list.length) this.skuIndex.set(sku, list);
        else this.skuIndex.delete(sku);
      }
    }
    this.pVarLen[p] = 0;
  }

  /**
   * A copy of this index with the products, and their variants, renumbered so that products sharing a category sit
   * in neighbouring slots (every category's products in one run of slots, a subcategory's within its parent's), then
   * by the country of their first variant: a query walks its products through the columns in slot order, so this
   * turns the loads of scattered column values into loads from neighbouring memory. Dead slots are dropped. This
   * index is left as it is (a read still running on it keeps its slots); what is made from slots (product sets,
   * statistics, memos, prices per currency) is made again on the copy's first use.
   *
   * A category's chain is sorted by the categories' product counts, largest first: in a tree an ancestor holds at
   * least its descendants' products, so that is root first, and products sorted by their chains lie in a
   * depth-first order of the tree. Answers do not depend on slots: every order breaks ties by product id.
   */
  clustered(): TenantIndex {
    const job = this.layout();
    for (const slice of job.slices) void slice;
    job.finish();
    return job.copy;
  }

  /**
   * `clustered` in slices, for a caller that yields between them (each a few tens of milliseconds on 100,000
   * products): `current()` tells whether this index's content is still what the copy is being made of (a product
   * change in the meantime makes the copy useless), and `finish()`, once every slice ran, takes this index's live
   * stock and versions into the copy (stock deltas may land between slices).
   */
  layout(): LayoutJob {
    return layoutJob(this, new TenantIndex(this.tenantId));
  }

  startBuild(version: number, lsn: number): void {
    this.version = version;
    this.buildLsn = lsn;
  }

  setVersion(version: number): void {
    this.version = version;
  }

  stockChanged(): void {
    this.stockVersion += 1;
  }

  contentChanged(): void {
    this.contentVersion += 1;
    this.memo.clear();
    this.answers.clear();
    this.facetSets.clear();
  }

  /** A stock delta: one variant's availability and on-hand. */
  setStock(variantId: string, available: boolean, onHand: number): void {
    const v = this.vIndex.get(variantId);
    if (v === undefined) return;
    const a = available ? 1 : 0;
    if (this.vAvail[v] !== a) {
      this.vAvail[v] = a;
      this.availVersion += 1;
    }
    this.vOnHand[v] = onHand;
  }

  /** True when so many slots are dead that a rebuild pays off. */
  get wantsCompaction(): boolean {
    return this.deadVariants > 10_000 && this.deadVariants > this.vCount / 2;
  }

  /** Bytes of the query engine (scratch memory, per-value product sets, permutations): cheap, unlike `bytes()`. */
  engineBytes(): number {
    return (this.engine?.bytes() ?? 0) + (this.matcher?.bytes() ?? 0);
  }

  /** Approximate memory held (typed arrays, strings, maps), for the memory budget. */
  bytes(): number {
    let b = 0;
    for (const a of [
      this.pAlive,
      this.pCreated,
      this.pRating,
      this.pMaker,
      this.pCatStart,
      this.pCatLen,
      this.pVarStart,
      this.pVarLen,
      this.vProduct,
      this.vGross4,
      this.vAvail,
      this.vOnSale,
      this.vOnHand,
      this.vOptStart,
      this.vOptLen,
      this.catPool,
      this.varPool,
      this.optPool,
      this.codeDim,
      ...this.vDim,
    ])
      b += a.byteLength;
    for (const c of this.priceCache.values()) b += c.values.byteLength;
    // ids (36 characters, one-byte strings), their map entries, titles, SKUs
    b += (this.pCount + this.vCount + this.codeIds.length) * (56 + 40);
    for (const t of this.pTitle) b += 16 + t.length;
    for (const s of this.vSku) if (s) b += 16 + s.length + 40;
    for (const m of this.memo.values()) b += m.bytes;
    b += this.pLsn.byteLength;
    b += (this.engine?.bytes() ?? 0) + this.text.bytes();
    return b;
  }

  // ------------------------------------------------------------------ prices

  /** Gross prices of every variant slot in a currency (rounded once to its precision, as on the wire). */
  prices(rate: string, precision: number): Float64Array {
    const key = `${rate}/${precision}`;
    let entry = this.priceCache.get(key);
    if (!entry) {
      entry = { values: new Float64Array(Math.max(this.vCount, 16)), upTo: 0 };
      this.priceCache.set(key, entry);
    }
    if (entry.upTo < this.vCount) {
      entry.values = growF64(entry.values, this.vCount);
      const scale = 10 ** precision;
      const one = /^1(\.0*)?$/.test(rate) && precision <= 4;
      const div = 10 ** (4 - precision);
      for (let v = entry.upTo; v < this.vCount; v++) {
        const g = this.vGross4[v];
        // rate 1: half-up rounding of the 4-decimal gross in integers; otherwise the money helper (BigInt)
        const minor = one ? Math.floor((g * 2 + div) / (2 * div)) : convertMinor(g, rate, 4, precision);
        entry.values[v] = minor / scale;
      }
      entry.upTo = this.vCount;
    }
    return entry.values;
  }

  // ------------------------------------------------------------------ queries

  /** One page of matching products after the cursor, the price range, and facet counts when asked (see IndexSearch). */
  search(q: IndexQuery, page: IndexPageRequest): IndexResult {
    this.engine ??= new IndexSearch(this);
    return this.engine.search(q, page);
  }

  /** The text matcher over `text` (issue 35). */
  textMatcher(): TextMatcher {
    return (this.matcher ??= new TextMatcher(this, this.text));
  }

  /** The variant slots of each product of `ps` that match every filter (the variants listed on a search's page). */
  matchingVariants(ps: readonly number[], q: IndexQuery): number[][] {
    this.engine ??= new IndexSearch(this);
    return this.engine.matchingVariants(ps, q);
  }

  /** The WAL position a product's rows must be replayed to on a replica (0: unknown product). */
  lsnOf(productId: string): number {
    const p = this.pIndex.get(productId);
    return p === undefined ? this.buildLsn : Math.max(this.buildLsn, this.pLsn[p]);
  }

  /** Dimension of a code as its facet key. */
  dimKey(code: number): FacetKey {
    return FACET_KEYS[this.codeDim[code]];
  }
}
