import type { EntityManager } from 'typeorm';
import { returning } from '../common/db/returning.js';
import type { CouponInput } from '../pricing/index.js';
import type { DiscountCode } from './entities/discount-code.entity.js';

/**
 * The discounts module owns `discount_codes`: it alone writes them. Other modules read a code through
 * `DiscountCodesService.findByCode` and redeem or release it through the functions here (each runs in the
 * caller's transaction through its `EntityManager`).
 */

/** A redeemed code. */
export interface RedeemedCodeRow {
  id: string;
  code: string;
}

/**
 * Redeems `code`: a single-use code only while unused (a conditional UPDATE, so of concurrent redeemers exactly one
 * wins); an infinite code keeps its flag. Null when nothing was redeemed (used meanwhile, or gone).
 */
export async function redeemDiscountCode(m: EntityManager, tenantId: string, code: string): Promise<RedeemedCodeRow | null> {
  const rows = await returning<RedeemedCodeRow>(
    m,
    `UPDATE discount_codes SET is_used = CASE WHEN is_infinite THEN is_used ELSE true END, using_date = now(), updated_at = now()
     WHERE tenant_id = $1 AND code = $2 AND (is_infinite OR NOT is_used) RETURNING id, code`,
    [tenantId, code],
  );
  return rows[0] ?? null;
}

/** A used single-use code becomes usable again. True when one was released. */
export async function releaseDiscountCode(m: EntityManager, tenantId: string, code: string): Promise<boolean> {
  const rows = await returning<{ id: string }>(
    m,
    `UPDATE discount_codes SET is_used = false, using_date = NULL, updated_at = now() WHERE tenant_id = $1 AND code = $2 AND NOT is_infinite AND is_used RETURNING id`,
    [tenantId, code],
  );
  return rows.length > 0;
}

/** What the pricing evaluates of a code (`evaluateCoupon`). */
export function couponInputOf(d: DiscountCode): CouponInput {
  return {
    code: d.code,
    type: d.type,
    value: d.value,
    isActive: d.isActive,
    isUsed: d.isUsed,
    isInfinite: d.isInfinite,
    expiryDate: d.expiryDate,
    currencyId: d.currencyId,
    minValue: d.minValue,
  };
}
