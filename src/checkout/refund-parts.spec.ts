import { describe, expect, it } from '@jest/globals';
import type { Order, OrderLine } from './entities/checkout.entities.js';
import { lineRefundMinor, lineRefundParts } from './order-refunds.service.js';

/** Issue 31: a refunded part of a line gives back its VAT and its excise (and the VAT on that excise). */
describe('lineRefundParts', () => {
  const order = (priceIncludesTax: boolean) => ({ currencyPrecision: 2, subtotal: '166.80', discount: '0', priceIncludesTax }) as unknown as Order;
  const line = (o: Partial<Record<keyof OrderLine, string>>) =>
    ({
      quantity: '6.000',
      taxRate: '20.000',
      lineTotal: '118.98',
      lineTotalWithTax: '142.80',
      exciseAmount: '0.46',
      exciseTax: '0',
      ...o,
    }) as unknown as OrderLine;

  it('gross shop: the VAT inside the gross (r / (100 + r), as the tax lines take it) and the excise pro rata', () => {
    expect(lineRefundParts(order(true), line({}), 6000)).toEqual({ amount: 14326, tax: 2380, excise: 46 });
    // half: 71.40 (VAT 11.90) + 0.23 excise
    expect(lineRefundParts(order(true), line({}), 3000)).toEqual({ amount: 7163, tax: 1190, excise: 23 });
    // the goods alone are what lineRefundMinor gave before (the refund rules of issue 17 unchanged for other orders)
    expect(lineRefundMinor(order(true), line({}), 6000)).toBe(14280);
  });

  it('the VAT on the excise, where the zone put it in the VAT base, goes back with it', () => {
    expect(lineRefundParts(order(true), line({ exciseTax: '0.09' }), 6000)).toEqual({ amount: 14335, tax: 2389, excise: 46 });
    // half of 0.09 = 0.045 -> 0.05 (half up)
    expect(lineRefundParts(order(true), line({ exciseTax: '0.09' }), 3000)).toEqual({ amount: 7168, tax: 1195, excise: 23 });
  });

  it('net shop: the VAT on the net line total', () => {
    // net 100.00 at 20 %: gross 120.00, VAT 20.00, no excise
    expect(lineRefundParts(order(false), line({ lineTotal: '100.00', exciseAmount: '0' }), 6000)).toEqual({ amount: 12000, tax: 2000, excise: 0 });
  });
});
