import { describe, expect, it } from '@jest/globals';
import {
  activeAt,
  compileCatalogue,
  isCataloguePromotion,
  salePricesInSlices,
  salePricesOf,
  unionOfSelectors,
  type CatalogueVariant,
  type StoredPromotion,
} from './catalogue-pricing.js';

const base: StoredPromotion = {
  id: 'a',
  name: 'A',
  priority: 0,
  combinesWith: { product: false, order: false, shipping: false, discount_codes: false },
  conditions: [{ type: 'lines', selector: [{ type: 'manufacturer', ids: ['m1'] }] }],
  actions: [{ type: 'percent_off_lines', percent: 20 }],
  enabled: true,
  code: null,
  usageLimit: null,
  usageLimitPerCustomer: null,
  startsAt: null,
  endsAt: null,
};
const variant = (over: Partial<CatalogueVariant> = {}): CatalogueVariant => ({
  variantId: 'v1',
  productId: 'p1',
  gross: '24.90',
  collectionIds: [],
  categoryIds: ['k-wine', 'k-red'],
  manufacturerId: 'm1',
  facets: { colour: ['id-red', 'red'], vintage: ['id-2019', '2019'] },
  customFields: { grape: ['merlot', 'id-merlot'] },
  ...over,
});
const at = new Date('2026-06-01T12:00:00Z');
const prices = (promotions: StoredPromotion[], variants: CatalogueVariant[], when = at) => salePricesOf(compileCatalogue(promotions, when, 2), variants, 2);

describe('catalogue promotions', () => {
  it('are enabled, codeless, unlimited, with only lines conditions and only percent/fixed off lines', () => {
    expect(isCataloguePromotion(base)).toBe(true);
    expect(isCataloguePromotion({ ...base, conditions: [] })).toBe(true);
    expect(isCataloguePromotion({ ...base, enabled: false })).toBe(false);
    expect(isCataloguePromotion({ ...base, code: 'X' })).toBe(false);
    expect(isCataloguePromotion({ ...base, usageLimit: 10 })).toBe(false);
    expect(isCataloguePromotion({ ...base, usageLimitPerCustomer: 1 })).toBe(false);
    expect(isCataloguePromotion({ ...base, conditions: [...base.conditions, { type: 'customer_group', group_ids: ['g'] }] })).toBe(false);
    expect(isCataloguePromotion({ ...base, conditions: [...base.conditions, { type: 'min_quantity', quantity: 6 }] })).toBe(false);
    expect(isCataloguePromotion({ ...base, actions: [{ type: 'n_for_m', n: 6, m: 5, free: 'cheapest' }] })).toBe(false);
  });

  it('are in force from starts_at (inclusive) to ends_at (exclusive)', () => {
    const p = { ...base, startsAt: new Date('2026-06-01T12:00:00Z'), endsAt: new Date('2026-06-02T00:00:00Z') };
    expect(activeAt(p, new Date('2026-06-01T11:59:59.999Z'))).toBe(false);
    expect(activeAt(p, p.startsAt)).toBe(true);
    expect(activeAt(p, new Date('2026-06-01T23:59:59.999Z'))).toBe(true);
    expect(activeAt(p, p.endsAt)).toBe(false);
  });

  it('give the sale price the engine gives one unit: percent rounded once, fixed capped at the price', () => {
    expect(prices([base], [variant()])).toEqual([{ variantId: 'v1', productId: 'p1', gross: '19.92', promotionIds: ['a'] }]);
    const fixed = { ...base, actions: [{ type: 'fixed_off_lines' as const, amount: 30 }] };
    expect(prices([fixed], [variant()])).toEqual([{ variantId: 'v1', productId: 'p1', gross: '0.00', promotionIds: ['a'] }]);
    // 33.33 % of 10.01 = 3.3363... -> 3.34 (half up, once)
    expect(prices([{ ...base, actions: [{ type: 'percent_off_lines', percent: 33.33 }] }], [variant({ gross: '10.01' })])[0].gross).toBe('6.67');
  });

  it('match facet values by id or key, categories with ancestors, custom fields by the key or id of every option; others are left out', () => {
    const by = (selector: unknown) => ({ ...base, conditions: [{ type: 'lines', selector }] }) as StoredPromotion;
    expect(prices([by([{ type: 'facet', facet: 'colour', values: ['red'] }])], [variant()])).toHaveLength(1);
    expect(prices([by([{ type: 'facet', facet: 'vintage', values: ['id-2019'] }])], [variant()])).toHaveLength(1);
    expect(prices([by([{ type: 'category', ids: ['k-wine'] }])], [variant()])).toHaveLength(1);
    expect(prices([by([{ type: 'custom_field', key: 'grape', values: ['merlot'] }])], [variant()])).toHaveLength(1);
    // every option of a field: a wine of two grapes matches either, by key or id
    const blend = variant({ customFields: { grape: ['cabernet', 'id-cabernet', 'merlot', 'id-merlot'] } });
    expect(prices([by([{ type: 'custom_field', key: 'grape', values: ['merlot'] }])], [blend])).toHaveLength(1);
    expect(prices([by([{ type: 'custom_field', key: 'grape', values: ['id-cabernet'] }])], [blend])).toHaveLength(1);
    expect(prices([by([{ type: 'custom_field', key: 'grape', values: ['syrah'] }])], [blend])).toEqual([]);
    expect(prices([by([{ type: 'facet', facet: 'colour', values: ['white'] }])], [variant()])).toEqual([]);
    expect(prices([base], [variant({ manufacturerId: 'm2' })])).toEqual([]);
  });

  it('outside their window, or not catalogue promotions, change nothing', () => {
    expect(prices([{ ...base, startsAt: new Date('2026-06-02T00:00:00Z') }], [variant()])).toEqual([]);
    expect(prices([{ ...base, endsAt: at }], [variant()])).toEqual([]);
    expect(prices([{ ...base, code: 'CLUB' }], [variant()])).toEqual([]);
  });

  it('take the largest discount of promotions that do not combine, and stack those that do', () => {
    const b = { ...base, id: 'b', actions: [{ type: 'fixed_off_lines' as const, amount: 6 }] };
    expect(prices([base, b], [variant()])[0]).toMatchObject({ gross: '18.90', promotionIds: ['b'] });
    const both = { product: true, order: false, shipping: false, discount_codes: false };
    const stacked = prices(
      [
        { ...base, combinesWith: both },
        { ...b, combinesWith: both },
      ],
      [variant()],
    )[0];
    expect(Number(stacked.gross)).toBeLessThan(18.9);
    expect(stacked.promotionIds.sort()).toEqual(['a', 'b']);
  });
});

describe('unionOfSelectors (the products a boundary of many catalogue promotions reprices, in one statement)', () => {
  it('merges the matchers by ids per type, each id once, and keeps the other matchers once each', () => {
    const red = { type: 'facet' as const, facet: 'colour' as const, values: ['red'] };
    const merged = unionOfSelectors([
      [{ type: 'product', ids: ['p1', 'p2'] }],
      [{ type: 'product', ids: ['p2', 'p3'] }, { type: 'manufacturer', ids: ['m1'] }, red],
      [{ type: 'manufacturer', ids: ['m1', 'm2'] }, { ...red }, { type: 'custom_field', key: 'grape', values: ['nebbiolo'] }],
      [
        { type: 'collection', ids: ['c1'] },
        { type: 'variant', ids: ['v1'] },
        { type: 'category', ids: ['k1'] },
      ],
    ]);
    expect(merged).toEqual([
      { type: 'product', ids: ['p1', 'p2', 'p3'] },
      { type: 'variant', ids: ['v1'] },
      { type: 'collection', ids: ['c1'] },
      { type: 'category', ids: ['k1'] },
      { type: 'manufacturer', ids: ['m1', 'm2'] },
      red,
      { type: 'custom_field', key: 'grape', values: ['nebbiolo'] },
    ]);
  });

  it('matches a line exactly when one of the selectors does', () => {
    const selectors = [[{ type: 'product' as const, ids: ['p1'] }], [{ type: 'manufacturer' as const, ids: ['m1'] }], []];
    const merged = unionOfSelectors(selectors);
    const line = (productId: string, manufacturerId: string | null) => ({ productId, manufacturerId });
    const matches = (sel: typeof merged, l: ReturnType<typeof line>) =>
      sel.some(
        (m) =>
          (m.type === 'product' && m.ids.includes(l.productId)) || (m.type === 'manufacturer' && l.manufacturerId !== null && m.ids.includes(l.manufacturerId)),
      );
    for (const l of [line('p1', null), line('p2', 'm1'), line('p2', 'm2'), line('p9', null)])
      expect(matches(merged, l)).toBe(selectors.some((s) => matches(s, l)));
    expect(unionOfSelectors([])).toEqual([]);
  });
});

describe('salePricesInSlices (a boundary prices thousands of variants without holding the event loop)', () => {
  const many = Array.from({ length: 23 }, (_, i) =>
    variant({ variantId: `v${i}`, productId: `p${i}`, gross: `${10 + i}.90`, manufacturerId: i % 3 === 0 ? 'm2' : 'm1' }),
  );
  const compiled = compileCatalogue([base, { ...base, id: 'b', conditions: [{ type: 'lines', selector: [{ type: 'product', ids: ['p3', 'p4'] }] }] }], at, 2);

  it('gives exactly the answer of salePricesOf', async () => {
    const whole = salePricesOf(compiled, many, 2);
    expect(whole.length).toBeGreaterThan(10);
    expect(await salePricesInSlices(compiled, many, 2, 5)).toEqual(whole);
    expect(await salePricesInSlices(compiled, many, 2)).toEqual(whole);
  });

  it('gives the event loop back between slices', async () => {
    let turns = 0;
    const tick = () => {
      turns++;
      if (turns < 100) setImmediate(tick);
    };
    setImmediate(tick);
    await salePricesInSlices(compiled, many, 2, 5);
    // 23 variants in slices of 5: four turns of the event loop in between, where other work (a read) ran
    expect(turns).toBeGreaterThanOrEqual(4);
  });
});
