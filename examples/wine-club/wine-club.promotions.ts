import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { managerOf, PromotionCondition } from 'vinoshop-commerce';
import type { PromotionCartView, RequestContext } from 'vinoshop-commerce';

/**
 * The wine club on the promotions extension point: the condition `{"type": "custom", "name": "wine_club_member"}`
 * holds for a signed-in member of the club (optionally `params.min_bottles_per_month`: members with at least that
 * many bottles a month), so a shop can run "club members −15% on the 2019 vintage" (README "Promotions").
 */
@Injectable()
export class WineClubMemberCondition extends PromotionCondition {
  readonly name = 'wine_club_member';

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async forCart(ctx: RequestContext, cart: PromotionCartView): Promise<(params: Record<string, unknown>) => boolean> {
    if (!cart.customerId) return () => false;
    const rows = (await managerOf(ctx, this.dataSource).query(`SELECT bottles_per_month FROM wine_club_members WHERE tenant_id = $1 AND customer_id = $2`, [
      ctx.tenantId,
      cart.customerId,
    ])) as Array<{ bottles_per_month: number }>;
    const bottles = rows[0]?.bottles_per_month ?? null;
    return (params) => bottles !== null && bottles >= Number(params.min_bottles_per_month ?? 0);
  }
}
