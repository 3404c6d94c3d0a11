import type { PromotionOutcome } from '../pricing/index.js';
import { appliedPromotionIds, droppedPromotionIds, sameIds } from './shown-promotions.js';

const totals = (...parts: Array<[string, number]>): { promotions: PromotionOutcome | null } => ({
  promotions: parts.length
    ? {
        lines: [],
        discounts: parts.map(([promotionId, amount]) => ({ promotionId, name: promotionId, amount, promotionClass: 'order', lines: amount, shipping: 0 })),
        shippingDiscount: 0,
      }
    : null,
});

describe('shown promotions (issue 32: no order at a total the buyer was not shown)', () => {
  it('the applied set is the promotions taking something off, sorted and once each', () => {
    expect(appliedPromotionIds(totals(['b', 300], ['a', 100], ['c', 0]))).toEqual(['a', 'b']);
    expect(appliedPromotionIds({ promotions: null })).toEqual([]);
  });

  it('a shown promotion no longer applied is dropped; a new one is not a drop; nothing recorded drops nothing', () => {
    expect(droppedPromotionIds(['a', 'b'], totals(['a', 100]))).toEqual(['b']);
    expect(droppedPromotionIds(['a', 'b'], totals(['a', 100], ['b', 0]))).toEqual(['b']); // taking nothing off any more
    expect(droppedPromotionIds(['a'], totals(['a', 100], ['z', 50]))).toEqual([]);
    expect(droppedPromotionIds(null, totals())).toEqual([]);
    expect(droppedPromotionIds([], totals())).toEqual([]);
    expect(droppedPromotionIds(['a'], { promotions: null })).toEqual(['a']);
  });

  it('sameIds compares sorted lists element by element', () => {
    expect(sameIds([], [])).toBe(true);
    expect(sameIds(['a', 'b'], ['a', 'b'])).toBe(true);
    expect(sameIds(['a'], ['a', 'b'])).toBe(false);
    expect(sameIds(['a', 'c'], ['a', 'b'])).toBe(false);
  });
});
