import { describe, expect, it } from '@jest/globals';
import type { CatalogueFilters } from '../extensions/index.js';
import type { CatalogueSearchRequest } from './catalogue-search.js';
import { answerKey } from './index-queries.js';

const filters = (): CatalogueFilters => ({
  ids: null,
  collectionId: null,
  words: [],
  q: null,
  dims: { manufacturers: [], categories: ['c1'], colors: [], sizes: [], years: [], countries: [], regions: [], custom_fields: [] },
  priceMin: null,
  priceMax: null,
  available: false,
  onSale: false,
  order: null,
  includeFacets: true,
  includeSuggestions: false,
});
const request = (): CatalogueSearchRequest => ({
  filters: filters(),
  scope: null,
  order: 'created desc',
  after: null,
  rows: 25,
  facets: true,
  rank: { version: 1, of: () => 0 },
});
const ctx = { activeCurrency: { id: 'eur', code: 'EUR', rate: '1', precision: 2 } } as unknown as Parameters<typeof answerKey>[0];

describe('answerKey', () => {
  it('differs whenever anything the answer depends on differs', () => {
    const base = answerKey(ctx, request());
    const variants: Array<[string, (r: CatalogueSearchRequest) => void]> = [
      ['ids', (r) => (r.filters.ids = ['p1'])],
      ['words', (r) => (r.filters.words = ['merlot'])],
      ['q (an exact SKU)', (r) => (r.filters.q = 'ALP-1')],
      ['a dimension', (r) => (r.filters.dims.colors = ['red'])],
      ['another category', (r) => (r.filters.dims.categories = ['c2'])],
      ['price_min', (r) => (r.filters.priceMin = 10)],
      ['price_max', (r) => (r.filters.priceMax = 10)],
      ['available', (r) => (r.filters.available = true)],
      ['on_sale', (r) => (r.filters.onSale = true)],
      ['a smart scope', (r) => (r.scope = { id: 's1', type: 'smart', rulesJson: '{"all":[]}' })],
      ['order', (r) => (r.order = 'price asc')],
      ['cursor', (r) => (r.after = ['2026-01-01', 'p9'])],
      ['rows', (r) => (r.rows = 11)],
      ['facets', (r) => (r.facets = false)],
      ['facet ranks', (r) => (r.rank = { version: 2, of: () => 0 })],
    ];
    const keys = new Set([base]);
    for (const [what, change] of variants) {
      const r = request();
      change(r);
      const key = answerKey(ctx, r);
      expect({ what, fresh: !keys.has(key) }).toEqual({ what, fresh: true });
      keys.add(key);
    }
    for (const currency of [
      { id: 'chf', code: 'CHF', rate: '0.95', precision: 2 },
      { id: 'jpy', code: 'JPY', rate: '1', precision: 0 },
    ]) {
      const key = answerKey({ activeCurrency: currency } as unknown as typeof ctx, request());
      expect(keys.has(key)).toBe(false);
      keys.add(key);
    }
  });

  it('ignores the facet ranks of a question without facets, and gives no key to a manual collection', () => {
    const a = request();
    const b = request();
    a.facets = b.facets = false;
    b.rank = { version: 7, of: () => 1 };
    expect(answerKey(ctx, a)).toBe(answerKey(ctx, b));
    const manual = request();
    manual.scope = { id: 'm1', type: 'manual', rulesJson: null };
    expect(answerKey(ctx, manual)).toBeNull();
  });
});
