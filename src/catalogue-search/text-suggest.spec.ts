import { textTokens } from './text-fold.js';
import { IndexRow, TenantIndex } from './tenant-index.js';
import {
  codeCandidates,
  codeProductCount,
  firstInOrder,
  matchQuality,
  productCandidates,
  QUALITY,
  rankAndGroup,
  SuggestCandidate,
  suggestWords,
} from './text-suggest.js';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = ['riesling', 'rioja', 'merlot', 'pinot', 'noir', 'château', 'margaux', 'müller', 'reserve', 'grand', 'cru', 'brut'];
const NAMES = ['Riesling', 'Rioja', 'Rot', 'Red', 'Côtes du Rhône', 'Pinot Noir', 'Weingut Müller', 'Wine', 'Sparkling', 'Mosel', '2015', '75 cl'];

/** A small random catalogue: products with a title of two words, codes named from NAMES; some products removed. */
function catalogue(): { idx: TenantIndex; names: Map<string, readonly string[]>; titles: Map<number, string>; codesOf: Map<number, string[]> } {
  const r = rng(11);
  const pick = <T>(a: readonly T[]) => a[Math.floor(r() * a.length)];
  const idx = new TenantIndex('t');
  const names = new Map<string, readonly string[]>();
  NAMES.forEach((n, i) => names.set(id(1000 + i), [n]));
  const codes = [...names.keys()];
  const titles = new Map<number, string>();
  const codesOf = new Map<number, string[]>();
  for (let p = 0; p < 80; p++) {
    const title = `${pick(WORDS)} ${pick(WORDS)}`;
    const mine = [pick(codes), pick(codes)];
    const rows: IndexRow[] = [0, 1].map((v) => ({
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
      sku: null,
      manufacturer_id: null,
      color_id: mine[v],
      region_id: null,
      year_id: null,
      size_id: null,
      country_id: null,
      option_ids: [],
      category_ids: [],
      search_text: title,
      handle: null,
    }));
    idx.putProduct(id(100000 + p), rows);
    titles.set(p, title);
    codesOf.set(p, mine);
  }
  // removed products: neither found nor counted
  for (let p = 0; p < 80; p += 7) {
    idx.putProduct(id(100000 + p), []);
    titles.delete(p);
    codesOf.delete(p);
  }
  idx.text.setNames(idx, 1, () => names);
  idx.text.sync(idx);
  return { idx, names, titles, codesOf };
}

const begins = (words: string[], text: string) => words.every((w) => textTokens(text).some((t) => t.startsWith(w)));

describe('suggestions (issue 35): matching and ranking', () => {
  it('scores a label by how it begins with the words', () => {
    expect(matchQuality(['riesling'], 'Riesling')).toBe(QUALITY.exact);
    expect(matchQuality(['rie'], 'Riesling Kabinett')).toBe(QUALITY.start);
    expect(matchQuality(['cote', 'du', 'rh'], 'Côtes du Rhône')).toBe(QUALITY.start);
    expect(matchQuality(['rie'], 'Bravo Riesling')).toBe(QUALITY.word);
    expect(matchQuality(['ries', 'bra'], 'Bravo Riesling')).toBe(QUALITY.any);
    expect(matchQuality(['rix'], 'Bravo Riesling')).toBe(0);
    expect(matchQuality([], 'Riesling')).toBe(0);
    expect(suggestWords('  Côtes-du ')).toEqual(['cotes', 'du']);
  });

  it('finds products and codes as a brute force over the catalogue does, with visible counts', () => {
    const { idx, names, titles, codesOf } = catalogue();
    const r = rng(5);
    const queries = ['r', 'ri', 'rie', 'm', 'mu', 'pin', 'pinot n', 'c', 'cot', 'cotes du', '20', '7', 'w', 'zz', 'no pi'];
    for (let i = 0; i < 40; i++) {
      const w = WORDS[Math.floor(r() * WORDS.length)];
      queries.push(textTokens(w)[0].slice(0, 1 + Math.floor(r() * 4)));
    }
    for (const q of queries) {
      const words = suggestWords(q);
      const products = productCandidates(idx, words).map((p) => idx.pIds[p]);
      const expected = [...titles.entries()].filter(([, t]) => begins(words, t)).map(([p]) => id(100000 + p));
      expect(products.sort()).toEqual(expected.sort());
      const codes = codeCandidates(idx, words).map((c) => idx.codeIds[c]);
      const carried = new Set([...codesOf.values()].flat());
      const expectedCodes = [...names.entries()].filter(([k, n]) => carried.has(k) && begins(words, n[0])).map(([k]) => k);
      expect(codes.filter((c) => carried.has(c)).sort()).toEqual(expectedCodes.sort());
      for (const c of codeCandidates(idx, words)) {
        const count = [...codesOf.values()].filter((list) => list.includes(idx.codeIds[c])).length;
        expect(codeProductCount(idx, c)).toBe(count);
      }
    }
  });

  it('keeps the best `limit` (quality, count, label, kind, id) and groups them in kind order', () => {
    const r = rng(3);
    const kinds = ['product', 'producer', 'grape', 'category', 'collection'];
    for (let round = 0; round < 50; round++) {
      const cands: SuggestCandidate[] = [];
      for (let i = 0; i < 30; i++)
        cands.push({
          kind: kinds[Math.floor(r() * kinds.length)],
          id: id(Math.floor(r() * 1000)),
          label: NAMES[Math.floor(r() * NAMES.length)],
          count: 1 + Math.floor(r() * 5),
          quality: 1 + Math.floor(r() * 4),
        });
      const limit = 1 + Math.floor(r() * 20);
      const groups = rankAndGroup(cands, kinds, limit);
      const flat = groups.flatMap((g) => g.items);
      expect(flat.length).toBe(Math.min(limit, cands.length));
      expect(groups.map((g) => kinds.indexOf(g.kind))).toEqual(groups.map((g) => kinds.indexOf(g.kind)).sort((a, b) => a - b));
      // brute force: no candidate left out beats one kept
      const kept = new Set(flat);
      const worstKept = flat.reduce((w, c) => (c.quality < w.quality || (c.quality === w.quality && c.count < w.count) ? c : w), flat[0]);
      for (const c of cands)
        if (!kept.has(c)) expect(c.quality > worstKept.quality || (c.quality === worstKept.quality && c.count > worstKept.count)).toBe(false);
      for (const g of groups)
        for (let i = 1; i < g.items.length; i++) {
          const a = g.items[i - 1];
          const b = g.items[i];
          expect(a.quality > b.quality || (a.quality === b.quality && a.count >= b.count)).toBe(true);
        }
    }
  });
});

describe('firstInOrder', () => {
  it('answers what a stable sort then slice answers, ties in their given order, for any k', () => {
    const r = rng(29);
    for (let round = 0; round < 500; round++) {
      const n = Math.floor(r() * 120);
      // few distinct keys: many ties, whose order must be the items' own
      const items = Array.from({ length: n }, (_, i) => ({ i, q: Math.floor(r() * 4), t: String.fromCharCode(97 + Math.floor(r() * 5)) }));
      const cmp = (a: (typeof items)[number], b: (typeof items)[number]) => b.q - a.q || (a.t < b.t ? -1 : a.t > b.t ? 1 : 0);
      const k = Math.floor(r() * (n + 3)) - 1;
      expect(firstInOrder(items, k, cmp).map((x) => x.i)).toEqual(
        [...items]
          .sort(cmp)
          .slice(0, Math.max(0, k))
          .map((x) => x.i),
      );
    }
  });
});
