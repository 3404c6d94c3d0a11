import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { getOrThrow, repoOf } from '../common/db/tenant-scope.js';
import { Page } from '../common/paging/page.js';
import { PageRequest, Pager } from '../common/paging/pager.service.js';
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
