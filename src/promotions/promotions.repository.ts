import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { returning } from '../common/db/returning.js';
import { getOrThrow, managerOf, repoOf } from '../common/db/tenant-scope.js';
import { Page } from '../common/paging/page.js';
import { PageRequest, Pager } from '../common/paging/pager.service.js';
import { CustomerGroup, CustomerGroupMember } from './entities/customer-group.entity.js';
import { Promotion } from './entities/promotion.entity.js';
import { productsMatchingSelector, productsPricedByPromotion, promotionCatalogueVariants } from '../catalogue/index.js';
import { customerEmails, customerIdsByEmail } from '../customers/index.js';
import { currencyRecordsOf } from '../tenancy/index.js';
import type { CatalogueVariant, StoredPromotion } from './catalogue/catalogue-pricing.js';
import type { LineSelector } from './engine/types.js';

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

  /** Every promotion of the shop, oldest first (export). */
  all(ctx: RequestContext): Promise<Promotion[]> {
    return repoOf(ctx, this.dataSource, Promotion).find({ where: { tenantId: ctx.tenantId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The shop's promotion with this import key, or null. */
  findByKey(ctx: RequestContext, key: string): Promise<Promotion | null> {
    return repoOf(ctx, this.dataSource, Promotion).findOneBy({ tenantId: ctx.tenantId, key });
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

  /** Every group of the shop, oldest first (export). */
  all(ctx: RequestContext): Promise<CustomerGroup[]> {
    return repoOf(ctx, this.dataSource, CustomerGroup).find({ where: { tenantId: ctx.tenantId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The shop's group with this import key, or null. */
  findByKey(ctx: RequestContext, key: string): Promise<CustomerGroup | null> {
    return repoOf(ctx, this.dataSource, CustomerGroup).findOneBy({ tenantId: ctx.tenantId, key });
  }

  /** Members' emails by group id, sorted without case (export); the addresses are the customers module's. */
  async memberEmails(ctx: RequestContext): Promise<Map<string, string[]>> {
    const m = managerOf(ctx, this.dataSource);
    const rows = await returning<{ group_id: string; customer_id: string }>(
      m,
      `SELECT group_id, customer_id FROM customer_group_members WHERE tenant_id = $1 ORDER BY group_id`,
      [ctx.tenantId],
    );
    const emails = await customerEmails(m, ctx.tenantId, [...new Set(rows.map((r) => r.customer_id))]);
    const out = new Map<string, string[]>();
    for (const r of rows) {
      const email = emails.get(r.customer_id);
      if (email !== undefined) out.set(r.group_id, [...(out.get(r.group_id) ?? []), email]);
    }
    for (const list of out.values()) list.sort((a, b) => compareText(a.toLowerCase(), b.toLowerCase()));
    return out;
  }

  /** Customer ids by lower-cased email, for the emails that are customers of the shop (the customers module's). */
  customerIdsByEmail(ctx: RequestContext, emails: string[]): Promise<Map<string, string>> {
    return customerIdsByEmail(managerOf(ctx, this.dataSource), ctx.tenantId, emails);
  }

  /** Makes the group's members exactly these customers; true when anything changed. */
  async setMembers(ctx: RequestContext, groupId: string, customerIds: string[]): Promise<boolean> {
    const m = managerOf(ctx, this.dataSource);
    const gone = await returning<{ id: string }>(
      m,
      `DELETE FROM customer_group_members WHERE tenant_id = $1 AND group_id = $2 AND NOT (customer_id = ANY($3::uuid[])) RETURNING id`,
      [ctx.tenantId, groupId, customerIds],
    );
    const added = await returning<{ id: string }>(
      m,
      `INSERT INTO customer_group_members (tenant_id, group_id, customer_id) SELECT $1, $2, unnest($3::uuid[])
       ON CONFLICT (tenant_id, group_id, customer_id) DO NOTHING RETURNING id`,
      [ctx.tenantId, groupId, customerIds],
    );
    return gone.length + added.length > 0;
  }

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

  /**
   * The promotions' counts as committed (FOR SHARE: a completion using one right now is waited for), so a completion
   * refusing a promotion its buyer was shown can say why. Missing ids are left out.
   */
  usageOf(ctx: RequestContext, ids: string[]): Promise<PromotionUseRow[]> {
    return returning<PromotionUseRow>(
      managerOf(ctx, this.dataSource),
      `SELECT id, name, times_used, usage_limit, usage_limit_per_customer FROM promotions
       WHERE tenant_id = $1 AND id = ANY($2::uuid[]) ORDER BY id FOR SHARE`,
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

/** Code-point order (the same on every machine, unlike a locale's collation). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A promotion row as the catalogue pricing reads it. */
interface StoredPromotionRow {
  id: string;
  name: string;
  priority: number;
  combines_with: StoredPromotion['combinesWith'];
  conditions: StoredPromotion['conditions'];
  actions: StoredPromotion['actions'];
  enabled: boolean;
  code: string | null;
  usage_limit: number | null;
  usage_limit_per_customer: number | null;
  starts_at: Date | null;
  ends_at: Date | null;
}

function storedOf(r: StoredPromotionRow): StoredPromotion {
  return {
    id: r.id,
    name: r.name,
    priority: r.priority,
    combinesWith: r.combines_with,
    conditions: r.conditions,
    actions: r.actions,
    enabled: r.enabled,
    code: r.code,
    usageLimit: r.usage_limit,
    usageLimitPerCustomer: r.usage_limit_per_customer,
    startsAt: r.starts_at,
    endsAt: r.ends_at,
  };
}

/** What catalogue pricing reads: the candidate promotions, the visible variants with their matchable attributes. */
@Injectable()
export class CataloguePromotionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The shop's enabled promotions without a code or usage limit that have not ended by `at` (the candidates). */
  async candidates(ctx: RequestContext, at: Date): Promise<StoredPromotion[]> {
    const rows: StoredPromotionRow[] = await managerOf(ctx, this.dataSource).query(
      `SELECT id, name, priority, combines_with, conditions, actions, enabled, code, usage_limit, usage_limit_per_customer, starts_at, ends_at
         FROM promotions WHERE tenant_id = $1 AND enabled AND code IS NULL AND usage_limit IS NULL AND usage_limit_per_customer IS NULL
          AND (ends_at IS NULL OR ends_at > $2)`,
      [ctx.tenantId, at],
    );
    return rows.map(storedOf);
  }

  /** Per shop: the next start or end of an enabled promotion without a code after `at` (the timers of the sale prices). */
  async nextBoundaries(at: Date): Promise<Array<{ tenantId: string; at: Date }>> {
    const rows: Array<{ tenant_id: string; at: Date }> = await this.dataSource.query(
      `SELECT tenant_id, min(t) AS at FROM (
         SELECT tenant_id, starts_at AS t FROM promotions WHERE enabled AND code IS NULL AND starts_at > $1
         UNION ALL SELECT tenant_id, ends_at FROM promotions WHERE enabled AND code IS NULL AND ends_at > $1) b GROUP BY tenant_id`,
      [at],
    );
    return rows.map((r) => ({ tenantId: r.tenant_id, at: new Date(r.at) }));
  }

  /** The products (with a visible variant) a line selector can match (the catalogue's `productsMatchingSelector`). */
  productsMatching(ctx: RequestContext, selector: LineSelector): Promise<string[]> {
    return productsMatchingSelector(managerOf(ctx, this.dataSource), ctx.tenantId, selector);
  }

  /** One promotion as catalogue pricing reads it; null when it is gone. */
  async stored(ctx: RequestContext, id: string): Promise<StoredPromotion | null> {
    const [row]: StoredPromotionRow[] = await managerOf(ctx, this.dataSource).query(
      `SELECT id, name, priority, combines_with, conditions, actions, enabled, code, usage_limit, usage_limit_per_customer, starts_at, ends_at
         FROM promotions WHERE tenant_id = $1 AND id = $2`,
      [ctx.tenantId, id],
    );
    return row ? storedOf(row) : null;
  }

  /** The products whose stored sale price this promotion took part in (the catalogue's `productsPricedByPromotion`). */
  productsPricedBy(ctx: RequestContext, promotionId: string): Promise<string[]> {
    return productsPricedByPromotion(managerOf(ctx, this.dataSource), ctx.tenantId, promotionId);
  }

  /** Per shop, the promotions without a code whose start or end lies in `(since, until]` (the boundaries crossed). */
  async crossed(since: Date, until: Date): Promise<Map<string, StoredPromotion[]>> {
    const rows: StoredPromotionRow[] & Array<{ tenant_id: string }> = await this.dataSource.query(
      `SELECT tenant_id, id, name, priority, combines_with, conditions, actions, enabled, code, usage_limit, usage_limit_per_customer, starts_at, ends_at
         FROM promotions WHERE code IS NULL AND ((starts_at > $1 AND starts_at <= $2) OR (ends_at > $1 AND ends_at <= $2))`,
      [since, until],
    );
    const out = new Map<string, StoredPromotion[]>();
    for (const r of rows) out.set(r.tenant_id, [...(out.get(r.tenant_id) ?? []), storedOf(r)]);
    return out;
  }

  /** The precision of the shop's default currency (the tenancy module's currencies, the default first); 2 without one. */
  async defaultPrecision(ctx: RequestContext): Promise<number> {
    const [row] = await currencyRecordsOf(managerOf(ctx, this.dataSource), ctx.tenantId);
    return row ? Number(row.precision) : 2;
  }

  /** The visible variants of these products (every product when null) with what a line selector matches (the catalogue's). */
  variants(ctx: RequestContext, productIds: string[] | null): Promise<CatalogueVariant[]> {
    return promotionCatalogueVariants(managerOf(ctx, this.dataSource), ctx.tenantId, productIds);
  }
}
