import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { UuidParam } from '../common/http/uuid-param.js';
import { ListParams } from '../common/paging/list-params.js';
import { Page } from '../common/paging/page.js';
import { PageQueryDto } from '../common/paging/page-query.dto.js';
import { Pager } from '../common/paging/pager.service.js';
import { CreateTaxZoneDto, TaxZoneDto, UpdateTaxZoneDto } from './dto/tax-zone.dto.js';
import { TaxZonesService } from './tax-zones.service.js';

@ApiTags('admin: taxes')
@Controller('admin/tax_zones')
export class AdminTaxZonesController {
  constructor(
    private readonly zones: TaxZonesService,
    private readonly pager: Pager,
  ) {}

  /** Every zone, oldest first; cursored (`Link: <...>; rel="next"`). */
  @Get()
  @Auth({ tier: 'admin', scope: 'Shop/settings/read' })
  @Envelope('tax_zones', [TaxZoneDto])
  list(@Ctx() ctx: RequestContext, @ListParams() list: ListParams, @Query() _query: PageQueryDto): Promise<Page<TaxZoneDto>> {
    return this.zones.list(ctx, this.pager.request(list, 'admin.tax_zones'));
  }

  /** 422 on a blank name, an unknown country, a malformed region or postcode pattern, a taken key, no area at all, or over 1,000 zones. */
  @Post()
  @HttpCode(201)
  @Auth({ tier: 'admin', scope: 'Shop/settings/write' })
  @Envelope('tax_zone', TaxZoneDto, 201)
  create(@Ctx() ctx: RequestContext, @Body() body: CreateTaxZoneDto): Promise<TaxZoneDto> {
    return this.zones.create(ctx, body);
  }

  @Get(':id')
  @Auth({ tier: 'admin', scope: 'Shop/settings/read' })
  @Envelope('tax_zone', TaxZoneDto)
  get(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<TaxZoneDto> {
    return this.zones.get(ctx, id);
  }

  /** Applies only the supplied members; a sent list replaces the stored one. */
  @Put(':id')
  @Auth({ tier: 'admin', scope: 'Shop/settings/write' })
  @Envelope('tax_zone', TaxZoneDto)
  update(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() body: UpdateTaxZoneDto): Promise<TaxZoneDto> {
    return this.zones.update(ctx, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth({ tier: 'admin', scope: 'Shop/settings/write' })
  async delete(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<void> {
    await this.zones.delete(ctx, id);
  }
}
