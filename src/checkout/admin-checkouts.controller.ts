import { Body, Controller, Get, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { UuidParam } from '../common/http/uuid-param.js';
import { Page } from '../common/paging/page.js';
import { PageQueryDto } from '../common/paging/page-query.dto.js';
import { ListParams } from '../common/paging/list-params.js';
import { Pager } from '../common/paging/pager.service.js';
import { CheckoutService } from './checkout.service.js';
import { AdminCheckoutDto, AdminCheckoutSummaryDto, UpdateAdminCheckoutDto } from './dto/admin-checkout.dto.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';

/** SPEC "Admin: checkouts". Only note and email are admin-editable. */
@ApiTags('admin: checkouts')
@Controller('admin/checkouts')
export class AdminCheckoutsController {
  constructor(
    private readonly checkouts: CheckoutService,
    private readonly pager: Pager,
  ) {}

  /** Summary rows, newest first, cursored. */
  @Get()
  @Auth({ tier: 'admin', scope: 'Shop/checkouts/read' })
  @Envelope('checkouts', [AdminCheckoutSummaryDto])
  list(@Ctx() ctx: RequestContext, @ListParams() list: ListParams, @Query() _query: PageQueryDto): Promise<Page<AdminCheckoutSummaryDto>> {
    return this.checkouts.list(ctx, this.pager.request(list, 'admin.checkouts'));
  }

  @Get(':token')
  @Auth({ tier: 'admin', scope: 'Shop/checkouts/read' })
  @Envelope('checkout', AdminCheckoutDto)
  get(@Ctx() ctx: RequestContext, @UuidParam('token') token: string): Promise<AdminCheckoutDto> {
    return this.checkouts.adminGet(ctx, token);
  }

  /** 409 once the checkout is completed; 422 on a bad email. */
  @Put(':token')
  @Auth({ tier: 'admin', scope: 'Shop/checkouts/write' })
  @Envelope('checkout', AdminCheckoutDto)
  @ApiErrors({ 409: [] })
  update(@Ctx() ctx: RequestContext, @UuidParam('token') token: string, @Body() dto: UpdateAdminCheckoutDto): Promise<AdminCheckoutDto> {
    return this.checkouts.adminUpdate(ctx, token, dto);
  }
}
