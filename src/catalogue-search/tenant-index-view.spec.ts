import { TenantIndex, type IndexRow } from './tenant-index.js';
import type { ReadonlyTenantIndex, TenantIndexWriter } from './tenant-index-view.js';

/**
 * The read-only view (README.md "Invariants": only the writer mutates the index). The writes below must not compile:
 * `npx tsc --noEmit` (part of `npm test`) fails if one of them does, through its unused `@ts-expect-error`.
 */
export function refusedWrites(view: ReadonlyTenantIndex, writer: TenantIndexWriter): void {
  // @ts-expect-error -- a column's elements are read-only in the view
  view.vAvail[0] = 1;
  // @ts-expect-error -- so are the columns of the variant dimensions
  view.vDim[2][0] = 3;
  // @ts-expect-error -- a counter is read-only
  view.contentVersion += 1;
  // @ts-expect-error -- a pool cannot be replaced
  view.catPool = new Int32Array(0);
  // @ts-expect-error -- nor filled
  view.varPool.fill(0);
  // @ts-expect-error -- the id lists are read-only arrays
  view.pIds.push('x');
  // @ts-expect-error -- the maps are read-only maps
  view.pIndex.set('x', 0);
  // @ts-expect-error -- the writer's holder changes the index only through its methods
  writer.pCount = 3;
  // @ts-expect-error -- not a column either
  writer.vOnHand[1] = 2;
}

const row = (variant: string): IndexRow => ({
  variant_id: variant,
  product_id: 'a',
  position: 0,
  created: 0,
  title_sort: 'a',
  rating: 0,
  gross: '10.0000',
  on_sale: false,
  available: true,
  on_hand: 1,
  sku: null,
  manufacturer_id: null,
  color_id: null,
  region_id: null,
  year_id: null,
  size_id: null,
  country_id: null,
  option_ids: [],
  category_ids: [],
});

describe('ReadonlyTenantIndex', () => {
  it('is the index itself, typed: a reader sees the writer’s changes with no copy', () => {
    const idx = new TenantIndex('t');
    const view: ReadonlyTenantIndex = idx;
    idx.putProduct('a', [row('a1')]);
    expect([view.pCount, view.vCount, view.vAvail[0]]).toEqual([1, 1, 1]);
    idx.setStock('a1', false, 0);
    idx.stockChanged();
    expect([view.vAvail[0], view.stockVersion, view.availVersion]).toEqual([0, 1, 1]);
    expect(view.vAvail).toBe(idx.vAvail);
  });

  it('the writer’s delta steps: the content version moves on and the memos go; a delta sets the version', () => {
    const idx: TenantIndexWriter = new TenantIndex('t');
    idx.startBuild(7, 42);
    expect([idx.version, idx.buildLsn]).toEqual([7, 42]);
    idx.memo.set('k', { version: 0, value: 1, bytes: 8 });
    idx.contentChanged();
    expect([idx.contentVersion, idx.memo.size]).toEqual([1, 0]);
    idx.setVersion(8);
    expect(idx.version).toBe(8);
  });
});
