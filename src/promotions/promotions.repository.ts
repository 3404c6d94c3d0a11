import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { returning } from '../common/db/returning.js';
import { getOrThrow, managerOf, repoOf } from '../common/db/tenant-scope.js';
import { Page } from '../common/paging/page.js';
import { PageRequest, Pager } from '../common/paging/pager.service.js';
import { CustomerGroup, CustomerGroupMember } from './entities/customer-group.entity.js';
import { Promotion } from './entities/promotion.entity.js';

/** The promotions module owns `promotions`: every statement on it is here. */
@Injectable()
export class PromotionsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pager: Pager,
  ) {}

  /** Newest first, cursored. */
  list(ctx: RequestContext, page: PageRequest): Promise<Page<Promotion>> {
    const qb = repoOf(ctx, this.dataSource, Promotion).createQueryBuilder('p').where('p.tenant_id = :tenant', { tenant: ctx.tenantId });
    return this.pager.paginateByCreated(qb, page, 'DESC');
  }

  find(ctx: RequestContext, id: string): Promise<Promotion> {
    return getOrThrow(ctx, this.dataSource, Promotion, id, 'promotion');
  }

  /** The shop's promotion with this code (any case), or null. */
  findByCode(ctx: RequestContext, code: string): Promise<Promotion | null> {
    return repoOf(ctx, this.dataSource, Promotion)
      .createQueryBuilder('p')
      .where('p.tenant_id = :tenant AND upper(p.code) = upper(:code)', { tenant: ctx.tenantId, code })
      .getOne();
  }

  create(ctx: RequestContext, values: Omit<Promotion, 'id' | 'tenantId' | 'createdAt' | 'updatedAt' | 'timesUsed'>): Promotion {
    return repoOf(ctx, this.dataSource, Promotion).create({ ...values, tenantId: ctx.tenantId, timesUsed: 0 });
  }

  save(ctx: RequestContext, p: Promotion): Promise<Promotion> {
    return repoOf(ctx, this.dataSource, Promotion).save(p);
  }

  /** True when a row was deleted. */
  async delete(ctx: RequestContext, id: string): Promise<boolean> {
    const res = await repoOf(ctx, this.dataSource, Promotion)
      .createQueryBuilder()
      .delete()
      .where('id = :id AND tenant_id = :tenant', { id, tenant: ctx.tenantId })
      .execute();
    return !!res.affected;
  }
}

/** The promotions module owns `customer_groups` and `customer_group_members` too. */
@Injectable()
export class CustomerGroupsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pager: Pager,
  ) {}

  /** Oldest first, cursored. */
  list(ctx: RequestContext, page: PageRequest): Promise<Page<CustomerGroup>> {
    const qb = repoOf(ctx, this.dataSource, CustomerGroup).createQueryBuilder('g').where('g.tenant_id = :tenant', { tenant: ctx.tenantId });
    return this.pager.paginateByCreated(qb, page, 'ASC');
  }

  find(ctx: RequestContext, id: string): Promise<CustomerGroup> {
    return getOrThrow(ctx, this.dataSource, CustomerGroup, id, 'customer group');
  }

  /** Another group of the shop with this name (any case), or null. */
  findByName(ctx: RequestContext, name: string): Promise<CustomerGroup | null> {
    return repoOf(ctx, this.dataSource, CustomerGroup)
      .createQueryBuilder('g')
      .where('g.tenant_id = :tenant AND lower(g.name) = lower(:name)', { tenant: ctx.tenantId, name })
      .getOne();
  }

  save(ctx: RequestContext, g: Partial<CustomerGroup>): Promise<CustomerGroup> {
    return repoOf(ctx, this.dataSource, CustomerGroup).save({ ...g, tenantId: ctx.tenantId });
  }

  async delete(ctx: RequestContext, id: string): Promise<boolean> {
    const res = await repoOf(ctx, this.dataSource, CustomerGroup)
      .createQueryBuilder()
      .delete()
      .where('id = :id AND tenant_id = :tenant', { id, tenant: ctx.tenantId })
      .execute();
    return !!res.affected;
  }

  /** A group's members, oldest first, cursored. */
  members(ctx: RequestContext, groupId: string, page: PageRequest): Promise<Page<CustomerGroupMember>> {
    const qb = repoOf(ctx, this.dataSource, CustomerGroupMember)
      .createQueryBuilder('m')
      .where('m.tenant_id = :tenant AND m.group_id = :groupId', { tenant: ctx.tenantId, groupId });
    return this.pager.paginateByCreated(qb, page, 'ASC');
  }

  /** Adds the customer to the group once (idempotent); the membership row. */
  async addMember(ctx: RequestContext, groupId: string, customerId: string): Promise<CustomerGroupMember> {
    await managerOf(ctx, this.dataSource).query(
      `INSERT INTO customer_group_members (tenant_id, group_id, customer_id) VALUES ($1, $2, $3) ON CONFLICT (tenant_id, group_id, customer_id) DO NOTHING`,
      [ctx.tenantId, groupId, customerId],
    );
    return repoOf(ctx, this.dataSource, CustomerGroupMember).findOneByOrFail({ tenantId: ctx.tenantId, groupId, customerId });
  }

  async removeMember(ctx: RequestContext, groupId: string, customerId: string): Promise<boolean> {
    const rows = await returning<{ id: string }>(
      managerOf(ctx, this.dataSource),
      `DELETE FROM customer_group_members WHERE tenant_id = $1 AND group_id = $2 AND customer_id = $3 RETURNING id`,
      [ctx.tenantId, groupId, customerId],
    );
    return rows.length > 0;
  }

  /** The groups a customer is in (for the `customer_group` condition). */
  async groupIdsOf(ctx: RequestContext, customerId: string): Promise<string[]> {
    const rows = await returning<{ group_id: string }>(
      managerOf(ctx, this.dataSource),
      `SELECT group_id FROM customer_group_members WHERE tenant_id = $1 AND customer_id = $2 ORDER BY group_id`,
      [ctx.tenantId, customerId],
    );
    return rows.map((r) => r.group_id);
  }
}

/** A promotion's counters after one more use was taken (under its row lock until the transaction ends). */
export interface PromotionUseRow {
  id: string;
  name: string;
  times_used: number;
  usage_limit: number | null;
  usage_limit_per_customer: number | null;
}

/** The promotions module owns `promotion_usages` and the `times_used` counter: what completions take. */
@Injectable()
export class PromotionUsagesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The promotions a cart may apply now: enabled, not ended, not used up (future ones too: the cache knows when they start). */
  async current(ctx: RequestContext): Promise<Promotion[]> {
    return repoOf(ctx, this.dataSource, Promotion)
      .createQueryBuilder('p')
      .where('p.tenant_id = :tenant AND p.enabled AND (p.ends_at IS NULL OR p.ends_at > now())', { tenant: ctx.tenantId })
      .andWhere('(p.usage_limit IS NULL OR p.times_used < p.usage_limit)')
      .getMany();
  }

  /**
   * One more use of each promotion (ids sorted: concurrent completions lock the rows in one order); the row stays
   * locked to the end of the caller's transaction, so the counts read after it are final. Missing ids are left out.
   */
  takeUses(ctx: RequestContext, ids: string[]): Promise<PromotionUseRow[]> {
    return returning<PromotionUseRow>(
      managerOf(ctx, this.dataSource),
      `UPDATE promotions p SET times_used = p.times_used + 1
       FROM (SELECT id FROM promotions WHERE tenant_id = $1 AND id = ANY($2::uuid[]) ORDER BY id FOR UPDATE) l
       WHERE p.id = l.id AND p.tenant_id = $1
       RETURNING p.id, p.name, p.times_used, p.usage_limit, p.usage_limit_per_customer`,
      [ctx.tenantId, [...ids].sort()],
    );
  }

  /** How often `buyer` used each of these promotions (completed orders). */
  async usesBy(ctx: RequestContext, ids: string[], buyer: string): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await returning<{ promotion_id: string; n: number }>(
      managerOf(ctx, this.dataSource),
      `SELECT promotion_id, count(*)::int AS n FROM promotion_usages WHERE tenant_id = $1 AND promotion_id = ANY($2::uuid[]) AND buyer = $3 GROUP BY promotion_id`,
      [ctx.tenantId, ids, buyer],
    );
    return new Map(rows.map((r) => [r.promotion_id, r.n]));
  }

  async recordUses(ctx: RequestContext, orderId: string, ids: string[], buyer: string | null): Promise<void> {
    if (ids.length === 0) return;
    await managerOf(ctx, this.dataSource).query(
      `INSERT INTO promotion_usages (tenant_id, promotion_id, order_id, buyer) SELECT $1, x, $2, $3 FROM unnest($4::uuid[]) AS x`,
      [ctx.tenantId, orderId, buyer, ids],
    );
  }
}
