import { Injectable } from '@nestjs/common';
import { DataSource, type DeepPartial, type EntityManager } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { returning } from '../common/db/returning.js';
import { getOrThrow, repoOf } from '../common/db/tenant-scope.js';
import type { Page } from '../common/paging/page.js';
import { Pager, type PageRequest } from '../common/paging/pager.service.js';
import type { CouponInput } from '../pricing/index.js';
import { DiscountCode } from './entities/discount-code.entity.js';

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

/** The statements of the admin CRUD of discount codes (`DiscountCodesService`), in the context's transaction. */
@Injectable()
export class DiscountCodesRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pager: Pager,
  ) {}

  /** A page of the shop's codes, newest first. */
  page(ctx: RequestContext, page: PageRequest): Promise<Page<DiscountCode>> {
    const qb = repoOf(ctx, this.dataSource, DiscountCode).createQueryBuilder('d').where('d.tenant_id = :tenant', { tenant: ctx.tenantId });
    return this.pager.paginateByCreated(qb, page, 'DESC');
  }

  /** The shop's code `id`, or 404 `discount code`. */
  getOrThrow(ctx: RequestContext, id: string): Promise<DiscountCode> {
    return getOrThrow(ctx, this.dataSource, DiscountCode, id, 'discount code');
  }

  /** The shop's code with exactly this text, or null. */
  byCode(ctx: RequestContext, code: string): Promise<DiscountCode | null> {
    return repoOf(ctx, this.dataSource, DiscountCode).findOne({ where: { tenantId: ctx.tenantId, code } });
  }

  /** A new (unsaved) code entity. */
  build(ctx: RequestContext, fields: DeepPartial<DiscountCode>): DiscountCode {
    return repoOf(ctx, this.dataSource, DiscountCode).create(fields);
  }

  /** Inserts or updates the code; a taken code text fails with a unique violation. */
  save(ctx: RequestContext, d: DiscountCode): Promise<DiscountCode> {
    return repoOf(ctx, this.dataSource, DiscountCode).save(d);
  }

  /** Deletes the shop's code `id`; false when there is none. */
  async delete(ctx: RequestContext, id: string): Promise<boolean> {
    const res = await repoOf(ctx, this.dataSource, DiscountCode)
      .createQueryBuilder()
      .delete()
      .where('id = :id AND tenant_id = :tenant', { id, tenant: ctx.tenantId })
      .execute();
    return Boolean(res.affected);
  }
}
