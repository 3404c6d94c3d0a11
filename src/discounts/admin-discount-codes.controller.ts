import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { UuidParam } from '../common/http/uuid-param.js';
import { Page } from '../common/paging/page.js';
import { PageQueryDto } from '../common/paging/page-query.dto.js';
import { ListParams } from '../common/paging/list-params.js';
import { Pager } from '../common/paging/pager.service.js';
import { DiscountCodesService } from './discount-codes.service.js';
import { CreateDiscountCodeDto, DiscountCodeDto, UpdateDiscountCodeDto } from './dto/discount-code.dto.js';

@ApiTags('admin: discount codes')
@Controller('admin/discount_codes')
export class AdminDiscountCodesController {
  constructor(
    private readonly codes: DiscountCodesService,
    private readonly pager: Pager,
  ) {}

  /** Every code, newest first, expired and inactive included; cursored (`Link: <...>; rel="next"`). */
  @Get()
  @Auth({ tier: 'admin', scope: 'Shop/discount_codes/read' })
  @Envelope('discount_codes', [DiscountCodeDto])
  list(@Ctx() ctx: RequestContext, @ListParams() list: ListParams, @Query() _query: PageQueryDto): Promise<Page<DiscountCodeDto>> {
    return this.codes.list(ctx, this.pager.request(list, 'admin.discount_codes'));
  }

  /** 422 on a missing or duplicate code, a value not above 0, a percent above 100, a negative min_value or a `currency` other than `currency_id`'s. */
  @Post()
  @HttpCode(201)
  @Auth({ tier: 'admin', scope: 'Shop/discount_codes/write' })
  @Envelope('discount_code', DiscountCodeDto, 201)
  @ApiErrors({ 422: ['currency_mismatch'] })
  create(@Ctx() ctx: RequestContext, @Body() body: CreateDiscountCodeDto): Promise<DiscountCodeDto> {
    return this.codes.create(ctx, body);
  }

  @Get(':id')
  @Auth({ tier: 'admin', scope: 'Shop/discount_codes/read' })
  @Envelope('discount_code', DiscountCodeDto)
  get(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<DiscountCodeDto> {
    return this.codes.get(ctx, id);
  }

  /** Applies only the supplied members; code and type are ignored. */
  @Put(':id')
  @Auth({ tier: 'admin', scope: 'Shop/discount_codes/write' })
  @Envelope('discount_code', DiscountCodeDto)
  @ApiErrors({ 422: ['currency_mismatch'] })
  update(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() body: UpdateDiscountCodeDto): Promise<DiscountCodeDto> {
    return this.codes.update(ctx, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth({ tier: 'admin', scope: 'Shop/discount_codes/write' })
  async delete(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<void> {
    await this.codes.delete(ctx, id);
  }
}
