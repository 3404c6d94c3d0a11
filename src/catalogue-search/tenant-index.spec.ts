import { TenantIndex, type IndexRow } from './tenant-index.js';
import { DIM } from './dims.js';
import { ProductSets } from './product-sets.js';
import type { IndexQuery } from './index-types.js';

const row = (product: string, variant: string, over: Partial<IndexRow> = {}): IndexRow => ({
  variant_id: variant,
  product_id: product,
  position: 0,
  created: 1_700_000_000_000,
  title_sort: product,
  rating: 0,
  gross: '10.0000',
  on_sale: false,
  available: true,
  on_hand: 5,
  sku: `SKU-${variant}`,
  manufacturer_id: `maker-${product.length % 3}`,
  color_id: 'red',
  region_id: null,
  year_id: null,
  size_id: '75cl',
  country_id: 'fr',
  option_ids: [],
  category_ids: ['wine'],
  ...over,
});

/** Products put in an order that interleaves the categories: wine > red > tuscany, wine > white, spirits. */
function interleaved(): TenantIndex {
  const idx = new TenantIndex('t');
  const chains = [['wine', 'red', 'tuscany'], ['spirits'], ['wine', 'white'], ['wine', 'red'], ['wine']];
  for (let i = 0; i < 40; i++) {
    const cats = chains[i % chains.length];
    const id = `p${String(i).padStart(2, '0')}`;
    const rows = [row(id, `${id}-a`, { category_ids: cats, country_id: i % 2 ? 'fr' : 'it', gross: `${10 + i}.5000` })];
    if (i % 4 === 0) rows.push(row(id, `${id}-b`, { category_ids: cats, position: 1, size_id: '150cl', available: i % 8 === 0 }));
    idx.putProduct(id, rows);
  }
  // a changed product (its first variant slot dies) and a removed one (dead product slot)
  idx.putProduct('p05', [row('p05', 'p05-z', { category_ids: ['spirits'], sku: 'NEW-SKU' })]);
  idx.putProduct('p07', []);
  return idx;
}

const query = (over: Partial<IndexQuery> = {}): IndexQuery => ({
  categories: null,
  dims: new Map(),
  allowed: null,
  available: false,
  onSale: false,
  text: null,
  priceMin: null,
  priceMax: null,
  prices: new Float64Array(0),
  ...over,
});

/** A query's whole answer in terms of ids (slots differ between layouts). */
function answer(idx: TenantIndex, over: Partial<IndexQuery>) {
  const q = query({ ...over, prices: idx.prices('1', 2) });
  const r = idx.search(q, { n: 100, column: 'price', dir: 1, after: null, facets: true });
  const counts: Record<string, number> = {};
  if (r.counts) for (let c = 0; c < idx.codeIds.length; c++) if (r.counts[c] > 0) counts[idx.codeIds[c]] = r.counts[c];
  const variants = idx
    .matchingVariants(
      r.rows.map((x) => x.slot),
      q,
    )
    .map((vs) => vs.map((v) => idx.vIds[v]));
  return { ids: r.rows.map((x) => x.id), min: r.min, max: r.max, counts, variants };
}

describe('TenantIndex.clustered', () => {
  it('puts every category’s products in one run of slots, a subcategory within its parent, variants after their product', () => {
    const before = interleaved();
    const idx = before.clustered();
    expect(idx).not.toBe(before);
    expect(idx.pCount).toBe(39); // the removed product's slot is dropped
    expect(before.pCount).toBe(40); // the original is left as it was
    expect(before.pIndex.get('p00')).toBe(0);
    const cat = (id: string) => idx.codeOf.get(id)!;
    const slotsOf = (c: number) => {
      const out: number[] = [];
      for (let p = 0; p < idx.pCount; p++) for (let i = idx.pCatStart[p]; i < idx.pCatStart[p] + idx.pCatLen[p]; i++) if (idx.catPool[i] === c) out.push(p);
      return out;
    };
    for (const c of ['wine', 'red', 'tuscany', 'white', 'spirits']) {
      const slots = slotsOf(cat(c));
      expect(slots.length).toBeGreaterThan(0);
      expect(slots[slots.length - 1] - slots[0] + 1).toBe(slots.length);
    }
    const red = slotsOf(cat('red'));
    const wine = slotsOf(cat('wine'));
    expect(red[0]).toBeGreaterThanOrEqual(wine[0]);
    expect(red[red.length - 1]).toBeLessThanOrEqual(wine[wine.length - 1]);
    // variants are numbered in product order, no dead slot left, the maps agree with the columns
    let v = 0;
    for (let p = 0; p < idx.pCount; p++) {
      expect(idx.pIndex.get(idx.pIds[p])).toBe(p);
      expect(idx.pVarStart[p]).toBe(v);
      for (let i = 0; i < idx.pVarLen[p]; i++, v++) {
        expect(idx.varPool[idx.pVarStart[p] + i]).toBe(v);
        expect(idx.vProduct[v]).toBe(p);
        expect(idx.vIndex.get(idx.vIds[v])).toBe(v);
        expect(idx.skuIndex.get(idx.vSku[v]!)).toEqual([v]);
      }
    }
    expect(v).toBe(idx.vCount);
    expect(idx.deadVariants).toBe(0);
    expect(idx.vIndex.has('p05-a')).toBe(false);
    expect(idx.skuIndex.get('new-sku')).toEqual([idx.vIndex.get('p05-z')]);
    expect(idx.vDim[DIM.sizes][idx.vIndex.get('p04-b')!]).toBe(idx.codeOf.get('150cl'));
    expect(idx.vAvail[idx.vIndex.get('p04-b')!]).toBe(0);
  });

  it('answers every query as before: pages, counts, price range and matching variants', () => {
    const before = interleaved();
    const after = interleaved().clustered();
    const code = (idx: TenantIndex, id: string) => idx.codeOf.get(id)!;
    const cases: Array<(idx: TenantIndex) => Partial<IndexQuery>> = [
      () => ({}),
      (idx) => ({ categories: [code(idx, 'red')] }),
      (idx) => ({ categories: [code(idx, 'wine')], dims: new Map([[DIM.countries, [code(idx, 'fr')]]]) }),
      (idx) => ({ dims: new Map([[DIM.sizes, [code(idx, '150cl')]]]), available: true }),
      (idx) => ({ categories: [code(idx, 'wine')], dims: new Map([[DIM.sizes, [code(idx, '75cl')]]]), priceMin: 20, priceMax: 40 }),
    ];
    for (const make of cases) expect(answer(after, make(after))).toEqual(answer(before, make(before)));
    // deltas after clustering land on the new slots, as CatalogueIndexService.apply makes them (versions bumped):
    // a stock change, a changed product, a new product, and a removed product coming back
    for (const idx of [before, after]) {
      idx.setStock('p00-b', false, 0);
      idx.stockVersion += 1;
      idx.putProduct('p09', [row('p09', 'p09-a', { category_ids: ['wine', 'white'], gross: '99.0000' })]);
      idx.putProduct('p40', [row('p40', 'p40-a', { category_ids: ['wine', 'red', 'tuscany'], country_id: 'fr', gross: '31.0000' })]);
      idx.putProduct('p07', [row('p07', 'p07-a', { category_ids: ['spirits'], size_id: '150cl', gross: '44.0000' })]);
      idx.contentVersion += 1;
    }
    for (const make of cases) expect(answer(after, make(after))).toEqual(answer(before, make(before)));
    expect(answer(after, { categories: [after.codeOf.get('spirits')!] }).ids).toContain('p07');
    expect(answer(after, { categories: [after.codeOf.get('tuscany')!] }).ids).toContain('p40');
  });
});

describe('TenantIndex.layout (the same copy in slices)', () => {
  it('takes the stock of the moment it finishes, and knows when a product changed while it was made', () => {
    const idx = interleaved();
    const job = idx.layout();
    expect(job.slices.next().done).toBe(false); // the order is made; nothing copied yet
    idx.setStock('p00-a', false, 0);
    idx.stockVersion += 1;
    for (const slice of job.slices) void slice;
    expect(job.current()).toBe(true);
    job.finish();
    const v = job.copy.vIndex.get('p00-a')!;
    expect([job.copy.vAvail[v], job.copy.vOnHand[v], job.copy.stockVersion]).toEqual([0, 0, idx.stockVersion]);
    expect(job.copy.byCategory).toBe(true);
    const stale = idx.layout();
    stale.slices.next();
    idx.putProduct('p03', [row('p03', 'p03-a', { category_ids: ['spirits'] })]);
    idx.contentVersion += 1;
    expect(stale.current()).toBe(false);
  });
});

describe('ProductSets.priceExtremes', () => {
  it('counts its arrays in the index bytes, one entry per currency (older content versions dropped)', () => {
    const idx = interleaved();
    const sets = new ProductSets(idx);
    const before = sets.bytes();
    const eur = idx.prices('1', 2);
    sets.priceExtremes(eur);
    expect(sets.bytes() - before).toBe(16 * idx.pCount);
    sets.priceExtremes(idx.prices('1.1', 2));
    expect(sets.bytes() - before).toBe(32 * idx.pCount);
    // a product change: a new content version, the extremes of the old one go when new ones are made
    idx.putProduct('p01', [row('p01', 'p01-a', { category_ids: ['spirits'] })]);
    idx.contentVersion += 1;
    sets.priceExtremes(idx.prices('1', 2));
    expect(sets.bytes() - before).toBe(16 * idx.pCount);
  });
});

describe('ProductSets.members', () => {
  it('builds a small dimension whole in one pass: every value’s set is the products having it (categories with ancestors)', () => {
    const idx = interleaved();
    const sets = new ProductSets(idx);
    const slotsOf = (s: { list: Int32Array }) => [...s.list].map((p) => idx.pIds[p]).sort();
    // the category chain each product was given in interleaved() (p05 moved to spirits; p07 removed)
    const chains = [['wine', 'red', 'tuscany'], ['spirits'], ['wine', 'white'], ['wine', 'red'], ['wine']];
    const chainOf = (productId: string) => (productId === 'p05' ? ['spirits'] : chains[Number(productId.slice(1)) % chains.length]);
    // by brute force over the product ids: a category includes its subcategories' products, a variant value any variant
    const expected = (id: string, dim: number): string[] => {
      const out: string[] = [];
      for (let p = 0; p < idx.pCount; p++) {
        if (idx.pAlive[p] === 0) continue;
        let has = false;
        if (dim === DIM.categories) has = chainOf(idx.pIds[p]).includes(id);
        else for (let i = idx.pVarStart[p]; i < idx.pVarStart[p] + idx.pVarLen[p]; i++) if (idx.vDim[dim][idx.varPool[i]] === idx.codeOf.get(id)) has = true;
        if (has) out.push(idx.pIds[p]);
      }
      return out.sort();
    };
    // the first use of one value builds its whole dimension: the other values are then kept without another pass
    expect(slotsOf(sets.members(idx.codeOf.get('150cl')!))).toEqual(expected('150cl', DIM.sizes));
    const held = sets.bytes();
    expect(slotsOf(sets.members(idx.codeOf.get('75cl')!))).toEqual(expected('75cl', DIM.sizes));
    expect(sets.bytes()).toBe(held);
    for (const id of ['fr', 'it']) expect(slotsOf(sets.members(idx.codeOf.get(id)!))).toEqual(expected(id, DIM.countries));
    for (const id of ['wine', 'red', 'tuscany', 'white', 'spirits']) {
      const set = sets.members(idx.codeOf.get(id)!);
      expect(slotsOf(set)).toEqual(expected(id, DIM.categories));
      // the bitset and the byte per product agree with the posting list
      for (let p = 0; p < idx.pCount; p++) expect((set.bits[p >>> 5] >>> (p & 31)) & 1).toBe(set.has[p]);
    }
    expect(expected('tuscany', DIM.categories).length).toBeGreaterThan(0);
    expect(expected('wine', DIM.categories).length).toBeGreaterThan(expected('red', DIM.categories).length);
  });

  it('builds a single value instead when a whole dimension would push out sets kept for other values', () => {
    const idx = new TenantIndex('t');
    // 300 producers: 253 of their sets kept, then a colour (5 values) would take the kept sets past 256
    const colors = ['red', 'white', 'rose', 'sweet', 'sparkling'];
    for (let i = 0; i < 300; i++) {
      const id = `m${String(i).padStart(3, '0')}`;
      idx.putProduct(id, [row(id, `${id}-a`, { manufacturer_id: `maker-${i}`, color_id: colors[i % 5] })]);
    }
    const sets = new ProductSets(idx);
    for (let i = 0; i < 253; i++) sets.members(idx.codeOf.get(`maker-${i}`)!);
    expect(sets.kept).toBe(253);
    expect(sets.members(idx.codeOf.get('red')!).list.length).toBe(60);
    expect(sets.kept).toBe(254);
    // with room, the whole dimension: the other colours come without another pass
    const roomy = new ProductSets(idx);
    roomy.members(idx.codeOf.get('red')!);
    expect(roomy.kept).toBe(5);
  });
});
