import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { UuidParam } from '../common/http/uuid-param.js';
import { ListParams } from '../common/paging/list-params.js';
import { Page } from '../common/paging/page.js';
import { PageQueryDto } from '../common/paging/page-query.dto.js';
import { Pager } from '../common/paging/pager.service.js';
import { CreatePromotionDto, PromotionDto, UpdatePromotionDto } from './dto/promotion.dto.js';
import { PromotionsService } from './promotions.service.js';
import { PromotionsDocumentDto, PromotionsImportResultDto } from './dto/promotions-document.dto.js';
import { PromotionsTransferService } from './promotions-transfer.service.js';

@ApiTags('admin: promotions')
@Controller('admin/promotions')
export class AdminPromotionsController {
  constructor(
    private readonly promotions: PromotionsService,
    private readonly pager: Pager,
    private readonly transfer: PromotionsTransferService,
  ) {}

  /** Every customer group (with its members' emails) and promotion, each with its import key (its id when it has none), by key. */
  @Get('export')
  @Auth({ tier: 'admin', scope: 'Shop/promotions/read' })
  @Envelope('document', PromotionsDocumentDto)
  export(@Ctx() ctx: RequestContext): Promise<PromotionsDocumentDto> {
    return this.transfer.export(ctx);
  }

  /**
   * The export's `document` (or any part of it): customer groups and promotions upserted by key in one transaction,
   * a group's members made exactly the listed customers; 422 naming the first bad member; an identical import changes nothing.
   */
  @Post('import')
  @HttpCode(200)
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'retry-safe key (up to 255 characters, kept 24 h): a retry returns the first answer' })
  @Auth({ tier: 'admin', scope: 'Shop/promotions/write' })
  @Envelope('import', PromotionsImportResultDto)
  import(@Ctx() ctx: RequestContext, @Body() body: PromotionsDocumentDto): Promise<PromotionsImportResultDto> {
    return this.transfer.import(ctx, body);
  }

  /** Every promotion, newest first, disabled and expired included; cursored (`Link: <...>; rel="next"`). */
  @Get()
  @Auth({ tier: 'admin', scope: 'Shop/promotions/read' })
  @Envelope('promotions', [PromotionDto])
  list(@Ctx() ctx: RequestContext, @ListParams() list: ListParams, @Query() _query: PageQueryDto): Promise<Page<PromotionDto>> {
    return this.promotions.list(ctx, this.pager.request(list, 'admin.promotions'));
  }

  /** 422 naming the member on a bad condition or action, mixed action kinds, ends_at not after starts_at, a code in use. */
  @Post()
  @HttpCode(201)
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'retry-safe key (up to 255 characters, kept 24 h): a retry returns the first answer' })
  @Auth({ tier: 'admin', scope: 'Shop/promotions/write' })
  @Envelope('promotion', PromotionDto, 201)
  create(@Ctx() ctx: RequestContext, @Body() body: CreatePromotionDto): Promise<PromotionDto> {
    return this.promotions.create(ctx, body);
  }

  @Get(':id')
  @Auth({ tier: 'admin', scope: 'Shop/promotions/read' })
  @Envelope('promotion', PromotionDto)
  get(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<PromotionDto> {
    return this.promotions.get(ctx, id);
  }

  /** Applies only the supplied members (conditions and actions are replaced whole). */
  @Put(':id')
  @Auth({ tier: 'admin', scope: 'Shop/promotions/write' })
  @Envelope('promotion', PromotionDto)
  update(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() body: UpdatePromotionDto): Promise<PromotionDto> {
    return this.promotions.update(ctx, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth({ tier: 'admin', scope: 'Shop/promotions/write' })
  async delete(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<void> {
    await this.promotions.delete(ctx, id);
  }
}
