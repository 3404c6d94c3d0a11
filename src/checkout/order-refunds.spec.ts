import type { Order, OrderLine } from './entities/checkout.entities.js';
import { lineRefundMinor } from './order-refunds.service.js';

/** A line's refund: the line as charged, less its own promotion parts, less its share of the rest of the discount. */
const order = (over: Partial<Order>): Order =>
  ({ currencyPrecision: 2, subtotal: '100.00', discount: '0', promotionDiscount: '0', priceIncludesTax: true, ...over }) as Order;
const line = (over: Partial<OrderLine>): OrderLine =>
  ({ quantity: '2', lineTotal: '55.50', lineTotalWithTax: '60.00', taxRate: '8.1', promotionDiscount: '0', ...over }) as OrderLine;

describe('lineRefundMinor', () => {
  it('without promotions: the line less its pro-rata share of the order discount (the rule before issue 32)', () => {
    expect(lineRefundMinor(order({}), line({}), 1000)).toBe(3000);
    expect(lineRefundMinor(order({ discount: '10.00' }), line({}), 1000)).toBe(2700);
  });

  it("a line's own promotion parts are not refunded; the coupon is shared over what the promotions left", () => {
    // Barolo 2 x 30 with 12.00 off, Langhe 40: promotions 12, coupon 10 on the 88 left -> discount 22
    const o = order({ subtotal: '100.00', discount: '22.00', promotionDiscount: '12.00' });
    expect(lineRefundMinor(o, line({ promotionDiscount: '12.00' }), 1000)).toBe(2127); // 24 x 78 / 88
    expect(lineRefundMinor(o, line({ promotionDiscount: '12.00' }), 2000)).toBe(4255); // 48 x 78 / 88
    expect(lineRefundMinor(o, line({ lineTotalWithTax: '40.00', promotionDiscount: '0' }), 2000)).toBe(3545); // 40 x 78 / 88
  });

  it('a fully discounted line refunds nothing; a net shop adds the line tax after the promotion parts', () => {
    const o = order({ subtotal: '100.00', discount: '30.00', promotionDiscount: '30.00' });
    expect(lineRefundMinor(o, line({ promotionDiscount: '60.00' }), 2000)).toBe(0);
    const net = order({ priceIncludesTax: false, subtotal: '100.00', discount: '10.00', promotionDiscount: '10.00' });
    expect(lineRefundMinor(net, line({ lineTotal: '50.00', promotionDiscount: '10.00' }), 2000)).toBe(4324); // 40 x 1.081
  });
});
