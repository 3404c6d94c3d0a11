import { describe, expect, it } from '@jest/globals';
import { measureOrder } from './shipping-quotes.service.js';

describe('measureOrder (destination rules litres)', () => {
  it("reads a unit's litres from volume_ml, and from the size text only when no volume is stored", () => {
    // a magnum whose size facet still says 75 cl: the stored 1500 ml wins
    expect(measureOrder([{ quantity: 2, alcohol_volume: '12.5', size: { en: '75 cl' }, volume_ml: 1500 }])).toEqual({ alcoholic: true, litres: 3 });
    expect(measureOrder([{ quantity: 2, alcohol_volume: '12.5', size: { en: '75 cl' }, volume_ml: null }])).toEqual({ alcoholic: true, litres: 1.5 });
    expect(measureOrder([{ quantity: 2, alcohol_volume: 12.5, size: '75cl' }])).toEqual({ alcoholic: true, litres: 1.5 });
    // no volume anywhere: counts 0; non-alcoholic lines are not measured
    expect(measureOrder([{ quantity: 4, alcohol_volume: 12, size: null, volume_ml: null }])).toEqual({ alcoholic: true, litres: 0 });
    expect(measureOrder([{ quantity: 4, alcohol_volume: 0, size: null, volume_ml: 1000 }])).toEqual({ alcoholic: false, litres: 0 });
  });
});
