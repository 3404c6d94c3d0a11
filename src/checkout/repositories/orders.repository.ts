import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { RequestContext } from '../../common/context/request-context.js';
import { managerOf, repoOf } from '../../common/db/tenant-scope.js';
import type { Page } from '../../common/paging/page.js';
import { Pager, type PageRequest } from '../../common/paging/pager.service.js';
import { countriesOf, type CountryRow } from '../../tenancy/index.js';
import { Order, OrderFulfillment, OrderLine, OrderRefund, OrderTransaction } from '../entities/checkout.entities.js';

/** Filters of the admin list of orders (AND-combined; `q` a prefix of the number or the email, lower case). */
export interface AdminOrderFilter {
  status?: string;
  financialStatus?: string;
  fulfillmentStatus?: string;
  createdAtMin?: Date;
  createdAtMax?: Date;
  customerId?: string;
  email?: string;
  /** Unpaid invoice orders placed more than this many days ago. */
  overdueAfterDays?: number;
  q?: string;
}

/** What the admin order view shows beside the order and its lines. */
export interface OrderParts {
  refunds: OrderRefund[];
  fulfillments: OrderFulfillment[];
  transactions: OrderTransaction[];
  countries: CountryRow[];
}

/**
 * The reads and edits of placed orders (`AdminOrdersService`, `OrdersService`, the payment-expiry job), in the
 * context's transaction when one is open (`ctx.manager`).
 */
@Injectable()
export class OrdersRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pager: Pager,
  ) {}

  private m(ctx: RequestContext): EntityManager {
    return managerOf(ctx, this.dataSource);
  }

  /** The admin list: newest first (created_at, id), cursored. */
  page(ctx: RequestContext, page: PageRequest, f: AdminOrderFilter): Promise<Page<Order>> {
    const qb = repoOf(ctx, this.dataSource, Order).createQueryBuilder('o').where('o.tenant_id = :tenant', { tenant: ctx.tenantId });
    if (f.status) qb.andWhere('o.status = :status', { status: f.status });
    if (f.financialStatus) qb.andWhere('o.financial_status = :fin', { fin: f.financialStatus });
    if (f.fulfillmentStatus) qb.andWhere('o.fulfillment_status = :ful', { ful: f.fulfillmentStatus });
    if (f.createdAtMin) qb.andWhere('o.created_at >= :min', { min: f.createdAtMin });
    if (f.createdAtMax) qb.andWhere('o.created_at <= :max', { max: f.createdAtMax });
    if (f.customerId) qb.andWhere('o.customer_id = :customer', { customer: f.customerId });
    if (f.email) qb.andWhere('lower(o.email) = :email', { email: f.email });
    if (f.overdueAfterDays !== undefined) {
      qb.andWhere(
        `o.payment_kind = 'invoice' AND o.financial_status IN ('pending', 'partially_paid') AND o.cancelled_at IS NULL AND o.placed_at < now() - make_interval(days => :due)`,
        { due: f.overdueAfterDays },
      );
    }
    if (f.q) {
      const prefix = f.q.replace(/[\\%_]/g, (c) => `\\${c}`) + '%';
      qb.andWhere('(o.number::text LIKE :qp OR lower(o.email) LIKE :qp)', { qp: prefix });
    }
    return this.pager.paginateByCreated(qb, page, 'DESC');
  }

  /** The shop's order `id` (a valid uuid), or null. */
  find(ctx: RequestContext, id: string): Promise<Order | null> {
    return repoOf(ctx, this.dataSource, Order).findOne({ where: { id, tenantId: ctx.tenantId } });
  }

  /** The order `id` (a valid uuid) in any shop, or null (the test payment page has no shop context). */
  findInAnyShop(id: string): Promise<Order | null> {
    return this.dataSource.getRepository(Order).findOne({ where: { id } });
  }

  /** Writes staff's edits of the order (note, email, tags). */
  async saveEdits(tx: RequestContext, o: Order): Promise<void> {
    await this.m(tx).query(`UPDATE orders SET note = $3, email = $4, tags = $5, updated_at = now() WHERE id = $1 AND tenant_id = $2`, [
      o.id,
      tx.tenantId,
      o.note,
      o.email,
      o.tags,
    ]);
  }

  /** The order's lines by position. */
  lines(ctx: RequestContext, orderId: string): Promise<OrderLine[]> {
    return repoOf(ctx, this.dataSource, OrderLine).find({ where: { orderId, tenantId: ctx.tenantId }, order: { position: 'ASC' } });
  }

  /** The order's refunds, oldest first. */
  refunds(ctx: RequestContext, orderId: string): Promise<OrderRefund[]> {
    return repoOf(ctx, this.dataSource, OrderRefund).find({ where: { orderId, tenantId: ctx.tenantId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The shop's countries (for the addresses' country names). */
  countries(ctx: RequestContext): Promise<CountryRow[]> {
    return countriesOf(this.m(ctx), ctx.tenantId);
  }

  /** Refunds, fulfillments and transactions of the order (oldest first), and the shop's countries, read in parallel. */
  async parts(ctx: RequestContext, orderId: string): Promise<OrderParts> {
    const m = this.m(ctx);
    const where = { where: { orderId, tenantId: ctx.tenantId }, order: { createdAt: 'ASC' as const, id: 'ASC' as const } };
    const [refunds, fulfillments, transactions, countries] = await Promise.all([
      m.getRepository(OrderRefund).find(where),
      m.getRepository(OrderFulfillment).find(where),
      m.getRepository(OrderTransaction).find(where),
      countriesOf(m, ctx.tenantId),
    ]);
    return { refunds, fulfillments, transactions, countries };
  }

  /** The customer's orders, newest first by date, `limit` from `offset`. */
  ofCustomer(ctx: RequestContext, customerId: string, limit: number, offset: number): Promise<Order[]> {
    return repoOf(ctx, this.dataSource, Order)
      .createQueryBuilder('o')
      .where('o.tenant_id = :tenant AND o.customer_id = :customer', { tenant: ctx.tenantId, customer: customerId })
      .orderBy('o.placed_at', 'DESC')
      .addOrderBy('o.id', 'DESC')
      .limit(limit)
      .offset(offset)
      .getMany();
  }

  /** How many lines each of these orders has (`n` as text). */
  lineCounts(ctx: RequestContext, orderIds: string[]): Promise<Array<{ order_id: string; n: string }>> {
    return this.m(ctx).query(`SELECT order_id, count(*) AS n FROM order_lines WHERE tenant_id = $1 AND order_id = ANY($2::uuid[]) GROUP BY order_id`, [
      ctx.tenantId,
      orderIds,
    ]);
  }
}

/** Up to `batch` unpaid orders of any shop whose payment window has passed, the longest overdue first. */
export function ordersDueForExpiry(m: EntityManager, batch: number): Promise<Array<{ id: string; tenant_id: string }>> {
  return m.query(
    `SELECT id, tenant_id FROM orders WHERE financial_status = 'pending' AND cancelled_at IS NULL AND payment_expires_at IS NOT NULL AND payment_expires_at < now()
     ORDER BY payment_expires_at LIMIT ${batch}`,
  );
}
