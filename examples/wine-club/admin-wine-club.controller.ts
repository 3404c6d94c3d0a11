import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, Ctx, Envelope, ListParams, Page, PageQueryDto, Pager, RequestContext, UuidParam } from 'vinoshop-commerce';
import { monthOf, WineClubAllocationJob } from './wine-club-allocation.job.js';
import {
  AllocationListQueryDto,
  AllocationRunDto,
  ClubAllocationDto,
  ClubMemberDto,
  ClubPriceDto,
  RunAllocationDto,
  SetClubPriceDto,
  SetMemberDto,
} from './wine-club.dto.js';
import { WineClubService } from './wine-club.service.js';

/** The wine club's admin endpoints (scopes `Shop/wine_club/read|write`), on the same guard, envelopes and pager as the built-in ones. */
@ApiTags('admin: wine club (example extension)')
@Controller('admin/wine_club')
export class AdminWineClubController {
  constructor(
    private readonly club: WineClubService,
    private readonly allocation: WineClubAllocationJob,
    private readonly pager: Pager,
  ) {}

  /** Club prices, oldest first; cursored. */
  @Get('prices')
  @Auth({ tier: 'admin', scope: 'Shop/wine_club/read' })
  @Envelope('club_prices', [ClubPriceDto])
  prices(@Ctx() ctx: RequestContext, @ListParams() list: ListParams, @Query() _query: PageQueryDto): Promise<Page<ClubPriceDto>> {
    return this.club.listPrices(ctx, this.pager.request(list, 'admin.wine_club.prices'));
  }

  /** Sets a variant's club price (gross, default currency); 404 unknown variant, 422 invalid price. */
  @Put('prices/:variant_id')
  @Auth({ tier: 'admin', scope: 'Shop/wine_club/write' })
  @Envelope('club_price', ClubPriceDto)
  setPrice(@Ctx() ctx: RequestContext, @UuidParam('variant_id') variantId: string, @Body() body: SetClubPriceDto): Promise<ClubPriceDto> {
    return this.club.setPrice(ctx, variantId, body.price);
  }

  /** 204; 404 when the variant has no club price. */
  @Delete('prices/:variant_id')
  @HttpCode(204)
  @Auth({ tier: 'admin', scope: 'Shop/wine_club/write' })
  async deletePrice(@Ctx() ctx: RequestContext, @UuidParam('variant_id') variantId: string): Promise<void> {
    await this.club.deletePrice(ctx, variantId);
  }

  /** Members, oldest first; cursored. */
  @Get('members')
  @Auth({ tier: 'admin', scope: 'Shop/wine_club/read' })
  @Envelope('members', [ClubMemberDto])
  members(@Ctx() ctx: RequestContext, @ListParams() list: ListParams, @Query() _query: PageQueryDto): Promise<Page<ClubMemberDto>> {
    return this.club.listMembers(ctx, this.pager.request(list, 'admin.wine_club.members'));
  }

  /** Makes a customer a member, or changes their monthly bottles; 404 unknown customer, 422 invalid bottles. */
  @Put('members/:customer_id')
  @Auth({ tier: 'admin', scope: 'Shop/wine_club/write' })
  @Envelope('member', ClubMemberDto)
  setMember(@Ctx() ctx: RequestContext, @UuidParam('customer_id') customerId: string, @Body() body: SetMemberDto): Promise<ClubMemberDto> {
    return this.club.setMember(ctx, customerId, body.bottles_per_month);
  }

  /** 204; 404 when the customer is no member. */
  @Delete('members/:customer_id')
  @HttpCode(204)
  @Auth({ tier: 'admin', scope: 'Shop/wine_club/write' })
  async deleteMember(@Ctx() ctx: RequestContext, @UuidParam('customer_id') customerId: string): Promise<void> {
    await this.club.deleteMember(ctx, customerId);
  }

  /** Allocations, oldest first, optionally of one month; cursored. */
  @Get('allocations')
  @Auth({ tier: 'admin', scope: 'Shop/wine_club/read' })
  @Envelope('allocations', [ClubAllocationDto])
  allocations(@Ctx() ctx: RequestContext, @ListParams() list: ListParams, @Query() query: AllocationListQueryDto): Promise<Page<ClubAllocationDto>> {
    return this.club.listAllocations(ctx, this.pager.request(list, 'admin.wine_club.allocations'), query.month);
  }

  /** Runs this shop's allocation of a month now (default: the current one); members already allocated are skipped. */
  @Post('allocations')
  @HttpCode(200)
  @Auth({ tier: 'admin', scope: 'Shop/wine_club/write' })
  @Envelope('allocation_run', AllocationRunDto)
  async allocate(@Ctx() ctx: RequestContext, @Body() body: RunAllocationDto): Promise<AllocationRunDto> {
    const month = body.month ?? monthOf(new Date());
    return { month, created: await this.allocation.runForShop(ctx, month) };
  }
}
