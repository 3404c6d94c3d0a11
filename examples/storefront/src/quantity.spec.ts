import { describe, expect, it } from '@jest/globals';
import { checkQuantity, firstQuantity } from './quantity';

describe('storefront quantity rule (as POST /cart/items checks it)', () => {
  it('a multiple of the increment itself, within min and max', () => {
    const steps2 = { min: 1, max: null, increment: 2 };
    expect([1, 2, 3, 4, 6].map((q) => checkQuantity(q, steps2))).toEqual([false, true, false, true, true]);
    const six = { min: 6, max: 12, increment: 6 };
    expect([5, 6, 9, 12, 18].map((q) => checkQuantity(q, six))).toEqual([false, true, false, true, false]);
    expect(checkQuantity(1.5, { min: 0.5, max: null, increment: 0.5 })).toBe(true);
    expect(checkQuantity(Number.NaN, { min: 1, max: null, increment: 1 })).toBe(false);
  });

  it('the first accepted quantity: the smallest multiple of the increment at or above the minimum', () => {
    expect(firstQuantity({ min: 1, max: null, increment: 2 })).toBe(2);
    expect(firstQuantity({ min: 1, max: null, increment: 1 })).toBe(1);
    expect(firstQuantity({ min: 7, max: null, increment: 6 })).toBe(12);
    expect(firstQuantity({ min: 6, max: null, increment: 6 })).toBe(6);
    expect(firstQuantity({ min: 0.5, max: null, increment: 0.5 })).toBe(0.5);
    for (const rule of [
      { min: 1, max: null, increment: 2 },
      { min: 3, max: null, increment: 1 },
      { min: 4, max: null, increment: 3 },
    ])
      expect(checkQuantity(firstQuantity(rule), rule)).toBe(true);
  });
});
