import type { CurrencyInfo } from '../common/context/request-context.js';
import type { CatalogueLine, CouponInput, PricedLine } from './cart-pricing.js';
import { computeTotals, Promote, PromotionOutcome, TotalsInput } from './checkout-totals.js';

/** Promotions inside the checkout totals (issue 32): what `promote` answers comes off lines, coupon base, shipping, tax. */
const CHF: CurrencyInfo = { id: 'chf', code: 'CHF', rate: '1', precision: 2, isDefault: true };
const line = (variantId: string, gross: string, net: string, taxRate: string, quantity = '1'): CatalogueLine => ({
  variantId,
  productId: `p-${variantId}`,
  quantity,
  gross,
  net,
  taxRate,
  grams: 0,
});
const coupon: CouponInput = {
  code: 'TEN',
  type: 'percent',
  value: '10',
  isActive: true,
  isUsed: false,
  isInfinite: true,
  expiryDate: null,
  currencyId: null,
  minValue: '0',
};
const input = (over: Partial<TotalsInput> = {}): TotalsInput => ({
  lines: [line('wine', '108.10', '100.00', '8.1'), line('juice', '102.60', '100.00', '2.6')],
  currency: CHF,
  pricesIncludeTax: true,
  couponCode: null,
  coupon: null,
  defaultCurrencyId: 'chf',
  shipping: null,
  now: new Date('2026-01-01T00:00:00Z'),
  ...over,
});
/** A promote answering fixed parts per line and off the shipping, recording what it was asked. */
function fixed(parts: number[], shipping = 0): Promote & { calls: Array<{ lines: readonly PricedLine[]; shipping: number | null }> } {
  const calls: Array<{ lines: readonly PricedLine[]; shipping: number | null }> = [];
  const f = (lines: readonly PricedLine[], shippingAmount: number | null): PromotionOutcome => {
    calls.push({ lines, shipping: shippingAmount });
    return {
      lines: lines.map((_, i) => ({ discount: parts[i] ?? 0, promotions: parts[i] ? [{ promotionId: 'x', name: 'X', amount: parts[i] }] : [] })),
      discounts: [{ promotionId: 'x', name: 'X', amount: parts.reduce((a, b) => a + b, 0) + shipping, promotionClass: 'product', lines: 0, shipping }],
      shippingDiscount: shipping,
    };
  };
  return Object.assign(f, { calls });
}

describe('checkout totals with promotions', () => {
  it('without promote (or with nothing applied) every figure is as before', () => {
    const plain = computeTotals(input({ couponCode: 'TEN', coupon }));
    const none = computeTotals(input({ couponCode: 'TEN', coupon, promote: fixed([0, 0]) }));
    expect({ ...none, promotions: null }).toEqual(plain);
    expect(plain).toMatchObject({ promotions: null, lineDiscounts: [0, 0], couponDiscount: 2107, shippingDiscount: 0 });
  });

  it('line parts come off the discount; the tax of each rate is on its lines after their own parts', () => {
    const t = computeTotals(input({ promote: fixed([1081, 0]) }));
    expect(t.subtotalBeforeDiscount).toBe(21070);
    expect(t.discount).toBe(1081);
    expect(t.subtotal).toBe(19989);
    expect(t.lineDiscounts).toEqual([1081, 0]);
    // 8.1%: 97.29 gross -> 7.29 tax; 2.6%: 102.60 -> 2.60
    expect(t.taxLines).toEqual([
      { name: 'Tax 2.6%', rate: 2.6, amount: 260 },
      { name: 'Tax 8.1%', rate: 8.1, amount: 729 },
    ]);
    expect(t.total).toBe(19989);
  });

  it('a stacking coupon applies to what the promotions left, so the two never exceed the subtotal', () => {
    const t = computeTotals(input({ couponCode: 'TEN', coupon, promote: fixed([1070, 0]) }));
    expect(t.couponDiscount).toBe(2000); // 10% of 200.00, not of 210.70
    expect(t.discount).toBe(3070);
    expect(t.couponText).toBe('TEN: 10% off');
    const value = computeTotals(input({ couponCode: 'V', coupon: { ...coupon, code: 'V', type: 'value', value: '500' }, promote: fixed([10810, 10000]) }));
    expect(value.couponDiscount).toBe(260);
    expect(value.subtotal).toBe(0);
  });

  it('the shipping part comes off the shipping price (promote is asked with it), never below zero', () => {
    const p = fixed([0, 0], 950);
    const t = computeTotals(input({ shipping: { name: 'Post', price: '9.50', taxRate: '8.1', freeOver: null }, promote: p }));
    expect(p.calls.map((c) => c.shipping)).toEqual([950]);
    expect(t.shippingAmount).toBe(0);
    expect(t.shippingDiscount).toBe(950);
    expect(t.total).toBe(21070);
    const over = computeTotals(input({ shipping: { name: 'Post', price: '9.50', taxRate: '8.1', freeOver: null }, promote: fixed([0, 0], 5000) }));
    expect(over.shippingAmount).toBe(0);
    expect(over.shippingDiscount).toBe(950);
    const unshipped = fixed([0, 0]);
    computeTotals(input({ promote: unshipped }));
    expect(unshipped.calls[0].shipping).toBeNull();
  });

  it('a line part is capped at its line', () => {
    const t = computeTotals(input({ promote: fixed([99999, 0]) }));
    expect(t.lineDiscounts).toEqual([10810, 0]);
    expect(t.discount).toBe(10810);
  });
});
