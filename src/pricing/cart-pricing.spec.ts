import type { CurrencyInfo } from '../common/context/request-context.js';
import {
  CatalogueLine,
  CouponInput,
  evaluateCoupon,
  lineMinor,
  priceLine,
  priceLines,
  quantityMilli,
  quantityRuleViolation,
  unitMinor,
  withDiscount,
} from './cart-pricing.js';

const CHF: CurrencyInfo = { id: 'chf', code: 'CHF', rate: '1', precision: 2, isDefault: true };
const EUR: CurrencyInfo = { id: 'eur', code: 'EUR', rate: '0.95', precision: 2, isDefault: false };
const JPY: CurrencyInfo = { id: 'jpy', code: 'JPY', rate: '160.5', precision: 0, isDefault: false };

const line = (over: Partial<CatalogueLine> = {}): CatalogueLine => ({
  variantId: 'v1',
  productId: 'p1',
  quantity: '1',
  gross: '10.8100',
  net: '10.0000',
  taxRate: '8.1',
  grams: 750,
  ...over,
});

const coupon = (over: Partial<CouponInput> = {}): CouponInput => ({
  code: 'SAVE',
  type: 'value',
  value: '5',
  isActive: true,
  isUsed: false,
  isInfinite: false,
  expiryDate: null,
  currencyId: null,
  minValue: '0',
  ...over,
});

describe('cart pricing', () => {
  it('unitMinor converts a default-currency decimal by the rate and rounds once to the minor unit', () => {
    expect(unitMinor('10.8100', CHF)).toBe(1081);
    expect(unitMinor('10.8100', EUR)).toBe(1027); // 10.2695 -> 10.27
    expect(unitMinor('10.8100', JPY)).toBe(1735); // 1735.005 -> 1735
  });

  it('quantityMilli is exact thousandths', () => {
    expect(quantityMilli('1.5')).toBe(1500);
    expect(quantityMilli(2)).toBe(2000);
    expect(quantityMilli('0.333')).toBe(333);
  });

  it('lineMinor is unit x quantity less the line discount, rounded half up once', () => {
    expect(lineMinor(1081, 3000)).toBe(3243);
    expect(lineMinor(1081, 1500)).toBe(1622); // 1621.5
    expect(lineMinor(1000, 1000, 15)).toBe(850);
    expect(lineMinor(333, 1000, 50)).toBe(167); // 166.5
  });

  it('priceLine follows the net/gross rule and carries both bases and the weight', () => {
    const gross = priceLine(line({ quantity: '2' }), CHF, false);
    expect(gross).toMatchObject({
      quantity: 2,
      unitNet: 1000,
      unitGross: 1081,
      unit: 1081,
      lineNet: 2000,
      lineGross: 2162,
      line: 2162,
      taxRate: 8.1,
      grams: 750,
      lineGrams: 1500,
    });
    const net = priceLine(line({ quantity: '2' }), CHF, true);
    expect(net.unit).toBe(1000);
    expect(net.line).toBe(2000);
    expect(priceLine(line({ grams: null }), CHF, false).lineGrams).toBe(0);
  });

  it('priceLines sums the rounded lines (so the members add up) and rounds the item count', () => {
    const t = priceLines([line({ quantity: '1.5' }), line({ variantId: 'v2', quantity: '1', gross: '0.3333', net: '0.3333' })], CHF, false);
    expect(t.lines.map((l) => l.line)).toEqual([1622, 33]);
    expect(t.subtotal).toBe(1655);
    expect(t.itemCount).toBe(3); // 2.5 rounds to 3
    expect(t.totalGrams).toBe(1875);
  });

  it('withDiscount caps the discount at the subtotal: never a negative total', () => {
    const base = priceLines([line()], CHF, false);
    expect(withDiscount(base, 500)).toMatchObject({ discount: 500, total: 581 });
    expect(withDiscount(base, 5000)).toMatchObject({ discount: 1081, total: 0 });
    expect(withDiscount(base, -3)).toMatchObject({ discount: 0, total: 1081 });
  });

  describe('evaluateCoupon', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    it('refuses in the CONTRACT 4 order: not found, inactive, expired, used, currency, minimum', () => {
      expect(evaluateCoupon(null, 1000, CHF, 'chf', now)).toMatchObject({ ok: false, code: 'discount_code_not_found' });
      expect(evaluateCoupon(coupon({ isActive: false, isUsed: true }), 1000, CHF, 'chf', now)).toMatchObject({ ok: false, code: 'discount_code_inactive' });
      expect(evaluateCoupon(coupon({ expiryDate: now, isUsed: true }), 1000, CHF, 'chf', now)).toMatchObject({ ok: false, code: 'discount_code_expired' });
      expect(evaluateCoupon(coupon({ isUsed: true, currencyId: 'eur' }), 1000, CHF, 'chf', now)).toMatchObject({
        ok: false,
        code: 'discount_code_already_used',
      });
      expect(evaluateCoupon(coupon({ currencyId: 'eur', minValue: '100' }), 1000, CHF, 'chf', now)).toMatchObject({
        ok: false,
        code: 'discount_code_currency_mismatch',
      });
      expect(evaluateCoupon(coupon({ minValue: '10.01' }), 1000, CHF, 'chf', now)).toMatchObject({ ok: false, code: 'discount_code_minimum_not_met' });
    });

    it('a used infinite code still applies; a future expiry applies', () => {
      expect(evaluateCoupon(coupon({ isUsed: true, isInfinite: true }), 1000, CHF, 'chf', now)).toEqual({ ok: true, discount: 500 });
      expect(evaluateCoupon(coupon({ expiryDate: new Date('2026-01-02T00:00:00Z') }), 1000, CHF, 'chf', now)).toEqual({ ok: true, discount: 500 });
    });

    it('a value code is in its own currency and capped at the subtotal', () => {
      expect(evaluateCoupon(coupon({ currencyId: 'eur', value: '3.50' }), 1000, EUR, 'chf', now)).toEqual({ ok: true, discount: 350 });
      expect(evaluateCoupon(coupon({ value: '50' }), 1000, CHF, 'chf', now)).toEqual({ ok: true, discount: 1000 });
      expect(evaluateCoupon(coupon({ minValue: '10' }), 1000, CHF, 'chf', now)).toEqual({ ok: true, discount: 500 });
    });

    it('a percent code takes its share in any currency; its minimum is in the default currency, converted', () => {
      expect(evaluateCoupon(coupon({ type: 'percent', value: '12.5' }), 999, EUR, 'chf', now)).toEqual({ ok: true, discount: 125 });
      // min 10.00 CHF is 9.50 EUR
      expect(evaluateCoupon(coupon({ type: 'percent', value: '10', minValue: '10' }), 950, EUR, 'chf', now)).toEqual({ ok: true, discount: 95 });
      expect(evaluateCoupon(coupon({ type: 'percent', value: '10', minValue: '10' }), 949, EUR, 'chf', now)).toMatchObject({
        ok: false,
        code: 'discount_code_minimum_not_met',
      });
    });
  });

  it('quantityRuleViolation names the violated rule: min, max, increment', () => {
    const rule = { min: '1', max: '12', increment: '0.5' };
    expect(quantityRuleViolation('2.5', rule)).toBeNull();
    expect(quantityRuleViolation('0.5', rule)).toMatch(/below the variant's quantity_rule.min of 1/);
    expect(quantityRuleViolation('12.5', rule)).toMatch(/above the variant's quantity_rule.max of 12/);
    expect(quantityRuleViolation('1.25', rule)).toMatch(/not a multiple of the variant's quantity_rule.increment of 0.5/);
    expect(quantityRuleViolation(1000, { min: 1, max: null, increment: 1 })).toBeNull();
  });
});
