import { TenantIndex, type IndexRow } from './tenant-index.js';

/** The invariants of README.md in this folder ("Invariants") that no other spec pins. */
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
  manufacturer_id: 'maker',
  color_id: 'red',
  region_id: null,
  year_id: null,
  size_id: null,
  country_id: 'fr',
  option_ids: ['opt-1'],
  category_ids: ['wine', 'red'],
  ...over,
});

function twoProducts(): TenantIndex {
  const idx = new TenantIndex('t');
  idx.putProduct('a', [row('a', 'a1'), row('a', 'a2', { position: 1, gross: '12.5000' })]);
  idx.putProduct('b', [row('b', 'b1', { category_ids: ['spirits'], option_ids: [] })]);
  return idx;
}

describe('TenantIndex invariants', () => {
  it('pools are append-only: a product change appends its rows and leaves every earlier pool entry as it was', () => {
    const idx = twoProducts();
    const before = { cat: idx.catPool.slice(0, idx.catLen), vars: idx.varPool.slice(0, idx.varLen), opt: idx.optPool.slice(0, idx.optLen) };
    const lens = { cat: idx.catLen, vars: idx.varLen, opt: idx.optLen };
    idx.putProduct('a', [row('a', 'a1', { category_ids: ['wine', 'white'], option_ids: ['opt-2'] })]);
    expect(idx.catPool.slice(0, lens.cat)).toEqual(before.cat);
    expect(idx.varPool.slice(0, lens.vars)).toEqual(before.vars);
    expect(idx.optPool.slice(0, lens.opt)).toEqual(before.opt);
    const a = idx.pIndex.get('a')!;
    // the changed product's lists start past everything written before
    expect([idx.pCatStart[a], idx.pVarStart[a]]).toEqual([lens.cat, lens.vars]);
    expect([idx.catLen, idx.varLen, idx.optLen]).toEqual([lens.cat + 2, lens.vars + 1, lens.opt + 1]);
  });

  it('a negative vProduct marks a dead slot: a changed product’s old variant slots die, its ids map to the new slots', () => {
    const idx = twoProducts();
    const a = idx.pIndex.get('a')!;
    const [old1, old2] = [idx.vIndex.get('a1')!, idx.vIndex.get('a2')!];
    expect(idx.deadVariants).toBe(0);
    idx.putProduct('a', [row('a', 'a1')]);
    expect([idx.vProduct[old1], idx.vProduct[old2]]).toEqual([-1, -1]);
    expect(idx.deadVariants).toBe(2);
    const now = idx.vIndex.get('a1')!;
    expect(now).toBe(idx.vCount - 1);
    expect(idx.vProduct[now]).toBe(a);
    expect(idx.vIndex.has('a2')).toBe(false);
    // the product keeps its slot
    expect(idx.pIndex.get('a')).toBe(a);
  });

  it('a removed product keeps its slot with pAlive 0 (its variant slots dead), and comes back in the same slot', () => {
    const idx = twoProducts();
    const b = idx.pIndex.get('b')!;
    const v = idx.vIndex.get('b1')!;
    idx.putProduct('b', []);
    expect([idx.pAlive[b], idx.alive, idx.vProduct[v], idx.pIndex.get('b')]).toEqual([0, 1, -1, b]);
    idx.putProduct('b', [row('b', 'b1')]);
    expect([idx.pAlive[b], idx.alive, idx.pIndex.get('b'), idx.pCount]).toEqual([1, 2, b, 2]);
  });

  it('a facet id’s code never changes: the dictionary only grows', () => {
    const idx = twoProducts();
    const codes = new Map(idx.codeOf);
    const ids = idx.codeIds.slice();
    idx.putProduct('a', [row('a', 'a1', { color_id: 'white', category_ids: ['spirits'] })]);
    for (const [id, code] of codes) expect(idx.codeOf.get(id)).toBe(code);
    expect(idx.codeIds.slice(0, ids.length)).toEqual(ids);
    expect(idx.codeIds.length).toBe(ids.length + 1);
  });

  it('a slot’s price never changes: prices per currency are extended for appended slots, never recomputed', () => {
    const idx = twoProducts();
    const first = idx.prices('1', 2).slice(0, idx.vCount);
    const n = idx.vCount;
    idx.putProduct('a', [row('a', 'a1', { gross: '99.9900' })]);
    const after = idx.prices('1', 2);
    expect(after.slice(0, n)).toEqual(first);
    expect(after[idx.vIndex.get('a1')!]).toBe(99.99);
  });
});
