import type { EngineResult } from '../engine/types.js';
import { mapCartPromotions } from './applied-promotion.dto.js';

/** The cart answer's promotions members: mapped once per engine answer and currency, shared and read only. */
const CHF = { code: 'CHF', precision: 2 };
const applied = (promotionId: string, amount: number) => ({ promotionId, name: `Offer ${promotionId}`, amount });
const result = (): EngineResult => ({
  lines: [
    { discount: 150, promotions: [applied('a', 150)] },
    { discount: 0, promotions: [] },
  ],
  discounts: [{ ...applied('a', 150), promotionClass: 'product', lines: 150, shipping: 0 }],
  linesDiscount: 150,
  shippingDiscount: 0,
  available: [{ promotionId: 'o', name: 'Ten off', missingQuantity: null, missingSubtotal: 2500 }],
  suggestedGifts: [{ promotionId: 'g', name: 'Gift', quantity: 1, selector: [{ type: 'product', ids: ['p9'] }] }],
});

describe('mapCartPromotions', () => {
  it('maps the engine answer to the cart members, money in decimals of the currency', () => {
    const view = mapCartPromotions(result(), CHF);
    expect(view.lines).toEqual([[{ promotion_id: 'a', name: 'Offer a', amount: 1.5 }], []]);
    expect(view.discounts).toEqual([{ promotion_id: 'a', name: 'Offer a', kind: 'product', amount: 1.5, lines_amount: 1.5, shipping_amount: 0 }]);
    expect(view.available).toEqual([
      { promotion_id: 'o', name: 'Ten off', missing_quantity: null, missing_amount: 25, message: 'Add 25.00 CHF more for "Ten off"' },
    ]);
    expect(view.gifts).toEqual([
      { promotion_id: 'g', name: 'Gift', quantity: 1, variant_ids: [], product_ids: ['p9'], selector: [{ type: 'product', ids: ['p9'] }] },
    ]);
  });

  it('maps a shared answer once: the reads of an unchanged cart get the same members (per currency)', () => {
    const shared = result();
    const first = mapCartPromotions(shared, CHF);
    expect(mapCartPromotions(shared, CHF)).toBe(first);
    expect(mapCartPromotions(shared, { code: 'EUR', precision: 2 })).not.toBe(first);
    expect(mapCartPromotions(shared, { code: 'JPY', precision: 0 }).lines[0][0].amount).toBe(150);
    // another answer (another cart) is mapped on its own
    expect(mapCartPromotions(result(), CHF)).not.toBe(first);
  });

  it('is read only: a caller writing into a shared member fails instead of changing other answers', () => {
    const view = mapCartPromotions(result(), CHF);
    expect(Object.isFrozen(view.lines[0])).toBe(true);
    expect(() => {
      (view.discounts[0] as { amount: number }).amount = 0;
    }).toThrow(TypeError);
  });
});
