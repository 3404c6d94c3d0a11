import { describe, expect, it } from '@jest/globals';
import type { RequestContext } from '../common/context/request-context.js';
import type { CatalogueFilters } from '../extensions/index.js';
import { AnswerMemo } from './answer-memo.js';
import type { CatalogueIndexSource } from './catalogue-index.source.js';
import type { CatalogueSearchRequest } from './catalogue-search.js';
import { facetSetKey, sameSlots, slotsDigest } from './facet-sets.js';
import { IndexQueries } from './index-queries.js';
import { IndexRow, TenantIndex } from './tenant-index.js';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const ctx = { tenantId: 't', activeCurrency: { id: 'eur', code: 'EUR', rate: '1', precision: 2 } } as unknown as RequestContext;

/** 60 wines: grape, region and colour from small lists, every third one out of stock. */
function catalogue(): { idx: TenantIndex; names: Map<string, readonly string[]> } {
  const idx = new TenantIndex('t');
  const names = new Map<string, readonly string[]>();
  let n = 1000;
  const dim = (list: string[]) =>
    list.map((name) => {
      const k = id(n++);
      names.set(k, [name]);
      return k;
    });
  const regions = dim(['Mosel', 'Bordeaux', 'Rioja']);
  const grapes = dim(['Riesling', 'Merlot', 'Tempranillo']);
  const colors = dim(['Red', 'White']);
  const makers = dim(['Weingut Müller', 'Domaine Leflaive', 'Bodegas Torres', 'Château Margaux']);
  for (let p = 0; p < 60; p++) {
    const rows: IndexRow[] = [];
    for (let v = 0; v < 1 + (p % 3); v++)
      rows.push({
        variant_id: id(p * 10 + v),
        product_id: id(100000 + p),
        position: v,
        created: p,
        title_sort: `wine ${p}`,
        rating: 0,
        gross: String(10 + p + v),
        on_sale: false,
        available: (p + v) % 3 !== 0,
        on_hand: 1,
        sku: `SKU-${p}-${v}`,
        manufacturer_id: makers[p % 4],
        color_id: colors[p % 2],
        region_id: regions[p % 3],
        year_id: null,
        size_id: null,
        country_id: null,
        option_ids: [grapes[(p >> 1) % 3]],
        category_ids: [],
        search_text: `wine ${p} sku-${p}-${v}`,
        handle: `wine-${p}`,
      });
    idx.putProduct(id(100000 + p), rows);
  }
  return { idx, names };
}

const filters = (q: string, more: Partial<CatalogueFilters> = {}): CatalogueFilters => ({
  ids: null,
  collectionId: null,
  words: q.split(' '),
  q,
  dims: { manufacturers: [], categories: [], colors: [], sizes: [], years: [], countries: [], regions: [], custom_fields: [] },
  priceMin: null,
  priceMax: null,
  available: false,
  onSale: false,
  order: null,
  includeFacets: true,
  includeSuggestions: false,
  ...more,
});

function request(names: Map<string, readonly string[]>, q: string, more: Partial<CatalogueFilters> = {}, rows = 5): CatalogueSearchRequest {
  return {
    filters: filters(q, more),
    scope: null,
    order: 'relevance',
    after: null,
    rows,
    facets: true,
    rank: { version: 1, of: () => 0 },
    names: { version: 1, of: () => names },
  };
}

describe('facet sets (a text search’s facet counts per matched variant set)', () => {
  it('are shared by the typings of the words that match the same wines, and equal what a fresh engine computes', async () => {
    const { idx, names } = catalogue();
    const queries = new IndexQueries({} as CatalogueIndexSource);
    const typings = ['riesling mosel', 'mosel riesling', 'ries mosel', 'mosel ries', 'riesl mose'];
    const answers = [];
    for (const q of typings) answers.push(await queries.answer(ctx, idx, request(names, q)));
    // each typing once: the set is kept from its second computation, so the third typing on shares its facets
    expect(answers[2].facets).toBe(answers[1].facets);
    expect(answers[4].facets).toBe(answers[1].facets);
    expect(idx.facetSets.size).toBe(1);
    for (const [i, q] of typings.entries()) {
      const fresh = catalogue();
      const alone = await new IndexQueries({} as CatalogueIndexSource).answer(ctx, fresh.idx, request(fresh.names, q));
      expect(alone.facets!.length).toBeGreaterThan(0);
      expect(JSON.parse(JSON.stringify(answers[i]))).toEqual(JSON.parse(JSON.stringify(alone)));
    }
    // another filter, or other wines: not shared
    const inStock = await queries.answer(ctx, idx, request(names, 'riesling mosel', { available: true }));
    expect(inStock.facets).not.toBe(answers[1].facets);
    const fresh = catalogue();
    expect(JSON.parse(JSON.stringify(inStock))).toEqual(
      JSON.parse(
        JSON.stringify(await new IndexQueries({} as CatalogueIndexSource).answer(ctx, fresh.idx, request(fresh.names, 'riesling mosel', { available: true }))),
      ),
    );
    const merlot = await queries.answer(ctx, idx, request(names, 'merlot bordeaux'));
    expect(merlot.facets).not.toBe(answers[1].facets);
  });

  it('are retired by a product change, and a page of another size still gets the right rows', async () => {
    const { idx, names } = catalogue();
    const queries = new IndexQueries({} as CatalogueIndexSource);
    for (const q of ['riesling mosel', 'mosel riesling']) await queries.answer(ctx, idx, request(names, q));
    const small = await queries.answer(ctx, idx, request(names, 'ries mosel', {}, 2));
    expect(small.rows.length).toBe(2);
    expect(idx.facetSets.size).toBe(1);
    idx.contentChanged();
    expect(idx.facetSets.size).toBe(0);
  });

  it('are keyed by every filter but the words, and by the matched slots', () => {
    const { names } = catalogue();
    const slots = Int32Array.from([1, 5, 9]);
    const base = facetSetKey(ctx, request(names, 'riesling mosel'), slots);
    // the words, order, cursor and page size do not change the counts
    const other = { ...request(names, 'mosel ries'), order: 'price asc' as const, after: ['1', 'x'], rows: 3 };
    expect(facetSetKey(ctx, other, slots)).toBe(base);
    const keys = new Set([base]);
    const changes: Array<Partial<CatalogueFilters>> = [
      { ids: ['p'] },
      { priceMin: 1 },
      { priceMax: 1 },
      { available: true },
      { onSale: true },
      { dims: { ...filters('x').dims, colors: ['c'] } },
    ];
    for (const more of changes) keys.add(facetSetKey(ctx, request(names, 'riesling mosel', more), slots));
    keys.add(facetSetKey(ctx, { ...request(names, 'riesling mosel'), rank: { version: 2, of: () => 0 } }, slots));
    keys.add(facetSetKey(ctx, { ...request(names, 'riesling mosel'), scope: { id: 's', type: 'smart', rulesJson: '{}' } }, slots));
    keys.add(facetSetKey({ activeCurrency: { rate: '0.9', precision: 2 } } as unknown as RequestContext, request(names, 'riesling mosel'), slots));
    keys.add(facetSetKey(ctx, request(names, 'riesling mosel'), Int32Array.from([1, 5, 10])));
    expect(keys.size).toBe(changes.length + 5);
    expect(facetSetKey(ctx, { ...request(names, 'x'), scope: { id: 'm', type: 'manual', rulesJson: null } }, slots)).toBeNull();
    expect(slotsDigest(slots)).toBe(slotsDigest(Int32Array.from([1, 5, 9])));
    expect(sameSlots(slots, Int32Array.from([1, 5, 9]))).toBe(true);
    expect(sameSlots(slots, Int32Array.from([1, 5]))).toBe(false);
    expect(sameSlots(slots, Int32Array.from([1, 5, 8]))).toBe(false);
  });
});

describe('AnswerMemo shared parts', () => {
  it('counts a part held by several answers once, until the last of them goes', () => {
    const memo = new AnswerMemo<string>(10, 10_000);
    const part = {};
    memo.set('a', 1, -1, 'a', 100, { part, bytes: 1_000 });
    memo.set('b', 1, -1, 'b', 100, { part, bytes: 1_000 });
    expect(memo.bytes()).toBe(1_200);
    memo.set('c', 1, -1, 'c', 100, { part: {}, bytes: 500 });
    expect(memo.bytes()).toBe(1_800);
    expect(memo.get('a', 2, -1)).toBeUndefined(); // a new version: a goes, b still holds the part
    expect(memo.bytes()).toBe(1_700);
    expect(memo.get('b', 2, -1)).toBeUndefined();
    expect(memo.bytes()).toBe(600);
    memo.clear();
    expect(memo.bytes()).toBe(0);
    memo.set('d', 1, -1, 'd', 100, { part, bytes: 1_000 });
    expect(memo.bytes()).toBe(1_100);
  });

  it('drops the least recently used answers when shared parts take it past its bytes', () => {
    const memo = new AnswerMemo<string>(10, 2_000);
    memo.set('a', 1, -1, 'a', 100, { part: {}, bytes: 400 });
    memo.set('b', 1, -1, 'b', 100, { part: {}, bytes: 400 });
    memo.set('c', 1, -1, 'c', 100, { part: {}, bytes: 400 });
    memo.set('d', 1, -1, 'd', 100, { part: {}, bytes: 400 });
    expect([memo.size, memo.bytes()]).toEqual([4, 2_000]);
    memo.set('e', 1, -1, 'e', 100, { part: {}, bytes: 400 });
    expect([memo.get('a', 1, -1), memo.size, memo.bytes()]).toEqual([undefined, 4, 2_000]);
  });
});
