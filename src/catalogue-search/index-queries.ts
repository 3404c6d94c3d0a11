import type { RequestContext } from '../common/context/request-context.js';
import { FACET_KEYS, type OrderSpec } from '../extensions/index.js';
import type { SearchSynonymsReader } from '../search-synonyms/index.js';
import type { CatalogueIndexSource } from './catalogue-index.source.js';
import { expandQuery } from './synonym-expand.js';
import { facetBytes, facetSetBytes, facetSetKey, filtersButWords, sameSlots, type FacetSet } from './facet-sets.js';
import type { CatalogueSearchRequest, CatalogueSearchResult } from './catalogue-search.js';
import { DIM } from './dims.js';
import type { IndexQuery, OrderColumn } from './index-types.js';
import type { ReadonlyTenantIndex } from './tenant-index-view.js';

/** Each code's dimension (-1: none) and its place in that dimension's facet order. */
interface RankedCodes {
  dimOf: Int8Array;
  pos: Int32Array;
}

const ORDER_COLUMN: Record<OrderSpec, [OrderColumn, 1 | -1]> = {
  'price asc': ['price', 1],
  'price desc': ['price', -1],
  'created asc': ['created', 1],
  'created desc': ['created', -1],
  'title asc': ['title', 1],
  'title desc': ['title', -1],
  'rating desc': ['rating', -1],
  relevance: ['rel', -1],
  manual: ['pos', 1],
};

/**
 * A storefront catalogue question answered by a tenant's index: filters and collection scope as codes, text search
 * resolved to variants (PostgreSQL matching, memoized per content version), the pass (`TenantIndex.search`), and the
 * facet counts as ranked `(id, count)` lists. A question's answer is kept from its second ask (`AnswerMemo.admit`)
 * and answered from `TenantIndex.answers` while provably current (`AnswerMemo`: same content version, and same
 * availability version when it filters on availability); a manual collection's picks are read each time, so its
 * questions are always computed.
 */
export class IndexQueries {
  /** Questions answered from the memo, and computed, since start (metrics). */
  hits = 0;
  misses = 0;
  /** Facet lists kept in `TenantIndex.memo` (a whole category's statistics row): counted there, not per answer. */
  private readonly sharedFacets = new WeakSet<object>();
  /** A text search's facet lists (`facet-sets.ts`) with their estimated bytes: counted once by the answers holding them. */
  private readonly textFacets = new WeakMap<object, number>();

  constructor(
    private readonly source: CatalogueIndexSource,
    private readonly synonyms?: SearchSynonymsReader,
  ) {}

  async answer(ctx: RequestContext, idx: ReadonlyTenantIndex, req: CatalogueSearchRequest): Promise<CatalogueSearchResult> {
    const base = answerKey(ctx, req);
    // a text answer also depends on the facet names it matched and the shop's synonyms
    const key = base !== null && req.filters.words.length > 0 ? `${base}|${req.names?.version ?? 0}|${this.synonyms?.version(ctx.tenantId) ?? 0}` : base;
    // what the answer depends on besides the question: the content, and the availability only when filtered on
    const avail = () => (req.filters.available ? idx.availVersion : -1);
    const contentVersion = idx.contentVersion;
    const availVersion = avail();
    if (key !== null) {
      const kept = idx.answers.get(key, contentVersion, availVersion);
      if (kept) {
        this.hits += 1;
        return kept;
      }
    }
    this.misses += 1;
    const out = await this.compute(ctx, idx, req);
    // kept only if nothing it depends on changed while it was computed (the text match and scope may await), and from
    // the question's second ask (`AnswerMemo.admit`)
    if (key !== null && idx.contentVersion === contentVersion && avail() === availVersion && idx.answers.admit(key)) {
      // a text search's facets may be held by other answers too (every typing matching the same wines): counted once
      const part = out.facets !== null ? this.textFacets.get(out.facets) : undefined;
      const own = answerBytes(key, out, out.facets !== null && (part !== undefined || this.sharedFacets.has(out.facets)));
      idx.answers.set(key, contentVersion, availVersion, frozen(out), own, part !== undefined ? { part: out.facets!, bytes: part } : undefined);
    }
    return out;
  }

  private async compute(ctx: RequestContext, idx: ReadonlyTenantIndex, req: CatalogueSearchRequest): Promise<CatalogueSearchResult> {
    const f = req.filters;
    const cur = ctx.activeCurrency;
    // a facet set is kept only if no product changed while the question was computed (the text match and scope may await)
    const version = idx.contentVersion;
    let allowed: Uint8Array | null = null;
    const restrict = (slots: Iterable<number>) => {
      const next = new Uint8Array(idx.pCount);
      for (const s of slots) if (allowed === null || allowed[s]) next[s] = 1;
      allowed = next;
    };
    if (f.ids) restrict(f.ids.map((id) => idx.pIndex.get(id)).filter((s): s is number => s !== undefined));
    let pos: Map<number, number> | undefined;
    if (req.scope) {
      const scoped = await this.scopeProducts(ctx, idx, req.scope);
      restrict(scoped.keys());
      if (req.scope.type === 'manual') pos = scoped;
    }
    const dims = new Map<number, number[]>();
    for (const k of FACET_KEYS) {
      if (k === 'categories' || f.dims[k].length === 0) continue;
      dims.set(
        DIM[k],
        f.dims[k].map((id) => idx.codeOf.get(id) ?? -1),
      );
    }
    const text = await this.textMatches(ctx, idx, req);
    const q: IndexQuery = {
      allowed,
      categories: f.dims.categories.length > 0 ? f.dims.categories.map((id) => idx.codeOf.get(id) ?? -1) : null,
      dims,
      priceMin: f.priceMin,
      priceMax: f.priceMax,
      available: f.available,
      onSale: f.onSale,
      text,
      prices: idx.prices(cur.rate, cur.precision),
    };
    // a text search's facet counts depend on the variants it matched, not on how its words were typed: kept per
    // matched set (`facet-sets.ts`); with them at hand the pass only finds the page and the price range
    const setKey = req.facets && text !== null && idx.contentVersion === version ? facetSetKey(ctx, req, text.slots) : null;
    const availVersion = f.available ? idx.availVersion : -1;
    const kept = setKey !== null ? idx.facetSets.get(setKey, version, availVersion) : undefined;
    const shared = kept !== undefined && sameSlots(kept.slots, text!.slots) ? kept.facets : null;
    const [column, dir] = ORDER_COLUMN[req.order];
    const res = idx.search(q, { column, dir, after: req.after, n: req.rows, pos, facets: req.facets && shared === null });
    let facets: CatalogueSearchResult['facets'] = shared;
    if (res.counts) {
      // a whole category's counts are a row of the index's category statistics: its ranked list is made once per
      // content version and rank version (the same object each time, so its JSON is written once per language)
      const key = res.category !== undefined ? `facets|${res.category}|${req.rank.version}|${idx.codeIds.length}` : null;
      const hit = key !== null ? idx.memo.get(key) : undefined;
      if (hit && hit.version === idx.contentVersion) facets = hit.value as CatalogueSearchResult['facets'];
      else {
        const counts = res.counts;
        const { dimOf, pos } = this.rankedCodes(idx, req.rank);
        // the counted codes of each dimension, found in one pass over the counts and put in rank order (a search
        // counts a few hundred of a dimension's thousands of values: walking every ranked code cost more)
        const counted: number[][] = FACET_KEYS.map(() => []);
        for (let c = 0, codes = idx.codeIds.length; c < codes; c++) if (counts[c] > 0 && dimOf[c] >= 0) counted[dimOf[c]].push(c);
        const groups: NonNullable<CatalogueSearchResult['facets']> = [];
        let n = 0;
        FACET_KEYS.forEach((key, d) => {
          const values = counted[d].sort((a, b) => pos[a] - pos[b]).map((c) => ({ id: idx.codeIds[c], count: counts[c] }));
          if (values.length > 0) groups.push({ key, values });
          n += values.length;
        });
        facets = groups;
        if (key !== null) {
          this.remember(idx, key, groups, 64 + n * 48);
          this.sharedFacets.add(groups);
        }
        if (setKey !== null) {
          this.textFacets.set(groups, facetBytes(groups));
          const set: FacetSet = { slots: text!.slots, facets: groups };
          if (idx.facetSets.admit(setKey)) idx.facetSets.set(setKey, version, availVersion, set, facetSetBytes(setKey, set));
        }
      }
    }
    const variants = text
      ? idx.matchingVariants(
          res.rows.map((r) => r.slot),
          q,
        )
      : null;
    const rows = res.rows.map((r, i) => ({
      id: r.id,
      position: r.position,
      variantIds: variants ? variants[i].map((v) => idx.vIds[v]) : null,
    }));
    return { rows, facets, priceRange: { min: res.min, max: res.max } };
  }

  /**
   * Codes of each dimension ordered by rank then id, as each code's dimension (`dimOf`, -1: none) and place in its
   * dimension's order (`pos`), memoized per rank version and dictionary size.
   */
  private rankedCodes(idx: ReadonlyTenantIndex, rank: CatalogueSearchRequest['rank']): RankedCodes {
    const key = `rank|${rank.version}|${idx.codeIds.length}`;
    const hit = idx.memo.get(key);
    if (hit) return hit.value as RankedCodes;
    for (const k of [...idx.memo.keys()]) if (k.startsWith('rank|')) idx.memo.delete(k);
    const codes = idx.codeIds.length;
    const dimOf = new Int8Array(codes).fill(-1);
    const pos = new Int32Array(codes);
    idx.dimCodes.forEach((list, d) => {
      const order = [...list].sort(
        (a, b) => rank.of(idx.codeIds[a]) - rank.of(idx.codeIds[b]) || (idx.codeIds[a] < idx.codeIds[b] ? -1 : idx.codeIds[a] > idx.codeIds[b] ? 1 : 0),
      );
      order.forEach((c, i) => {
        dimOf[c] = d;
        pos[c] = i;
      });
    });
    const value: RankedCodes = { dimOf, pos };
    idx.memo.set(key, { version: idx.contentVersion, value, bytes: codes * 5 });
    return value;
  }

  /**
   * Variants matching the search (issue 35), in memory: a query that is exactly a SKU (case-insensitive) matches only
   * the variants with that SKU; otherwise the words, expanded by the shop's synonyms, through the text index
   * (`TextMatcher`: each word a prefix, typo or exact match of the own text or of a facet name; words ANDed).
   */
  private async textMatches(
    ctx: RequestContext,
    idx: ReadonlyTenantIndex,
    req: CatalogueSearchRequest,
  ): Promise<{ slots: Int32Array; rel: Float64Array } | null> {
    const f = req.filters;
    const raw = (f.q ?? '').trim().toLowerCase();
    const bySku = raw ? idx.skuIndex.get(raw) : undefined;
    if (bySku && bySku.length > 0) return { slots: Int32Array.from(bySku), rel: new Float64Array(bySku.length).fill(1) };
    if (f.words.length === 0) return null;
    if (req.names) idx.text.setNames(idx, req.names.version, req.names.of);
    const rules = this.synonyms ? await this.synonyms.rulesFor(ctx.tenantId) : [];
    return idx.textMatcher().match(expandQuery(f.words, rules), raw);
  }

  /** Did-you-mean: for each word without a match of its own, its closest terms; the combinations that match, counted. */
  async didYouMean(ctx: RequestContext, idx: ReadonlyTenantIndex, req: CatalogueSearchRequest, limit: number): Promise<Array<{ q: string; count: number }>> {
    const words = req.filters.words;
    if (words.length === 0) return [];
    if (req.names) idx.text.setNames(idx, req.names.version, req.names.of);
    const matcher = idx.textMatcher();
    idx.text.sync(idx);
    const options = words.map((w) => (matcher.word(w).slots.length > 0 ? [w] : idx.text.corrections(w, 3)));
    if (options.some((o) => o.length === 0)) return [];
    let queries: string[][] = [[]];
    for (const o of options) queries = queries.flatMap((q) => o.map((w) => [...q, w])).slice(0, 9);
    const out: Array<{ q: string; count: number }> = [];
    for (const q of queries) {
      if (q.join(' ') === words.join(' ')) continue;
      const count = productCount(idx, await this.textMatches(ctx, idx, { ...req, filters: { ...req.filters, words: q, q: q.join(' ') } }));
      if (count > 0) out.push({ q: q.join(' '), count });
    }
    return out.sort((a, b) => b.count - a.count).slice(0, limit);
  }

  /** Products of a collection: a manual one's picks with their positions (read each time), a smart one's rules (memoized per content version). */
  private async scopeProducts(
    ctx: RequestContext,
    idx: ReadonlyTenantIndex,
    scope: NonNullable<CatalogueSearchRequest['scope']>,
  ): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (scope.type === 'manual') {
      const rows = await this.source.manualPicks(ctx.tenantId, scope.id);
      for (const r of rows) {
        const s = idx.pIndex.get(r.product_id);
        if (s !== undefined) out.set(s, r.pos);
      }
      return out;
    }
    const key = `smart|${scope.rulesJson ?? ''}`;
    const hit = idx.memo.get(key);
    let slots: Int32Array;
    if (hit && hit.version === idx.contentVersion) slots = hit.value as Int32Array;
    else {
      const version = idx.contentVersion;
      const members = await this.source.smartMembers(ctx.tenantId, scope);
      slots = Int32Array.from(members.map((id) => idx.pIndex.get(id)).filter((s): s is number => s !== undefined));
      if (idx.contentVersion === version) this.remember(idx, key, slots, slots.byteLength + 64);
    }
    for (const s of slots) out.set(s, 0);
    return out;
  }

  private remember(idx: ReadonlyTenantIndex, key: string, value: unknown, bytes: number): void {
    if (idx.memo.size >= 256) idx.memo.delete(idx.memo.keys().next().value!);
    idx.memo.set(key, { version: idx.contentVersion, value, bytes });
  }
}

/**
 * The whole question as a memo key: every filter, the scope's rules, order, cursor, rows, facets (with the facet
 * ranks' version, which orders them) and the currency's conversion (prices). Null for a manual collection (its picks
 * are read each time).
 */
export function answerKey(ctx: Pick<RequestContext, 'activeCurrency'>, req: CatalogueSearchRequest): string | null {
  if (req.scope?.type === 'manual') return null;
  const f = req.filters;
  const cur = ctx.activeCurrency;
  return JSON.stringify([
    ...filtersButWords(req),
    f.words,
    (f.q ?? '').trim().toLowerCase(),
    req.order,
    req.after,
    req.rows,
    req.facets,
    req.facets ? req.rank.version : null,
    cur.rate,
    cur.precision,
  ]);
}

/** Distinct live products of a text match. */
function productCount(idx: ReadonlyTenantIndex, text: { slots: Int32Array } | null): number {
  if (!text) return 0;
  const seen = new Set<number>();
  for (const v of text.slots) if (idx.vProduct[v] >= 0 && idx.pAlive[idx.vProduct[v]]) seen.add(idx.vProduct[v]);
  return seen.size;
}

/**
 * Estimated bytes an answer holds: its rows, and its facets with their JSON (written once per language, kept as long
 * as the answer) unless the facet list is a whole category's, counted once in `TenantIndex.memo`.
 */
function answerBytes(key: string, a: CatalogueSearchResult, sharedFacets: boolean): number {
  let b = 256 + key.length * 2;
  for (const r of a.rows) b += 160 + (r.variantIds?.length ?? 0) * 56;
  if (a.facets && !sharedFacets) for (const g of a.facets) b += 64 + g.values.length * 160;
  return b;
}

/** A kept answer is shared by every request asking the question: its arrays and rows are frozen (read-only). */
function frozen(a: CatalogueSearchResult): CatalogueSearchResult {
  for (const r of a.rows) {
    Object.freeze(r.position);
    if (r.variantIds) Object.freeze(r.variantIds);
    Object.freeze(r);
  }
  Object.freeze(a.rows);
  if (a.facets) {
    for (const g of a.facets) {
      Object.freeze(g.values);
      Object.freeze(g);
    }
    Object.freeze(a.facets);
  }
  Object.freeze(a.priceRange);
  return Object.freeze(a);
}
