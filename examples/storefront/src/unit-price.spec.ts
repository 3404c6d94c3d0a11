import { describe, expect, it } from '@jest/globals';
import { millilitresOf, pricePerLitre } from './unit-price';

describe('storefront unit price (price per litre, EU)', () => {
  it('reads the volume of the sizes the API names', () => {
    expect(millilitresOf('75 cl')).toBe(750);
    expect(millilitresOf('37.5 cl')).toBe(375);
    expect(millilitresOf('150 cl (Magnum)')).toBe(1500);
    expect(millilitresOf('1,5 l')).toBe(1500);
    expect(millilitresOf('Jeroboam 3 L')).toBe(3000);
    expect(millilitresOf('500 ml')).toBe(500);
    expect(millilitresOf('Gift box')).toBeNull();
    expect(millilitresOf(null)).toBeNull();
    expect(millilitresOf('0 cl')).toBeNull();
  });

  it('computes the price per litre in minor units, rounded half up', () => {
    expect(pricePerLitre(24.9, 750)).toBe(33.2);
    expect(pricePerLitre(12.9, 375)).toBe(34.4);
    expect(pricePerLitre(10, 750)).toBe(13.33);
    expect(pricePerLitre(0.05, 750)).toBe(0.07);
    // brute force over every cent up to 100.00 and the demo's sizes: the integer formula, no float residue
    for (const ml of [375, 750, 1500, 3000]) {
      for (let cents = 0; cents <= 10_000; cents += 7) {
        const expected = Math.floor((cents * 1000 * 2 + ml) / (2 * ml)) / 100;
        expect(pricePerLitre(cents / 100, ml)).toBe(expected);
      }
    }
    expect(pricePerLitre(24.9, null)).toBeNull();
  });
});
