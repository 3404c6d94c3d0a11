import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { returning } from '../common/db/returning.js';
import { getOrThrow, managerOf, repoOf } from '../common/db/tenant-scope.js';
import { Page } from '../common/paging/page.js';
import { PageRequest, Pager } from '../common/paging/pager.service.js';
import { CustomerGroup, CustomerGroupMember } from './entities/customer-group.entity.js';
import { Promotion } from './entities/promotion.entity.js';
import { visibleVariantSql } from '../catalogue/index.js';
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

  /** Members' emails by group id, sorted (export). */
  async memberEmails(ctx: RequestContext): Promise<Map<string, string[]>> {
    const rows = await returning<{ group_id: string; email: string }>(
      managerOf(ctx, this.dataSource),
      `SELECT m.group_id, c.email FROM customer_group_members m JOIN customers c ON c.tenant_id = m.tenant_id AND c.id = m.customer_id
        WHERE m.tenant_id = $1 ORDER BY m.group_id, lower(c.email)`,
      [ctx.tenantId],
    );
    const out = new Map<string, string[]>();
    for (const r of rows) out.set(r.group_id, [...(out.get(r.group_id) ?? []), r.email]);
    return out;
  }

  /** Customer ids by lower-cased email, for the emails that are customers of the shop. */
  async customerIdsByEmail(ctx: RequestContext, emails: string[]): Promise<Map<string, string>> {
    if (emails.length === 0) return new Map();
    const rows = await returning<{ id: string; email: string }>(
      managerOf(ctx, this.dataSource),
      `SELECT id, lower(email) AS email FROM customers WHERE tenant_id = $1 AND lower(email) = ANY($2::text[])`,
      [ctx.tenantId, emails.map((e) => e.toLowerCase())],
    );
    return new Map(rows.map((r) => [r.email, r.id]));
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface CatalogueVariantRow {
  variant_id: string;
  product_id: string;
  gross: string;
  manufacturer_id: string | null;
  category_ids: string[];
  collection_ids: string[];
  color_id: string | null;
  region_id: string | null;
  year_id: string | null;
  size_id: string | null;
  country_id: string | null;
  option_ids: string[];
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

  /**
   * The products (with a visible variant) a line selector can match: any one matcher, as the engine reads them
   * (categories with their ancestors, facet values by id or key, custom-field options by field and option key).
   */
  async productsMatching(ctx: RequestContext, selector: LineSelector): Promise<string[]> {
    const params: unknown[] = [ctx.tenantId];
    const arg = (v: unknown) => `$${params.push(v)}`;
    const uuids = (ids: readonly string[]) => ids.filter((id) => UUID.test(id));
    const clauses: string[] = [];
    for (const m of selector) {
      switch (m.type) {
        case 'product':
          clauses.push(`vs.product_id = ANY(${arg(uuids(m.ids))}::uuid[])`);
          break;
        case 'variant':
          clauses.push(`vs.variant_id = ANY(${arg(uuids(m.ids))}::uuid[])`);
          break;
        case 'manufacturer':
          clauses.push(`vs.manufacturer_id = ANY(${arg(uuids(m.ids))}::uuid[])`);
          break;
        case 'category':
          clauses.push(`vs.category_ids && ${arg(uuids(m.ids))}::uuid[]`);
          break;
        case 'collection':
          clauses.push(
            `vs.product_id IN (SELECT cp.product_id FROM collection_products cp WHERE cp.tenant_id = $1 AND cp.collection_id = ANY(${arg(uuids(m.ids))}::uuid[]))`,
          );
          break;
        case 'facet': {
          const column = { colour: 'color_id', country: 'country_id', region: 'region_id', vintage: 'year_id', size: 'size_id' }[m.facet];
          clauses.push(
            `(vs.${column} = ANY(${arg(uuids(m.values))}::uuid[]) OR vs.${column} IN (SELECT fv.id FROM facet_values fv WHERE fv.tenant_id = $1 AND fv.key = ANY(${arg(m.values)}::text[])))`,
          );
          break;
        }
        case 'custom_field':
          clauses.push(
            `vs.option_ids && ARRAY(SELECT o.id FROM custom_field_options o JOIN custom_fields f ON f.tenant_id = o.tenant_id AND f.id = o.field_id
               WHERE o.tenant_id = $1 AND f.key = ${arg(m.key)} AND o.key = ANY(${arg(m.values)}::text[]))`,
          );
          break;
      }
    }
    if (clauses.length === 0) return [];
    const rows: Array<{ product_id: string }> = await managerOf(ctx, this.dataSource).query(
      `SELECT DISTINCT vs.product_id FROM variant_search vs WHERE vs.tenant_id = $1 AND (${clauses.join(' OR ')})`,
      params,
    );
    return rows.map((r) => r.product_id);
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

  /** The precision of the shop's default currency. */
  async defaultPrecision(ctx: RequestContext): Promise<number> {
    const [row]: Array<{ precision: number }> = await managerOf(ctx, this.dataSource).query(
      `SELECT precision FROM currencies WHERE tenant_id = $1 ORDER BY is_default DESC, code LIMIT 1`,
      [ctx.tenantId],
    );
    return row ? Number(row.precision) : 2;
  }

  /** The visible variants of these products (every product when null) with what a line selector matches. */
  async variants(ctx: RequestContext, productIds: string[] | null): Promise<CatalogueVariant[]> {
    const m = managerOf(ctx, this.dataSource);
    const params: unknown[] = [ctx.tenantId];
    if (productIds) params.push(productIds);
    const rows: CatalogueVariantRow[] = await m.query(
      `SELECT v.id AS variant_id, v.product_id, v.gross::text AS gross, p.manufacturer_id,
              coalesce((SELECT array_agg(DISTINCT a) FROM categories c, unnest(c.path) a WHERE c.tenant_id = p.tenant_id AND c.id = ANY(p.category_ids)), '{}') AS category_ids,
              coalesce((SELECT array_agg(cp.collection_id) FROM collection_products cp WHERE cp.tenant_id = p.tenant_id AND cp.product_id = p.id), '{}') AS collection_ids,
              v.color_id, v.region_id, v.year_id, v.size_id, v.country_id, v.option_ids
         FROM variants v JOIN products p ON p.tenant_id = v.tenant_id AND p.id = v.product_id
        WHERE v.tenant_id = $1 AND ${visibleVariantSql('v', 'p')} ${productIds ? 'AND v.product_id IN (SELECT unnest($2::uuid[]))' : ''}`,
      params,
    );
    if (rows.length === 0) return [];
    const keys = new Map<string, string>();
    for (const r of (await m.query(`SELECT id, key FROM facet_values WHERE tenant_id = $1`, [ctx.tenantId])) as Array<{ id: string; key: string }>)
      keys.set(r.id, r.key);
    const options = new Map<string, { field: string; key: string }>();
    for (const r of (await m.query(
      `SELECT o.id, o.key, f.key AS field FROM custom_field_options o JOIN custom_fields f ON f.tenant_id = o.tenant_id AND f.id = o.field_id WHERE o.tenant_id = $1`,
      [ctx.tenantId],
    )) as Array<{ id: string; key: string; field: string }>)
      options.set(r.id, { field: r.field, key: r.key });
    const facet = (id: string | null) => (id ? [id, keys.get(id) ?? id] : []);
    return rows.map((r) => {
      const customFields: Record<string, string> = {};
      for (const id of r.option_ids) {
        const o = options.get(id);
        if (o && customFields[o.field] === undefined) customFields[o.field] = o.key;
      }
      return {
        variantId: r.variant_id,
        productId: r.product_id,
        gross: r.gross,
        collectionIds: r.collection_ids,
        categoryIds: r.category_ids,
        manufacturerId: r.manufacturer_id,
        facets: { colour: facet(r.color_id), region: facet(r.region_id), vintage: facet(r.year_id), size: facet(r.size_id), country: facet(r.country_id) },
        customFields,
      };
    });
  }
}
