import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { AfterSalesClaim, AfterSalesReturn, OrderAfterSales } from '../extensions/index.js';
import { mapClaim } from './claims.service.js';
import { ReturnsRepository } from './returns.repository.js';
import { mapReturn } from './returns.service.js';

/** The returns module's `OrderAfterSales`: an order's returns and claims for the admin order (`returns`, `claims`). */
@Injectable()
export class ReturnsAfterSales extends OrderAfterSales {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repo: ReturnsRepository,
  ) {
    super();
  }

  async ofOrder(ctx: RequestContext, orderId: string): Promise<{ returns: AfterSalesReturn[]; claims: AfterSalesClaim[] }> {
    const m = managerOf(ctx, this.dataSource);
    const [returns, claims] = await Promise.all([this.repo.ofOrder(m, ctx.tenantId, orderId), this.repo.claimsOf(m, ctx.tenantId, orderId)]);
    return { returns: returns.map(mapReturn), claims: claims.map(mapClaim) };
  }
}
