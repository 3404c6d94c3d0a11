import { describe, expect, it } from '@jest/globals';
import { freeShippingProgress } from './free-shipping';

describe('storefront free-shipping progress (cart drawer)', () => {
  const post = { name: 'Post', free_over: 150 };
  const dhl = { name: 'DHL', free_over: 99.9 };
  const never = { name: 'Freight', free_over: null };

  it('takes the lowest threshold of the methods that have one, none when no method has one', () => {
    expect(freeShippingProgress(20, [post, dhl, never])).toEqual({ name: 'DHL', value: 2000, max: 9990, missing: 79.9 });
    expect(freeShippingProgress(20, [never])).toBeNull();
    expect(freeShippingProgress(20, [])).toBeNull();
    expect(freeShippingProgress(20, [{ name: 'Zero', free_over: 0 }])).toBeNull();
  });

  it('counts in cents: what is missing is the threshold minus the total, 0 from the threshold on', () => {
    for (let cents = 0; cents <= 20_000; cents += 7) {
      const p = freeShippingProgress(cents / 100, [post])!;
      expect([cents, p.max, p.value, Math.round(p.missing * 100)]).toEqual([cents, 15_000, Math.min(cents, 15_000), Math.max(0, 15_000 - cents)]);
    }
  });
});
