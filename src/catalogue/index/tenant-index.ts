import { convertMinor, toMinor } from '../../pricing/index.js';
import type { SortValue } from '../../common/paging/pager.service.js';
import { FACET_KEYS, FacetKey } from '../catalogue-query.js';

/**
 * One tenant's storefront catalogue in memory (issue 14): every visible product and variant as columns of typed
 * arrays, facet ids as small integer codes. A request is one pass over the products (and their variants) that
 * computes, for each variant, the bit mask of the filter clauses it fails: a variant failing nothing makes its
 * product match; failing exactly one filtered dimension counts that dimension's values (CONTRACT 7's self-excluding
 * rule); failing at most the price bounds feeds `price_range`. Counts are distinct products per value (a stamp per
 * code). The page is a top-k selection after the cursor. Nothing here allocates per product or per variant.
 *
 * Deltas: a stock change sets one variant's availability and on-hand in place; a product change marks the
 * product's old variant slots dead and appends its new rows (pools are append-only, so nothing moves); too much
 * garbage asks for a rebuild.
 */

/** Dimension numbers: the index in FACET_KEYS (SPEC order), also the bit of the dimension in a failure mask. */
export const DIM = { manufacturers: 0, categories: 1, colors: 2, sizes: 3, years: 4, countries: 5, regions: 6, custom_fields: 7 } as const;
const B_CAT = 1 << DIM.categories;
const B_MAN = 1 << DIM.manufacturers;
const B_OPT = 1 << DIM.custom_fields;
const B_PRICE = 1 << 8;
/** The single-valued variant dimensions and their variant_search column. */
export const VARIANT_DIM_COLUMNS: Array<[number, string]> = [
  [DIM.colors, 'color_id'],
  [DIM.sizes, 'size_id'],
  [DIM.years, 'year_id'],
  [DIM.countries, 'country_id'],
  [DIM.regions, 'region_id'],
];

/** One row of `variant_search` as the index loads it. */
export interface IndexRow {
  variant_id: string;
  product_id: string;
  position: number;
  created: number;
  title_sort: string;
  rating: number;
  gross: string;
  on_sale: boolean;
  available: boolean;
  on_hand: number;
  sku: string | null;
  manufacturer_id: string | null;
  color_id: string | null;
  region_id: string | null;
  year_id: string | null;
  size_id: string | null;
  country_id: string | null;
  option_ids: string[];
  category_ids: string[];
}

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
}

const ASCII = /^[\x00-\x7f]*$/;
function compareC(a: string, b: string): number {
  if (ASCII.test(a) && ASCII.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function growI32(a: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  if (n <= a.length) return a;
  const b = new Int32Array(Math.max(n, a.length * 2, 16));
  b.set(a);
  return b;
}
function growF64(a: Float64Array<ArrayBuffer>, n: number): Float64Array<ArrayBuffer> {
  if (n <= a.length) return a;
  const b = new Float64Array(Math.max(n, a.length * 2, 16));
  b.set(a);
  return b;
}
function growU8(a: Uint8Array<ArrayBuffer>, n: number): Uint8Array<ArrayBuffer> {
  if (n <= a.length) return a;
  const b = new Uint8Array(Math.max(n, a.length * 2, 16));
  b.set(a);
  return b;
}

export class TenantIndex {
  /** Catalogue version the index reflects (catalogue_versions.version). */
  version = 0;
  /** Bumped by every product change (not by stock): keys memos of text matches and smart collections. */
  contentVersion = 0;
  /** Bumped by every stock change. */
  stockVersion = 0;
  builtAt = Date.now();

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
  /** Recent search answers (see CatalogueIndexService.search), keyed by the question, with the versions they hold for. */
  readonly results = new Map<string, { version: string; value: import('./catalogue-search.js').CatalogueSearchResult; bytes: number }>();
  resultsBytes = 0;
  /** Small memos keyed by contentVersion (text matches, smart collections). */
  readonly memo = new Map<string, { version: number; value: unknown; bytes: number }>();

  // scratch memory of a query (JavaScript runs one query at a time)
  private stamp = new Int32Array(0);
  private counts = new Int32Array(0);
  private want = new Uint8Array(0);
  private keyPrice = new Float64Array(0);
  private keyRel = new Float64Array(0);
  private textMask = new Uint8Array(0);
  private textRel = new Float64Array(0);
  private matched = new Int32Array(0);

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
  putProduct(productId: string, rows: IndexRow[]): void {
    let p = this.pIndex.get(productId);
    if (p !== undefined) this.removeVariantsOf(p);
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
    }
    const first = rows[0];
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
    this.vProduct = growI32(this.vProduct, n);
    this.vGross4 = growF64(this.vGross4, n);
    this.vAvail = growU8(this.vAvail, n);
    this.vOnSale = growU8(this.vOnSale, n);
    this.vOnHand = growF64(this.vOnHand, n);
    this.vOptStart = growI32(this.vOptStart, n);
    this.vOptLen = growU8(this.vOptLen, n);
    this.vProduct[v] = p;
    // a numeric(14,4) as text: exact in a double once scaled (well below 2^53)
    const g = Number(r.gross);
    this.vGross4[v] = Number.isFinite(g) && Math.abs(g) < 1e11 ? Math.round(g * 10_000) : toMinor(r.gross, 4);
    this.vAvail[v] = r.available ? 1 : 0;
    this.vOnSale[v] = r.on_sale ? 1 : 0;
    this.vOnHand[v] = Number(r.on_hand);
    for (const [d, col] of VARIANT_DIM_COLUMNS) {
      this.vDim[d] = growI32(this.vDim[d], n);
      this.vDim[d][v] = this.code((r as unknown as Record<string, string | null>)[col], d);
    }
    const opts = r.option_ids.slice(0, 255);
    this.optPool = growI32(this.optPool, this.optLen + opts.length);
    this.vOptStart[v] = this.optLen;
    this.vOptLen[v] = opts.length;
    for (const o of opts) this.optPool[this.optLen++] = this.code(o, DIM.custom_fields);
    const sku = r.sku ? r.sku.toLowerCase() : null;
    this.vSku.push(sku);
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

  /** A stock delta: one variant's availability and on-hand. */
  setStock(variantId: string, available: boolean, onHand: number): void {
    const v = this.vIndex.get(variantId);
    if (v === undefined) return;
    this.vAvail[v] = available ? 1 : 0;
    this.vOnHand[v] = onHand;
  }

  /** True when so many slots are dead that a rebuild pays off. */
  get wantsCompaction(): boolean {
    return this.deadVariants > 10_000 && this.deadVariants > this.vCount / 2;
  }

  /** Approximate memory held (typed arrays, strings, maps), for the memory budget. */
  bytes(): number {
    let b = 0;
    for (const a of [this.pAlive, this.pCreated, this.pRating, this.pMaker, this.pCatStart, this.pCatLen, this.pVarStart, this.pVarLen, this.vProduct, this.vGross4, this.vAvail, this.vOnSale, this.vOnHand, this.vOptStart, this.vOptLen, this.catPool, this.varPool, this.optPool, this.codeDim, ...this.vDim]) b += a.byteLength;
    for (const c of this.priceCache.values()) b += c.values.byteLength;
    // ids (36 characters, one-byte strings), their map entries, titles, SKUs
    b += (this.pCount + this.vCount + this.codeIds.length) * (56 + 40);
    for (const t of this.pTitle) b += 16 + t.length;
    for (const s of this.vSku) if (s) b += 16 + s.length + 40;
    for (const m of this.memo.values()) b += m.bytes;
    b += this.resultsBytes;
    b += this.stamp.byteLength + this.counts.byteLength + this.want.byteLength + this.keyPrice.byteLength + this.keyRel.byteLength + this.textMask.byteLength + this.textRel.byteLength + this.matched.byteLength;
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

  private scratch(): void {
    const codes = this.codeIds.length;
    if (this.stamp.length < codes) {
      this.stamp = new Int32Array(codes + 256);
      this.counts = new Int32Array(codes + 256);
      this.want = new Uint8Array(codes + 256);
    }
    if (this.keyPrice.length < this.pCount) {
      this.keyPrice = new Float64Array(this.pCount + 1024);
      this.keyRel = new Float64Array(this.pCount + 1024);
      this.matched = new Int32Array(this.pCount + 1024);
    }
    if (this.textMask.length < this.vCount) {
      this.textMask = new Uint8Array(this.vCount + 1024);
      this.textRel = new Float64Array(this.vCount + 1024);
    }
  }

  /** Whether product `p` is in category `c` (ancestors included). */
  private hasCategory(p: number, c: number): boolean {
    const start = this.pCatStart[p];
    const end = start + this.pCatLen[p];
    for (let i = start; i < end; i++) if (this.catPool[i] === c) return true;
    return false;
  }

  /**
   * Failure mask of variant `v` of product `p` given the product-level mask `pm`, or -1 when a base clause
   * (available, on_sale, text) fails. `want` marks the wanted codes of every filtered dimension.
   */
  private variantMask(v: number, pm: number, q: IndexQuery, dimsV: number[], hasOpt: boolean): number {
    if (q.available && this.vAvail[v] === 0) return -1;
    if (q.onSale && this.vOnSale[v] === 0) return -1;
    if (q.text !== null && this.textMask[v] === 0) return -1;
    let m = pm;
    const want = this.want;
    for (let i = 0; i < dimsV.length; i++) {
      const d = dimsV[i];
      const c = this.vDim[d][v];
      if (c < 0 || want[c] === 0) m |= 1 << d;
    }
    if (hasOpt) {
      let ok = false;
      const s = this.vOptStart[v];
      const e = s + this.vOptLen[v];
      for (let i = s; i < e; i++) {
        if (want[this.optPool[i]] !== 0) {
          ok = true;
          break;
        }
      }
      if (!ok) m |= B_OPT;
    }
    if (q.priceMin !== null || q.priceMax !== null) {
      const price = q.prices[v];
      if ((q.priceMin !== null && price < q.priceMin) || (q.priceMax !== null && price > q.priceMax)) m |= B_PRICE;
    }
    return m;
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

  /** Product-level failure mask: categories (AND) and manufacturers (OR). */
  private productMask(p: number, q: IndexQuery, makers: boolean): number {
    let pm = 0;
    if (q.categories !== null) {
      for (const c of q.categories) {
        if (c < 0 || !this.hasCategory(p, c)) {
          pm |= B_CAT;
          break;
        }
      }
    }
    if (makers) {
      const c = this.pMaker[p];
      if (c < 0 || this.want[c] === 0) pm |= B_MAN;
    }
    return pm;
  }

  /**
   * Per facet code, a byte per product: the product has the value (a category: ancestors included; a variant value:
   * on any visible variant). Built on first use per content version (a stock change keeps them), at most 256 codes.
   * A product missing the wanted values of two filtered dimensions contributes to nothing and is skipped before its
   * variants are looked at.
   */
  private readonly codeMembers = new Map<number, Uint8Array<ArrayBuffer>>();
  private codeMembersVersion = -1;

  private members(c: number): Uint8Array<ArrayBuffer> {
    if (this.codeMembersVersion !== this.contentVersion || this.codeMembers.size > 256) {
      this.codeMembers.clear();
      this.codeMembersVersion = this.contentVersion;
    }
    let m = this.codeMembers.get(c);
    if (!m || m.length < this.pCount) {
      m = new Uint8Array(this.pCount);
      const d = this.codeDim[c];
      for (let p = 0; p < this.pCount; p++) {
        if (d === DIM.categories) {
          if (this.hasCategory(p, c)) m[p] = 1;
          continue;
        }
        if (d === DIM.manufacturers) {
          if (this.pMaker[p] === c) m[p] = 1;
          continue;
        }
        const s0 = this.pVarStart[p];
        for (let i = s0; i < s0 + this.pVarLen[p] && m[p] === 0; i++) {
          const v = this.varPool[i];
          if (d === DIM.custom_fields) {
            const o0 = this.vOptStart[v];
            for (let j = o0; j < o0 + this.vOptLen[v]; j++) if (this.optPool[j] === c) m[p] = 1;
          } else if (this.vDim[d][v] === c) m[p] = 1;
        }
      }
      this.codeMembers.set(c, m);
    }
    return m;
  }

  /** One page of matching products after the cursor, the price range, and facet counts when asked. */
  search(q: IndexQuery, page: IndexPageRequest): IndexResult {
    const { dimsV, hasOpt, makers } = this.prepare(q);
    try {
      const counts = this.counts;
      const stamp = this.stamp;
      const codes = this.codeIds.length;
      const facets = page.facets;
      if (facets) {
        counts.fill(0, 0, codes);
        stamp.fill(0, 0, codes);
      }
      let min = Infinity;
      let max = -Infinity;
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
      const vAvail = this.vAvail;
      const vOnSale = this.vOnSale;
      const pAlive = this.pAlive;
      const pMaker = this.pMaker;
      const pVarStart = this.pVarStart;
      const pVarLen = this.pVarLen;
      const pCatStart = this.pCatStart;
      const pCatLen = this.pCatLen;
      const catPool = this.catPool;
      const varPool = this.varPool;
      const optPool = this.optPool;
      const vOptStart = this.vOptStart;
      const vOptLen = this.vOptLen;
      const priceMin = q.priceMin ?? -Infinity;
      const priceMax = q.priceMax ?? Infinity;
      const priced = q.priceMin !== null || q.priceMax !== null;
      const catSets = (q.categories ?? []).map((c) => (c < 0 ? null : this.members(c)));
      const hasCats = q.categories !== null;
      // per filtered variant dimension (and custom fields): membership of its wanted values, to skip products early
      const preDims: Array<{ bit: number; sets: Array<Uint8Array<ArrayBuffer>> }> = [];
      for (const [d, list] of q.dims) {
        if (d === DIM.manufacturers) continue;
        preDims.push({ bit: 1 << d, sets: list.filter((c) => c >= 0).map((c) => this.members(c)) });
      }
      const nPre = preDims.length;
      const nd = dimsV.length;
      const d0 = nd > 0 ? dimsV[0] : 0;
      const d1 = nd > 1 ? dimsV[1] : 0;
      const d2 = nd > 2 ? dimsV[2] : 0;
      const d3 = nd > 3 ? dimsV[3] : 0;
      const d4 = nd > 4 ? dimsV[4] : 0;
      const col0 = this.vDim[d0];
      const col1 = this.vDim[d1];
      const col2 = this.vDim[d2];
      const col3 = this.vDim[d3];
      const col4 = this.vDim[d4];
      const dimCols = [DIM.colors, DIM.sizes, DIM.years, DIM.countries, DIM.regions].map((d) => this.vDim[d]);
      const pCount = this.pCount;
      for (let p = 0; p < pCount; p++) {
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
          for (let k = 0; k < nPre && misses < 2; k++) {
            const sets = preDims[k].sets;
            let has = false;
            for (let j = 0; j < sets.length; j++) {
              if (sets[j][p] !== 0) {
                has = true;
                break;
              }
            }
            if (!has) misses++;
          }
          if (misses >= 2) continue;
        }
        let best = Infinity;
        let rel = -Infinity;
        let hit = false;
        const vs = pVarStart[p];
        const ve = vs + pVarLen[p];
        const stampId = p + 1;
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
            if (price < min) min = price;
            if (price > max) max = price;
          }
          if (m === 0) {
            hit = true;
            if (price < best) best = price;
            if (text && textRel[v] > rel) rel = textRel[v];
          }
          if (!facets || (m & (m - 1)) !== 0 || (m & B_PRICE) !== 0) continue;
          // m is 0 (count every dimension) or one filtered dimension's bit (count that dimension only)
          if (m === 0 || m === B_MAN) {
            const c = pMaker[p];
            if (c >= 0 && stamp[c] !== stampId) {
              stamp[c] = stampId;
              counts[c]++;
            }
          }
          if (m === 0 || m === B_CAT) {
            const s0 = pCatStart[p];
            const e0 = s0 + pCatLen[p];
            for (let j = s0; j < e0; j++) {
              const c = catPool[j];
              if (stamp[c] !== stampId) {
                stamp[c] = stampId;
                counts[c]++;
              }
            }
          }
          for (let k = 0; k < 5; k++) {
            if (m !== 0 && m !== 1 << (DIM.colors + k)) continue;
            const c = dimCols[k][v];
            if (c >= 0 && stamp[c] !== stampId) {
              stamp[c] = stampId;
              counts[c]++;
            }
          }
          if (m === 0 || m === B_OPT) {
            const s0 = vOptStart[v];
            const e0 = s0 + vOptLen[v];
            for (let j = s0; j < e0; j++) {
              const c = optPool[j];
              if (stamp[c] !== stampId) {
                stamp[c] = stampId;
                counts[c]++;
              }
            }
          }
        }
        if (hit) {
          matched[nMatched++] = p;
          keyPrice[p] = best;
          keyRel[p] = text ? rel : 0;
        }
      }
      const rows = page.n > 0 ? this.topK(matched, nMatched, page) : [];
      return {
        rows,
        min: min === Infinity ? null : min,
        max: max === -Infinity ? null : max,
        counts: facets ? counts : null,
      };
    } finally {
      this.release(q);
    }
  }

  /** The variant slots of product `p` that match every filter (the variants listed on a search). */
  matchingVariants(p: number, q: IndexQuery): number[] {
    const { dimsV, hasOpt, makers } = this.prepare(q);
    try {
      const pm = this.productMask(p, q, makers);
      const out: number[] = [];
      const s = this.pVarStart[p];
      for (let i = s; i < s + this.pVarLen[p]; i++) if (this.variantMask(this.varPool[i], pm, q, dimsV, hasOpt) === 0) out.push(this.varPool[i]);
      return out;
    } finally {
      this.release(q);
    }
  }

  /** The first `n` matched products after the cursor in the order (key, id), by insertion into a bounded buffer. */
  private topK(matched: Int32Array, count: number, page: IndexPageRequest): IndexResult['rows'] {
    const { column, dir, n } = page;
    const ids = this.pIds;
    const isText = column === 'title';
    // numeric keys come from a typed array (no boxing in the loop); titles and manual positions otherwise
    let num: Float64Array | null = null;
    if (column === 'price') num = this.keyPrice;
    else if (column === 'created') num = this.pCreated;
    else if (column === 'rating') num = this.pRating;
    else if (column === 'rel') num = this.keyRel;
    let posArr: Float64Array | null = null;
    if (column === 'pos') {
      posArr = new Float64Array(this.pCount).fill(Number.MAX_SAFE_INTEGER);
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
    const titles = this.pTitle;
    /** dir-adjusted comparison of products a and b by (key, id). */
    const cmpP = (a: number, b: number): number => {
      const d = num !== null ? num[a] - num[b] : compareC(titles[a], titles[b]);
      if (d !== 0) return dir * d;
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
      if (column === 'created') position = new Date(this.pCreated[p]).toISOString();
      else if (isText) position = titles[p];
      else position = num![p];
      return { slot: p, id: ids[p], position: [position, ids[p]] };
    });
  }

  /** Dimension of a code as its facet key. */
  dimKey(code: number): FacetKey {
    return FACET_KEYS[this.codeDim[code]];
  }
}
