import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError, isCustomerOf, managerOf, Page, Pager, productIdOfVariant, repoOf } from 'vinoshop-commerce';
import type { PageRequest, RequestContext } from 'vinoshop-commerce';
import type { ClubAllocationDto, ClubMemberDto, ClubPriceDto } from './wine-club.dto.js';
import { WineClubAllocation, WineClubMember, WineClubPrice } from './wine-club.entities.js';

/** Rows of a `DELETE ... RETURNING` (TypeORM answers `[rows, count]` for DELETE and UPDATE on PostgreSQL). */
const returned = (result: unknown): unknown[] => (Array.isArray(result) && Array.isArray(result[0]) ? (result[0] as unknown[]) : (result as unknown[]));
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const mapPrice = (p: WineClubPrice): ClubPriceDto => ({
  variant_id: p.variantId,
  product_id: p.productId,
  price: Number(p.price),
  created_at: p.createdAt.toISOString(),
  updated_at: iso(p.updatedAt),
});
const mapMember = (m: WineClubMember): ClubMemberDto => ({
  customer_id: m.customerId,
  bottles_per_month: m.bottlesPerMonth,
  created_at: m.createdAt.toISOString(),
  updated_at: iso(m.updatedAt),
});
const mapAllocation = (a: WineClubAllocation): ClubAllocationDto => ({
  id: a.id,
  customer_id: a.customerId,
  month: a.month,
  bottles: a.bottles,
  created_at: a.createdAt.toISOString(),
});

/** The club's admin side: club prices per variant and members (customers). */
@Injectable()
export class WineClubService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pager: Pager,
  ) {}

  // ------------------------------------------------------------------ prices

  listPrices(ctx: RequestContext, page: PageRequest): Promise<Page<ClubPriceDto>> {
    const qb = repoOf(ctx, this.dataSource, WineClubPrice).createQueryBuilder('p').where('p.tenant_id = :tenant', { tenant: ctx.tenantId });
    return this.pager.paginateByCreated(qb, page, 'ASC').then((p) => p.map(mapPrice));
  }

  /** Sets (or replaces) a variant's club price; 404 for an unknown or foreign variant. */
  async setPrice(ctx: RequestContext, variantId: string, price: number): Promise<ClubPriceDto> {
    const m = managerOf(ctx, this.dataSource);
    const productId = await productIdOfVariant(m, ctx.tenantId, variantId);
    if (!productId) throw AppError.notFound('variant');
    await m.query(
      `INSERT INTO wine_club_prices (tenant_id, variant_id, product_id, price) VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id, variant_id) DO UPDATE SET price = EXCLUDED.price, product_id = EXCLUDED.product_id, updated_at = now()`,
      [ctx.tenantId, variantId, productId, price.toFixed(4)],
    );
    const saved = await repoOf(ctx, this.dataSource, WineClubPrice).findOneByOrFail({ tenantId: ctx.tenantId, variantId });
    return mapPrice(saved);
  }

  async deletePrice(ctx: RequestContext, variantId: string): Promise<void> {
    const rows = returned(
      await managerOf(ctx, this.dataSource).query(`DELETE FROM wine_club_prices WHERE tenant_id = $1 AND variant_id = $2 RETURNING id`, [
        ctx.tenantId,
        variantId,
      ]),
    );
    if (!rows.length) throw AppError.notFound('club price');
  }

  // ------------------------------------------------------------------ members

  listMembers(ctx: RequestContext, page: PageRequest): Promise<Page<ClubMemberDto>> {
    const qb = repoOf(ctx, this.dataSource, WineClubMember).createQueryBuilder('m').where('m.tenant_id = :tenant', { tenant: ctx.tenantId });
    return this.pager.paginateByCreated(qb, page, 'ASC').then((p) => p.map(mapMember));
  }

  /** Makes a customer a member (or changes their bottles); 404 for an unknown or foreign customer. */
  async setMember(ctx: RequestContext, customerId: string, bottlesPerMonth: number): Promise<ClubMemberDto> {
    const m = managerOf(ctx, this.dataSource);
    if (!(await isCustomerOf(m, ctx.tenantId, customerId))) throw AppError.notFound('customer');
    await m.query(
      `INSERT INTO wine_club_members (tenant_id, customer_id, bottles_per_month) VALUES ($1, $2, $3)
       ON CONFLICT (tenant_id, customer_id) DO UPDATE SET bottles_per_month = EXCLUDED.bottles_per_month, updated_at = now()`,
      [ctx.tenantId, customerId, bottlesPerMonth],
    );
    return mapMember(await repoOf(ctx, this.dataSource, WineClubMember).findOneByOrFail({ tenantId: ctx.tenantId, customerId }));
  }

  async deleteMember(ctx: RequestContext, customerId: string): Promise<void> {
    const rows = returned(
      await managerOf(ctx, this.dataSource).query(`DELETE FROM wine_club_members WHERE tenant_id = $1 AND customer_id = $2 RETURNING id`, [
        ctx.tenantId,
        customerId,
      ]),
    );
    if (!rows.length) throw AppError.notFound('club member');
  }

  // ------------------------------------------------------------------ allocations

  listAllocations(ctx: RequestContext, page: PageRequest, month: string | undefined): Promise<Page<ClubAllocationDto>> {
    const qb = repoOf(ctx, this.dataSource, WineClubAllocation).createQueryBuilder('a').where('a.tenant_id = :tenant', { tenant: ctx.tenantId });
    if (month) qb.andWhere('a.month = :month', { month });
    return this.pager.paginateByCreated(qb, page, 'ASC').then((p) => p.map(mapAllocation));
  }
}
