import { describe, expect, it } from '@jest/globals';
import { computeTaxedTotals, exciseRate, type TaxRules } from './tax-engine.js';

/** Issue 31: excise amounts are written in the zone's currency and converted to the checkout's. */
describe('excise in the zone currency', () => {
  const EUR = { id: 'eur', code: 'EUR', rate: '1', precision: 2, isDefault: true };
  const CHF = { id: 'chf', code: 'CHF', rate: '0.95', precision: 2, isDefault: false };
  const currencies = [
    { code: 'EUR', rate: '1' },
    { code: 'CHF', rate: '0.95' },
  ];

  it('converts by checkout rate / zone currency rate; no zone currency or an unknown one counts as the default', () => {
    expect(exciseRate(null, EUR, currencies)).toBe('1');
    expect(exciseRate(null, CHF, currencies)).toBe('0.95');
    expect(exciseRate('CHF', CHF, currencies)).toBe('1');
    expect(Number(exciseRate('CHF', EUR, currencies))).toBeCloseTo(1 / 0.95, 10);
    expect(exciseRate('NOK', EUR, currencies)).toBe('1');
  });

  const rules = (exciseCurrency: string | null): TaxRules => ({
    settings: { mode: 'destination', gross_price_policy: 'constant', excise_display: 'included' },
    zones: [{ id: 'z-ch', key: 'CH', name: 'Switzerland', countries: ['CH'], regions: [], postcodes: [], excise_currency: exciseCurrency }],
    categories: [{ id: 'c-wine', key: 'wine', name: 'Wine', excise_class: 'still' }],
    rates: [{ id: 'r', category_id: 'c-wine', zone_id: 'z-ch', rate: '8.1', excise_per_hl: '100', valid_from: null, valid_to: null }],
  });
  const input = (currency: typeof EUR) => ({
    lines: [{ variantId: 'v', productId: 'p', quantity: 2, gross: '20.00', net: '18.5014', taxRate: 8.1, grams: null }],
    currency,
    currencies,
    pricesIncludeTax: true,
    couponCode: null,
    coupon: null,
    defaultCurrencyId: 'eur',
    shipping: null,
    day: '2026-06-01',
    destination: { country: 'CH' },
    variants: new Map([['v', { categoryId: 'c-wine', volumeMl: 1500, alcoholVolume: 12 }]]),
  });

  it('charges 2 x 0.015 hl x 100 CHF = 3.00 CHF: 3.16 EUR in a euro checkout, 3.00 in a franc one', () => {
    // 3.00 CHF / 0.95 = 3.1579 EUR -> 3.16
    expect(computeTaxedTotals(rules('CHF'), input(EUR)).exciseAmount).toBe(316);
    expect(computeTaxedTotals(rules('CHF'), input(CHF)).exciseAmount).toBe(300);
    // without a zone currency the 100 per hl are euros: 3.00 EUR, or 2.85 CHF
    expect(computeTaxedTotals(rules(null), input(EUR)).exciseAmount).toBe(300);
    expect(computeTaxedTotals(rules(null), input(CHF)).exciseAmount).toBe(285);
  });

  it("a zone whose VAT base includes the excise charges the line rate on it, once per line, inside that rate's tax line", () => {
    const inBase = { ...rules(null), zones: rules(null).zones.map((z) => ({ ...z, excise_in_vat_base: true })) };
    const t = computeTaxedTotals(inBase, input(EUR));
    // goods 2 x 20.00 = 40.00: 40 x 8.1/108.1 = 2.9972 -> 3.00; excise 3.00 EUR, its VAT 3.00 x 8.1 % = 0.243 -> 0.24
    expect(t.lineTaxes[0]).toMatchObject({ excise: 300, exciseTax: 24 });
    expect(t.taxLines).toEqual([
      { name: 'Tax 8.1% Switzerland', rate: 8.1, amount: 324 },
      { name: 'Excise duty', rate: 0, amount: 300 },
    ]);
    expect(t).toMatchObject({ exciseAmount: 300, exciseTaxAmount: 24, taxAmount: 624, total: 4324 });
    // outside the base (the default): no VAT on the excise
    expect(computeTaxedTotals(rules(null), input(EUR))).toMatchObject({ exciseTaxAmount: 0, taxAmount: 600, total: 4300 });
  });
});
