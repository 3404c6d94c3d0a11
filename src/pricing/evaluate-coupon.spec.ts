import type { CurrencyInfo } from '../common/context/request-context.js';
import { type CouponInput, evaluateCoupon } from './cart-pricing.js';

const EUR: CurrencyInfo = { id: 'eur', code: 'EUR', rate: '1', precision: 2, isDefault: true };
const CHF: CurrencyInfo = { id: 'chf', code: 'CHF', rate: '1.5', precision: 2, isDefault: false };
const NOW = new Date('2026-06-01T12:00:00Z');

const coupon = (over: Partial<CouponInput> = {}): CouponInput => ({
  code: 'SAVE',
  type: 'value',
  value: '5.00',
  isActive: true,
  isUsed: false,
  isInfinite: false,
  expiryDate: null,
  currencyId: null,
  minValue: '0',
  ...over,
});

const evaluate = (c: CouponInput | null, subtotal: number, currency = EUR) => evaluateCoupon(c, subtotal, currency, EUR.id, NOW);

describe('evaluateCoupon', () => {
  it('a value code takes its amount off, capped at the subtotal', () => {
    expect(evaluate(coupon(), 2000)).toEqual({ ok: true, discount: 500 });
    expect(evaluate(coupon(), 300)).toEqual({ ok: true, discount: 300 });
  });

  it('a percent code takes its share of the subtotal, rounded half up', () => {
    expect(evaluate(coupon({ type: 'percent', value: '10' }), 2000)).toEqual({ ok: true, discount: 200 });
    expect(evaluate(coupon({ type: 'percent', value: '12.5' }), 1001)).toEqual({ ok: true, discount: 125 });
    expect(evaluate(coupon({ type: 'percent', value: '100' }), 999)).toEqual({ ok: true, discount: 999 });
  });

  it('refuses a missing, inactive, expired or used single-use code, in that order', () => {
    expect(evaluate(null, 1000)).toEqual({ ok: false, code: 'discount_code_not_found', message: 'no such discount code' });
    expect(evaluate(coupon({ isActive: false, isUsed: true }), 1000)).toMatchObject({
      ok: false,
      code: 'discount_code_inactive',
      message: 'discount code SAVE is not active',
    });
    expect(evaluate(coupon({ expiryDate: NOW }), 1000)).toMatchObject({ ok: false, code: 'discount_code_expired', message: 'discount code SAVE has expired' });
    expect(evaluate(coupon({ expiryDate: new Date(NOW.getTime() + 1) }), 1000)).toEqual({ ok: true, discount: 500 });
    expect(evaluate(coupon({ isUsed: true }), 1000)).toMatchObject({ ok: false, code: 'discount_code_already_used' });
    expect(evaluate(coupon({ isUsed: true, isInfinite: true }), 1000)).toEqual({ ok: true, discount: 500 });
  });

  it('a value code applies only in its own currency (null: the default currency)', () => {
    expect(evaluate(coupon(), 1000, CHF)).toMatchObject({
      ok: false,
      code: 'discount_code_currency_mismatch',
      message: 'discount code SAVE is not valid in CHF',
    });
    expect(evaluate(coupon({ currencyId: 'chf' }), 1000, CHF)).toEqual({ ok: true, discount: 500 });
    expect(evaluate(coupon({ currencyId: 'chf' }), 1000, EUR)).toMatchObject({ ok: false, code: 'discount_code_currency_mismatch' });
  });

  it('a percent code applies in any currency', () => {
    expect(evaluate(coupon({ type: 'percent', value: '10', currencyId: 'chf' }), 1000, EUR)).toEqual({ ok: true, discount: 100 });
    expect(evaluate(coupon({ type: 'percent', value: '10' }), 1000, CHF)).toEqual({ ok: true, discount: 100 });
  });

  it('the minimum: in the code currency for value codes, converted from the default currency for percent codes', () => {
    expect(evaluate(coupon({ minValue: '20.00' }), 1999)).toEqual({
      ok: false,
      code: 'discount_code_minimum_not_met',
      message: 'discount code SAVE needs a subtotal of at least 20.00 EUR',
    });
    expect(evaluate(coupon({ minValue: '20.00' }), 2000)).toEqual({ ok: true, discount: 500 });
    // 20 EUR at 1.5 CHF per EUR = 30 CHF
    expect(evaluate(coupon({ type: 'percent', value: '10', minValue: '20' }), 2999, CHF)).toMatchObject({
      ok: false,
      code: 'discount_code_minimum_not_met',
      message: 'discount code SAVE needs a subtotal of at least 30.00 CHF',
    });
    expect(evaluate(coupon({ type: 'percent', value: '10', minValue: '20' }), 3000, CHF)).toEqual({ ok: true, discount: 300 });
  });
});
