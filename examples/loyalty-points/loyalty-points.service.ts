import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError, isCustomerOf, managerOf, OnDomainEvent, Page, Pager, repoOf } from 'vinoshop-commerce';
import type { DomainEvent, PageRequest, RequestContext } from 'vinoshop-commerce';
import { LoyaltyPointEntry } from './loyalty-point-entry.entity.js';
import type { LoyaltyPointEntryDto, LoyaltyPointsDto } from './loyalty-points.dto.js';

export type { LoyaltyPointEntryDto, LoyaltyPointsDto };

/** Whole currency units of a decimal total (`"42.90"` or `42.9` gives 42), without floating-point surprises. */
export function wholeUnits(total: string | number | undefined): number {
  if (total === undefined || total === null) return 0;
  const m = /^\s*(\d+)(?:\.\d*)?\s*$/.exec(typeof total === 'number' ? total.toFixed(6) : total);
  return m ? Number(m[1]) : 0;
}

@Injectable()
export class LoyaltyPointsService {
  private readonly logger = new Logger('LoyaltyPoints');

  constructor(
    private readonly dataSource: DataSource,
    private readonly pager: Pager,
  ) {}

  /**
   * 1 point per whole unit of the order total, for orders of registered customers. Runs from the outbox after the
   * order committed, in the handler's transaction (`ctx.manager`): the entry and the handler's completion commit
   * together, and the unique (tenant, order) index makes a replay harmless.
   */
  @OnDomainEvent('order.placed')
  async earnOnOrderPlaced(event: DomainEvent<'order.placed'>, ctx: RequestContext): Promise<void> {
    const { order } = event.payload; // OrderPlacedPayload of DomainEventMap
    const points = wholeUnits(order.total);
    if (!order.customer_id || points <= 0) return; // guest order or nothing to earn
    const m = managerOf(ctx, this.dataSource);
    if (!(await isCustomerOf(m, ctx.tenantId, order.customer_id))) return; // the account is gone
    const res = (await m.query(
      `INSERT INTO loyalty_point_entries (tenant_id, customer_id, order_id, points) VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id, order_id) DO NOTHING
       RETURNING id`,
      [ctx.tenantId, order.customer_id, order.id, points],
    )) as unknown[];
    if (res.length) this.logger.log(`customer ${order.customer_id} earned ${points} points with order ${order.id}`);
  }

  async balance(ctx: RequestContext, customerId: string): Promise<LoyaltyPointsDto> {
    await this.assertCustomer(ctx, customerId);
    const [row] = (await managerOf(ctx, this.dataSource).query(
      `SELECT COALESCE(SUM(points), 0)::int AS points FROM loyalty_point_entries WHERE tenant_id = $1 AND customer_id = $2`,
      [ctx.tenantId, customerId],
    )) as Array<{ points: number }>;
    return { customer_id: customerId, points: row.points };
  }

  /** The customer's entries, newest first; cursored with the service's pager. */
  async entries(ctx: RequestContext, customerId: string, page: PageRequest): Promise<Page<LoyaltyPointEntryDto>> {
    await this.assertCustomer(ctx, customerId);
    const qb = repoOf(ctx, this.dataSource, LoyaltyPointEntry)
      .createQueryBuilder('l')
      .where('l.tenant_id = :tenant AND l.customer_id = :customer', { tenant: ctx.tenantId, customer: customerId });
    const rows = await this.pager.paginateByCreated(qb, page, 'DESC');
    return rows.map((e) => ({ id: e.id, order_id: e.orderId, points: e.points, created_at: e.createdAt.toISOString() }));
  }

  /** A customer of another shop is as unknown as a missing one: 404. */
  private async assertCustomer(ctx: RequestContext, customerId: string): Promise<void> {
    if (!(await isCustomerOf(managerOf(ctx, this.dataSource), ctx.tenantId, customerId))) throw AppError.notFound('customer');
  }
}
