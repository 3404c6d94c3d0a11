import { cart, line, promo, run } from './testing/fixtures.js';
import type { EngineCart, LineMatcher, PromotionCondition } from './types.js';

/** A 10% off the matching lines promotion under `conditions`: its discount on `c`. */
function discountWith(conditions: PromotionCondition[], c: EngineCart): number {
  const r = run([promo({ conditions, actions: [{ type: 'percent_off_lines', percent: 10 }] })], c);
  return r.linesDiscount;
}

const barolo = line('v-barolo', 5000, 2, {
  productId: 'p-barolo',
  collectionIds: ['col-piemonte'],
  categoryIds: ['cat-red'],
  manufacturerId: 'man-conterno',
  facets: { colour: ['red'], country: ['IT'], region: ['Piemonte'], vintage: ['2019'], size: ['750'] },
  customFields: { organic: 'yes' },
});
const chablis = line('v-chablis', 3000, 1, { productId: 'p-chablis', facets: { colour: ['white'], vintage: ['2021'] } });

describe('promotion conditions (each must hold)', () => {
  it('minimum subtotal: the whole cart before promotions, and a hint when it is missing', () => {
    expect(discountWith([{ type: 'min_subtotal', amount: 13000 }], cart([barolo, chablis]))).toBe(1300);
    const r = run(
      [promo({ conditions: [{ type: 'min_subtotal', amount: 15000 }], actions: [{ type: 'percent_off_order', percent: 10 }] })],
      cart([barolo, chablis]),
    );
    expect(r.linesDiscount).toBe(0);
    expect(r.available).toEqual([expect.objectContaining({ missingSubtotal: 2000, missingQuantity: null })]);
  });

  it('minimum quantity of the matching lines, with the units still missing', () => {
    const cond: PromotionCondition[] = [
      { type: 'lines', selector: [{ type: 'facet', facet: 'colour', values: ['red'] }] },
      { type: 'min_quantity', quantity: 2 },
    ];
    expect(discountWith(cond, cart([barolo, chablis]))).toBe(1000);
    const three: PromotionCondition[] = [cond[0], { type: 'min_quantity', quantity: 3 }];
    const r = run([promo({ conditions: three, actions: [{ type: 'percent_off_lines', percent: 10 }] })], cart([barolo, chablis]));
    expect(r.linesDiscount).toBe(0);
    expect(r.available[0].missingQuantity).toBe(1);
  });

  it('lists only the promotions the buyer is close to: each missing part at most half its threshold (or 2 units), 5 at most, smallest share first', () => {
    // subtotal 13000, 3 units
    const bySubtotal = (amount: number, id: string) =>
      promo({ id, conditions: [{ type: 'min_subtotal', amount }], actions: [{ type: 'percent_off_order', percent: 5 }] });
    const byQuantity = (quantity: number, id: string) =>
      promo({ id, conditions: [{ type: 'min_quantity', quantity }], actions: [{ type: 'percent_off_lines', percent: 5 }] });
    const defs = [
      bySubtotal(26000, 's-half'), // missing 13000 = 50 %: close (the bound is inclusive)
      bySubtotal(26002, 's-far'), // missing just over 50 %: not listed
      bySubtotal(14000, 's-near'), // 1000 of 14000
      byQuantity(4, 'q-1'), // 1 of 4 missing
      byQuantity(7, 'q-far'), // 4 of 7: not listed
      byQuantity(6, 'q-3'), // 3 of 6 = 50 %
      bySubtotal(20000, 's-mid'), // 7000 of 20000
      promo({
        id: 'both',
        conditions: [
          { type: 'min_subtotal', amount: 14000 },
          { type: 'min_quantity', quantity: 12 },
        ],
        actions: [{ type: 'percent_off_order', percent: 5 }],
      }),
    ];
    const r = run(defs, cart([barolo, chablis]));
    expect(r.available.map((a) => a.promotionId)).toEqual(['s-near', 'q-1', 's-mid', 'q-3', 's-half']);
    // the order of the definitions and of the lines does not change it
    expect(run([...defs].reverse(), cart([chablis, barolo])).available).toEqual(r.available);
    // a small deal: 2 units missing are close whatever the share; 3 are not
    const one = cart([chablis]);
    expect(run([byQuantity(3, 'q-of-3'), byQuantity(4, 'q-of-4')], one).available).toEqual([
      { promotionId: 'q-of-3', name: expect.any(String) as string, missingQuantity: 2, missingSubtotal: null },
    ]);
  });

  it.each([
    ['product', { type: 'product', ids: ['p-barolo'] }],
    ['variant', { type: 'variant', ids: ['v-barolo'] }],
    ['collection', { type: 'collection', ids: ['col-piemonte'] }],
    ['category', { type: 'category', ids: ['cat-red'] }],
    ['manufacturer', { type: 'manufacturer', ids: ['man-conterno'] }],
    ['colour', { type: 'facet', facet: 'colour', values: ['red'] }],
    ['country', { type: 'facet', facet: 'country', values: ['IT'] }],
    ['region', { type: 'facet', facet: 'region', values: ['Piemonte'] }],
    ['vintage', { type: 'facet', facet: 'vintage', values: ['2019'] }],
    ['size', { type: 'facet', facet: 'size', values: ['750'] }],
    ['custom field', { type: 'custom_field', key: 'organic', values: ['yes'] }],
  ] as Array<[string, LineMatcher]>)('matching lines by %s: only those lines are reduced', (_name, matcher) => {
    const r = run(
      [promo({ conditions: [{ type: 'lines', selector: [matcher] }], actions: [{ type: 'percent_off_lines', percent: 10 }] })],
      cart([chablis, barolo]),
    );
    expect(r.lines.map((l) => l.discount)).toEqual([0, 1000]);
  });

  it('matching lines: no line matches, no promotion; several selectors must all match', () => {
    expect(discountWith([{ type: 'lines', selector: [{ type: 'product', ids: ['nope'] }] }], cart([barolo]))).toBe(0);
    const both: PromotionCondition[] = [
      { type: 'lines', selector: [{ type: 'facet', facet: 'vintage', values: ['2019', '2021'] }] },
      { type: 'lines', selector: [{ type: 'facet', facet: 'colour', values: ['white'] }] },
    ];
    expect(discountWith(both, cart([barolo, chablis]))).toBe(300);
  });

  it('customer signed in, and in a customer group', () => {
    const member = { id: 'c1', groupIds: ['club'], firstOrder: false };
    expect(discountWith([{ type: 'customer_signed_in' }], cart([chablis]))).toBe(0);
    expect(discountWith([{ type: 'customer_signed_in' }], cart([chablis], { customer: { ...member, groupIds: [] } }))).toBe(300);
    expect(discountWith([{ type: 'customer_group', group_ids: ['club'] }], cart([chablis], { customer: member }))).toBe(300);
    expect(discountWith([{ type: 'customer_group', group_ids: ['trade'] }], cart([chablis], { customer: member }))).toBe(0);
    expect(discountWith([{ type: 'customer_group', group_ids: ['club'] }], cart([chablis]))).toBe(0);
  });

  it('shipping country', () => {
    const to = (country: string | null) => cart([chablis], { shipping: { methodId: 'm1', country, amount: 900 } });
    expect(discountWith([{ type: 'shipping_country', countries: ['CH', 'LI'] }], to('CH'))).toBe(300);
    expect(discountWith([{ type: 'shipping_country', countries: ['CH', 'LI'] }], to('DE'))).toBe(0);
    expect(discountWith([{ type: 'shipping_country', countries: ['CH'] }], to(null))).toBe(0);
  });

  it('first order: a customer without orders, a guest when the caller says so', () => {
    expect(discountWith([{ type: 'first_order' }], cart([chablis], { customer: { id: 'c', groupIds: [], firstOrder: true } }))).toBe(300);
    expect(discountWith([{ type: 'first_order' }], cart([chablis], { customer: { id: 'c', groupIds: [], firstOrder: false } }))).toBe(0);
    expect(discountWith([{ type: 'first_order' }], cart([chablis], { guestFirstOrder: true }))).toBe(300);
    expect(discountWith([{ type: 'first_order' }], cart([chablis]))).toBe(0);
  });

  it('a code: only when the buyer entered it (any case)', () => {
    expect(discountWith([{ type: 'code', code: 'Club15' }], cart([chablis]))).toBe(0);
    expect(discountWith([{ type: 'code', code: 'Club15' }], cart([chablis], { codes: ['CLUB15'] }))).toBe(300);
  });

  it('a custom condition through the hooks; unknown names never hold', () => {
    const hooks = { conditions: new Map([['wine_club_member', (_p: Record<string, unknown>, c: EngineCart) => c.customer?.id === 'member']]) };
    const p = promo({ conditions: [{ type: 'custom', name: 'wine_club_member', params: {} }], actions: [{ type: 'percent_off_lines', percent: 10 }] });
    expect(run([p], cart([chablis], { customer: { id: 'member', groupIds: [], firstOrder: false } }), hooks).linesDiscount).toBe(300);
    expect(run([p], cart([chablis], { customer: { id: 'other', groupIds: [], firstOrder: false } }), hooks).linesDiscount).toBe(0);
    expect(run([p], cart([chablis], { customer: { id: 'member', groupIds: [], firstOrder: false } })).linesDiscount).toBe(0);
  });

  it('a discount code on the cart sets aside promotions that do not combine with codes', () => {
    const p = (discount_codes: boolean) =>
      promo({ combinesWith: { product: false, order: false, shipping: false, discount_codes }, actions: [{ type: 'percent_off_lines', percent: 10 }] });
    expect(run([p(false)], cart([chablis], { hasDiscountCode: true })).linesDiscount).toBe(0);
    expect(run([p(true)], cart([chablis], { hasDiscountCode: true })).linesDiscount).toBe(300);
  });
});

describe('shipping zones (issue 32, checkout)', () => {
  const shipTo = (zones: string[] | undefined, amount = 1000) => cart([barolo], { shipping: { methodId: 'post', country: 'CH', zones, amount } });

  it('shipping_zone holds when the delivery address is in one of the zones', () => {
    expect(discountWith([{ type: 'shipping_zone', zones: ['alps'] }], shipTo(['alps', 'z-1']))).toBe(1000);
    expect(discountWith([{ type: 'shipping_zone', zones: ['alps'] }], shipTo(['lowlands']))).toBe(0);
    expect(discountWith([{ type: 'shipping_zone', zones: ['alps'] }], shipTo(undefined))).toBe(0);
    expect(discountWith([{ type: 'shipping_zone', zones: ['alps'] }], cart([barolo]))).toBe(0);
  });

  it('a shipping action limited to zones applies only inside them', () => {
    const free = promo({ actions: [{ type: 'shipping', percent: 100, amount: null, method_ids: [], countries: [], zones: ['alps'] }] });
    expect(run([free], shipTo(['alps'])).shippingDiscount).toBe(1000);
    expect(run([free], shipTo(['lowlands'])).shippingDiscount).toBe(0);
  });
});
