import { expandQuery, type ExpandedQuery } from './synonym-expand.js';
import { boundedDistance, isNumber, textTokens, typoBudget } from './text-fold.js';
import { SCORE } from './text-match.js';
import { IndexRow, TenantIndex } from './tenant-index.js';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('text folding', () => {
  it('folds accents and case, keeps decimals as one number', () => {
    expect(textTokens('Côtes du Rhône')).toEqual(['cotes', 'du', 'rhone']);
    expect(textTokens('Spätburgunder Straße 1,50 l')).toEqual(['spatburgunder', 'strasse', '1.5', 'l']);
    expect(textTokens('ALP-MER-18-150')).toEqual(['alp', 'mer', '18', '150']);
    expect(isNumber('2015')).toBe(true);
    expect(isNumber('r2')).toBe(false);
  });

  it('allows one edit from 5 letters, two from 9, none for numbers', () => {
    expect(typoBudget('pinot')).toBe(1);
    expect(typoBudget('rie')).toBe(0);
    expect(typoBudget('chardonay')).toBe(2);
    expect(typoBudget('20155')).toBe(0);
    expect(boundedDistance('chardonay', 'chardonnay', 2)).toBe(1);
    expect(boundedDistance('rieslng', 'riesling', 1)).toBe(1);
    expect(boundedDistance('merlot', 'malbec', 2)).toBe(3);
  });
});

describe('synonym expansion', () => {
  const rules = [
    { id: 'a', kind: 'two_way' as const, terms: ['syrah', 'shiraz'], synonyms: [] },
    { id: 'b', kind: 'one_way' as const, terms: ['bubbly'], synonyms: ['sparkling', 'champagne', 'cremant'] },
    { id: 'c', kind: 'two_way' as const, terms: ['pinot grigio', 'pinot gris'], synonyms: [] },
  ];

  it('expands two-way sets both ways, one-way only from its terms, phrases included', () => {
    expect(expandQuery(['shiraz', '2015'], rules)).toEqual([[['shiraz'], ['syrah']], [['2015']]]);
    expect(expandQuery(['syrah'], rules)).toEqual([[['syrah'], ['shiraz']]]);
    expect(expandQuery(['bubbly'], rules)).toEqual([[['bubbly'], ['sparkling'], ['champagne'], ['cremant']]]);
    expect(expandQuery(['champagne'], rules)).toEqual([[['champagne']]]);
    expect(expandQuery(['red', 'pinot', 'grigio'], rules)).toEqual([
      [['red']],
      [
        ['pinot', 'grigio'],
        ['pinot', 'gris'],
      ],
    ]);
    expect(expandQuery(['pinot'], rules)).toEqual([[['pinot']]]);
    expect(expandQuery(['pinot', 'grigio'], [])).toEqual([[['pinot']], [['grigio']]]);
  });
});

// ------------------------------------------------------------------ the engine against a brute-force matcher

/** A small deterministic random generator. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = ['riesling', 'chardonnay', 'merlot', 'pinot', 'noir', 'chateau', 'margaux', 'muller', 'thurgau', 'golf', 'reserve', 'grand', 'cru', 'brut'];
const REGIONS = ['Bordeaux', 'Côtes du Rhône', 'Mosel', 'Champagne', 'Rioja'];
const COLORS = ['Red', 'White', 'Rosé'];
const YEARS = ['2015', '2016', '2018', '2020'];
const SIZES = ['0,75 l', '1,5 l', '0,375 l'];
const GRAPES = ['Riesling', 'Syrah', 'Pinot Noir', 'Chardonnay', 'Tempranillo'];

function catalogue(): { idx: TenantIndex; names: Map<string, readonly string[]> } {
  const r = rng(7);
  const pick = <T>(a: readonly T[]) => a[Math.floor(r() * a.length)];
  const idx = new TenantIndex('t');
  const names = new Map<string, readonly string[]>();
  let n = 1000;
  const dim = (list: string[]) =>
    list.map((name) => {
      const k = id(n++);
      names.set(k, [name]);
      return k;
    });
  const regions = dim(REGIONS);
  const colors = dim(COLORS);
  const years = dim(YEARS);
  const sizes = dim(SIZES);
  const grapes = dim(GRAPES);
  const makers = dim(['Weingut Müller', 'Domaine Leflaive', 'Bodegas Torres']);
  const cats = dim(['Wine', 'Sparkling']);
  for (let p = 0; p < 120; p++) {
    const rows: IndexRow[] = [];
    const title = `${pick(WORDS)} ${pick(WORDS)}`;
    const maker = pick(makers);
    const region = pick(regions);
    const cat = [pick(cats)];
    for (let v = 0; v < 1 + Math.floor(r() * 3); v++)
      rows.push({
        variant_id: id(p * 10 + v),
        product_id: id(100000 + p),
        position: v,
        created: p,
        title_sort: title,
        rating: 0,
        gross: '10',
        on_sale: false,
        available: true,
        on_hand: 1,
        sku: `SKU-${p}-${v}`,
        manufacturer_id: maker,
        color_id: pick(colors),
        region_id: region,
        year_id: pick(years),
        size_id: pick(sizes),
        country_id: null,
        option_ids: [pick(grapes)],
        category_ids: cat,
        search_text: `${title} ${names.get(maker)![0]} sku-${p}-${v}`.toLowerCase(),
        handle: `wine-${p}`,
      });
    idx.putProduct(id(100000 + p), rows);
  }
  return { idx, names };
}

/** Brute force: every live variant, its own words and its codes' name words; each query word must match one. */
function brute(idx: TenantIndex, names: Map<string, readonly string[]>, words: string[]): Set<number> {
  const out = new Set<number>();
  const wordOk = (w: string, tokens: string[]) =>
    tokens.some((t) => t === w || (!isNumber(w) && (t.startsWith(w) || (!isNumber(t) && boundedDistance(w, t, typoBudget(w)) <= typoBudget(w)))));
  for (let v = 0; v < idx.vCount; v++) {
    const p = idx.vProduct[v];
    if (p < 0) continue;
    const [text, handle] = idx.text.source(v);
    const codes = [idx.pMaker[p], ...Array.from(idx.catPool.subarray(idx.pCatStart[p], idx.pCatStart[p] + idx.pCatLen[p]))];
    for (const col of idx.vDim) if (col.length > v) codes.push(col[v]);
    for (let i = idx.vOptStart[v]; i < idx.vOptStart[v] + idx.vOptLen[v]; i++) codes.push(idx.optPool[i]);
    const tokens = textTokens(`${text} ${handle ?? ''}`);
    for (const c of codes) if (c >= 0) for (const name of names.get(idx.codeIds[c]) ?? []) tokens.push(...textTokens(name));
    if (words.every((w) => wordOk(w, tokens))) out.add(v);
  }
  return out;
}

describe('text matching in the engine', () => {
  it('matches exactly what a brute-force matcher matches, for 200 random queries', () => {
    const { idx, names } = catalogue();
    idx.text.setNames(idx, 1, () => names);
    const r = rng(42);
    const vocabulary = [...WORDS, ...REGIONS, ...COLORS, ...YEARS, ...SIZES, ...GRAPES, 'torres', 'leflaive', 'sku', 'wine'].flatMap((w) => textTokens(w));
    const mangle = (w: string) => {
      const k = r();
      if (k < 0.3 && w.length > 3) return w.slice(0, 2 + Math.floor(r() * (w.length - 2))); // prefix
      if (k < 0.5 && w.length > 4) {
        const i = Math.floor(r() * w.length);
        return w.slice(0, i) + w.slice(i + 1); // one letter dropped
      }
      if (k < 0.6 && w.length > 4) {
        const i = Math.floor(r() * w.length);
        return `${w.slice(0, i)}x${w.slice(i + 1)}`; // one letter changed
      }
      return w;
    };
    let nonEmpty = 0;
    for (let q = 0; q < 200; q++) {
      const words = Array.from({ length: 1 + Math.floor(r() * 3) }, () => mangle(vocabulary[Math.floor(r() * vocabulary.length)]));
      const got = idx.textMatcher().match(
        words.map((w) => [[w]]),
        words.join(' '),
      );
      const want = brute(idx, names, words);
      expect([...got.slots].sort((a, b) => a - b)).toEqual([...want].sort((a, b) => a - b));
      if (want.size > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(50);
  });

  it('scores exact over prefix over typo, own text over facet names, and follows product changes', () => {
    const { idx, names } = catalogue();
    idx.text.setNames(idx, 1, () => names);
    const m = idx.textMatcher();
    const score = (w: string, v: number) => {
      const res = m.match([[[w]]], w);
      const i = [...res.slots].indexOf(v);
      return i < 0 ? null : res.rel[i];
    };
    const v0 = 0;
    const own = idx.text.source(v0)[0].split(' ')[0];
    expect(score(own, v0)).toBe(SCORE.exactOwn);
    expect(score(own.slice(0, 3), v0)).toBeGreaterThanOrEqual(SCORE.prefixOwn);
    // a rename reaches the text: the new word matches, the old variant slots no longer do
    const before = m.match([[['zinfandel']]], 'zinfandel');
    expect(before.slots.length).toBe(0);
    const pid = idx.pIds[0];
    const rows: IndexRow[] = [{ ...rowOf(idx, 0), search_text: 'zinfandel special', title_sort: 'zinfandel special' }];
    idx.putProduct(pid, rows);
    idx.contentVersion += 1;
    const after = m.match([[['zinfandel']]], 'zinfandel');
    expect([...after.slots].map((v) => idx.vProduct[v])).toEqual([0]);
    expect([...m.match([[['zinfandl']]], 'zinfandl').slots]).toEqual([...after.slots]);
  });
});

describe('text matcher memory', () => {
  it('counts each kept word and group list once, as they come and go', () => {
    const { idx, names } = catalogue();
    idx.text.setNames(idx, 1, () => names);
    const m = idx.textMatcher();
    const grape: ExpandedQuery = [[['pinot', 'noir'], ['syrah']], [['riesling']]];
    m.match(grape, 'x');
    const once = m.bytes();
    m.match(grape, 'x');
    expect(m.bytes()).toBe(once);
    m.match([[['chardonnay']]], 'chardonnay');
    expect(m.bytes()).toBeGreaterThan(once);
    // a content change makes every list again: each replaces its old entry, nothing is counted twice
    idx.contentVersion += 1;
    m.match(grape, 'x');
    m.match([[['chardonnay']]], 'chardonnay');
    const again = m.bytes();
    idx.contentVersion += 1;
    m.match(grape, 'x');
    m.match([[['chardonnay']]], 'chardonnay');
    expect(m.bytes()).toBe(again);
  });
});

describe('text matching after a layout', () => {
  it('the copy takes the synced dictionary renumbered (no slot tokenized again) and matches as the brute force does', () => {
    const { idx, names } = catalogue();
    idx.text.setNames(idx, 1, () => names);
    // a renamed product leaves dead slots behind, which the copy drops
    idx.putProduct(idx.pIds[3], [{ ...rowOf(idx, 3), search_text: 'zinfandel special', title_sort: 'zinfandel special' }]);
    idx.contentVersion += 1;
    const m = idx.textMatcher();
    m.match([[['riesling']]], 'riesling'); // syncs the source's dictionary
    const job = idx.layout();
    for (const slice of job.slices) void slice;
    expect(job.current()).toBe(true);
    job.finish();
    const copy = job.copy;
    expect(copy.text.synced(copy)).toBe(true);
    const r = rng(5);
    const vocabulary = [...WORDS, ...REGIONS, ...GRAPES, 'zinfandel', 'wine', 'sku'].flatMap((w) => textTokens(w));
    const ids = (x: TenantIndex, slots: Iterable<number>) => [...slots].map((v) => x.vIds[v]).sort();
    let nonEmpty = 0;
    for (let q = 0; q < 100; q++) {
      const words = Array.from({ length: 1 + Math.floor(r() * 2) }, () => {
        const w = vocabulary[Math.floor(r() * vocabulary.length)];
        return r() < 0.4 && w.length > 4 ? w.slice(0, 4) : w;
      });
      const got = copy.textMatcher().match(
        words.map((w) => [[w]]),
        words.join(' '),
      );
      const want = brute(copy, names, words);
      expect(ids(copy, got.slots)).toEqual(ids(copy, want));
      expect(ids(copy, got.slots)).toEqual(
        ids(
          idx,
          m.match(
            words.map((w) => [[w]]),
            words.join(' '),
          ).slots,
        ),
      );
      if (want.size > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(30);
    // the handle boost follows the renumbering
    const v = Array.from({ length: copy.vCount }, (_, i) => i).find((i) => copy.vProduct[i] >= 0 && copy.text.source(i)[1] !== null)!;
    const handle = copy.text.source(v)[1]!;
    const boosted = copy.textMatcher().match(
      textTokens(handle).map((w) => [[w]]),
      handle,
    );
    const at = [...boosted.slots].indexOf(v);
    expect(boosted.rel[at]).toBeGreaterThanOrEqual(100);
  });
});

function rowOf(idx: TenantIndex, p: number): IndexRow {
  const v = idx.varPool[idx.pVarStart[p]];
  const code = (c: number) => (c < 0 ? null : idx.codeIds[c]);
  return {
    variant_id: `${idx.vIds[v].slice(0, -4)}9999`,
    product_id: idx.pIds[p],
    position: 0,
    created: 0,
    title_sort: '',
    rating: 0,
    gross: '10',
    on_sale: false,
    available: true,
    on_hand: 1,
    sku: null,
    manufacturer_id: code(idx.pMaker[p]),
    color_id: null,
    region_id: null,
    year_id: null,
    size_id: null,
    country_id: null,
    option_ids: [],
    category_ids: [],
  };
}
