import type { CheckoutTotals } from '../pricing/index.js';

/**
 * Issue 32: the completion places an order only at a total its buyer was shown as far as promotions go. Each
 * storefront read of an open checkout records the promotions its answer applied (`shown_promotion_ids`); a
 * completion that would no longer apply one of them (used up, ended, disabled, deleted, its conditions no longer
 * holding) is refused with 422, and the buyer's next read records the new set, so completing again places the order
 * at the total that read showed. A promotion that starts applying in between only lowers the total and is kept.
 */

/** The promotions `totals` applies with an amount (sorted ids): a promotion taking nothing off changes no total. */
export function appliedPromotionIds(totals: Pick<CheckoutTotals, 'promotions'>): string[] {
  return [...new Set((totals.promotions?.discounts ?? []).filter((d) => d.amount > 0).map((d) => d.promotionId))].sort();
}

/** Whether two sorted id lists are the same. */
export function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The shown promotions that `totals` no longer applies (null shown: nothing was recorded, nothing is dropped). */
export function droppedPromotionIds(shown: readonly string[] | null, totals: Pick<CheckoutTotals, 'promotions'>): string[] {
  if (!shown || shown.length === 0) return [];
  const applied = new Set(appliedPromotionIds(totals));
  return shown.filter((id) => !applied.has(id));
}
