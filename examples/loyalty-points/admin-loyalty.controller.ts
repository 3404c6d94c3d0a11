import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, Ctx, Envelope, ListParams, Page, PageQueryDto, Pager, RequestContext, UuidParam } from 'vinoshop-commerce';
import { LoyaltyPointEntryDto, LoyaltyPointsDto } from './loyalty-points.dto.js';
import { LoyaltyPointsService } from './loyalty-points.service.js';

/** Same guard, scopes, envelopes and pager as the built-in admin endpoints. */
@ApiTags('admin: loyalty (example extension)')
@Controller('admin/loyalty/customers/:customer_id')
export class AdminLoyaltyController {
  constructor(
    private readonly loyalty: LoyaltyPointsService,
    private readonly pager: Pager,
  ) {}

  /** `{"loyalty_points": {"customer_id", "points"}}`; 404 for an unknown or foreign customer. */
  @Get('points')
  @Auth({ tier: 'admin', scope: 'Shop/loyalty/read' })
  @Envelope('loyalty_points', LoyaltyPointsDto)
  points(@Ctx() ctx: RequestContext, @UuidParam('customer_id') customerId: string): Promise<LoyaltyPointsDto> {
    return this.loyalty.balance(ctx, customerId);
  }

  /** The entries behind the balance, newest first; cursored (`Link: <...>; rel="next"`). */
  @Get('points/entries')
  @Auth({ tier: 'admin', scope: 'Shop/loyalty/read' })
  @Envelope('entries', [LoyaltyPointEntryDto])
  entries(
    @Ctx() ctx: RequestContext,
    @ListParams() list: ListParams,
    @UuidParam('customer_id') customerId: string,
    @Query() _query: PageQueryDto,
  ): Promise<Page<LoyaltyPointEntryDto>> {
    return this.loyalty.entries(ctx, customerId, this.pager.request(list, 'admin.loyalty_entries'));
  }
}
