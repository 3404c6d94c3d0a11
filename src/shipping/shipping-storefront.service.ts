import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { Page } from '../common/paging/page.js';
import { PageRequest, Pager } from '../common/paging/pager.service.js';
import { mapStorefrontShippingMethod, StorefrontShippingMethodDto } from './dto/storefront-shipping.dto.js';
import * as repo from './shipping.repository.js';

/** The shop's shipping methods as the storefront reads them (issue 37: the cart's free-shipping progress). */
@Injectable()
export class ShippingStorefrontService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pager: Pager,
  ) {}

  async listMethods(ctx: RequestContext, page: PageRequest): Promise<Page<StorefrontShippingMethodDto>> {
    const after = page.after ? ([String(page.after[0]), String(page.after[1])] as [string, string]) : null;
    const rows = await repo.shippingMethodPage(managerOf(ctx, this.dataSource), ctx.tenantId, after, page.limit);
    return this.pager.page(rows, page, (r) => [r.created_at.toISOString(), r.id]).map((r) => mapStorefrontShippingMethod(r, ctx));
  }
}
