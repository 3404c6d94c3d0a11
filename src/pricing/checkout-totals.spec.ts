import type { CurrencyInfo } from '../common/context/request-context.js';
import type { CatalogueLine, CouponInput } from './cart-pricing.js';
import { computeTotals, minorOf, spread, taxOf, TotalsInput } from './checkout-totals.js';

const CHF: CurrencyInfo = { id: 'chf', code: 'CHF', rate: '1', precision: 2, isDefault: true };
const EUR: CurrencyInfo = { id: 'eur', code: 'EUR', rate: '0.5', precision: 2, isDefault: false };
const line = (over: Partial<CatalogueLine> = {}): CatalogueLine => ({
  variantId: 'v1',
  productId: 'p1',
  quantity: '1',
  gross: '108.10',
  net: '100.00',
  taxRate: '8.1',
  grams: 750,
  ...over,
});
const coupon = (over: Partial<CouponInput> = {}): CouponInput => ({
  code: 'SAVE',
  type: 'value',
  value: '10',
  isActive: true,
  isUsed: false,
  isInfinite: false,
  expiryDate: null,
  currencyId: null,
  minValue: '0',
  ...over,
});
const input = (over: Partial<TotalsInput> = {}): TotalsInput => ({
  lines: [line()],
  currency: CHF,
  pricesIncludeTax: true,
  couponCode: null,
  coupon: null,
  defaultCurrencyId: 'chf',
  shipping: null,
  now: new Date('2026-01-01T00:00:00Z'),
  ...over,
});

describe('checkout totals', () => {
  it('taxOf: included (amount x r/(100+r)) or added (amount x r/100), half up once', () => {
    expect(taxOf(10810, 8.1, true)).toBe(810);
    expect(taxOf(10000, 8.1, false)).toBe(810);
    expect(taxOf(1000, 2.6, true)).toBe(25); // 25.34
    expect(taxOf(0, 8.1, true)).toBe(0);
  });

  it('spread splits pro rata by largest remainder and always adds up', () => {
    expect(spread(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(spread(10, [3, 7])).toEqual([3, 7]);
    expect(spread(0, [5, 5])).toEqual([0, 0]);
    expect(spread(5, [0, 0])).toEqual([0, 0]);
    const parts = spread(997, [123, 456, 789]);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(997);
  });

  it('gross basis: tax is included, the total is subtotal + shipping', () => {
    const t = computeTotals(input({ lines: [line({ quantity: '2' })] }));
    expect(t).toMatchObject({ subtotalBeforeDiscount: 21620, discount: 0, subtotal: 21620, shippingAmount: 0, taxAmount: 1620, total: 21620 });
    expect(t.taxLines).toEqual([{ name: 'Tax 8.1%', rate: 8.1, amount: 1620 }]);
  });

  it('net basis: tax is added on top', () => {
    const t = computeTotals(input({ pricesIncludeTax: false }));
    expect(t).toMatchObject({ subtotal: 10000, taxAmount: 810, total: 10810, priceIncludesTax: false });
  });

  it('the coupon discount is spread over the tax rates pro rata, and the tax lines sum to the tax amount', () => {
    const t = computeTotals(
      input({
        lines: [line(), line({ variantId: 'v2', gross: '51.30', net: '50.00', taxRate: '2.6' })],
        couponCode: 'SAVE',
        coupon: coupon({ value: '15.94' }),
      }),
    );
    expect(t.subtotalBeforeDiscount).toBe(15940);
    expect(t.discount).toBe(1594);
    expect(t.subtotal).toBe(14346);
    expect(t.couponCode).toBe('SAVE');
    expect(t.couponText).toBe('SAVE: 15.94 CHF off');
    // 10810 - 1081 = 9729 at 8.1%; 5130 - 513 = 4617 at 2.6%
    expect(t.taxLines).toEqual([
      { name: 'Tax 2.6%', rate: 2.6, amount: taxOf(4617, 2.6, true) },
      { name: 'Tax 8.1%', rate: 8.1, amount: taxOf(9729, 8.1, true) },
    ]);
    expect(t.taxAmount).toBe(t.taxLines.reduce((a, l) => a + l.amount, 0));
  });

  it('a stored coupon that no longer applies is reported, not applied', () => {
    const t = computeTotals(input({ couponCode: 'GONE', coupon: null }));
    expect(t).toMatchObject({ discount: 0, couponCode: null, couponRefusal: 'discount_code_not_found' });
    const used = computeTotals(input({ couponCode: 'SAVE', coupon: coupon({ isUsed: true }) }));
    expect(used).toMatchObject({ discount: 0, couponRefusal: 'discount_code_already_used' });
    expect(used.couponRefusalMessage).toMatch(/already been used/);
  });

  it('a percent coupon is described by its percentage', () => {
    const t = computeTotals(input({ couponCode: 'P', coupon: coupon({ code: 'P', type: 'percent', value: '10' }) }));
    expect(t).toMatchObject({ discount: 1081, couponText: 'P: 10% off' });
  });

  it('shipping: converted, free from free_over (after the discount), taxed at its own rate', () => {
    const shipping = { name: 'Post', price: '9.00', taxRate: '8.1', freeOver: '200.00' };
    const paid = computeTotals(input({ currency: EUR, shipping }));
    expect(paid).toMatchObject({ subtotal: 5405, shippingAmount: 450, shippingMethodName: 'Post', total: 5855 });
    expect(paid.taxLines).toEqual([{ name: 'Tax 8.1%', rate: 8.1, amount: taxOf(5405 + 450, 8.1, true) }]);
    const free = computeTotals(input({ lines: [line({ quantity: '2' })], shipping }));
    expect(free.shippingAmount).toBe(0);
    const belowAfterDiscount = computeTotals(input({ lines: [line({ quantity: '2' })], shipping, couponCode: 'SAVE', coupon: coupon({ value: '20' }) }));
    expect(belowAfterDiscount.shippingAmount).toBe(900); // 216.20 - 20 = 196.20 < 200
    const zeroRate = computeTotals(input({ shipping: { name: null, price: '5', taxRate: 0, freeOver: null } }));
    expect(zeroRate.taxLines.map((l) => l.rate)).toEqual([8.1]);
    expect(zeroRate.total).toBe(10810 + 500);
  });

  it('minorOf reads a stored decimal back to minor units', () => {
    expect(minorOf('12.345', 2)).toBe(1235);
    expect(minorOf(3, 0)).toBe(3);
  });
});
