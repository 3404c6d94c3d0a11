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
import {
  CreateTaxCategoryDto,
  CreateTaxRateDto,
  TaxCategoryDto,
  TaxRateDto,
  TaxSettingsDto,
  UpdateTaxCategoryDto,
  UpdateTaxRateDto,
  UpdateTaxSettingsDto,
} from './dto/tax-rates.dto.js';
import { TaxRatesService } from './tax-rates.service.js';

const READ = { tier: 'admin', scope: 'Shop/settings/read' } as const;
const WRITE = { tier: 'admin', scope: 'Shop/settings/write' } as const;

@ApiTags('admin: taxes')
@Controller('admin/tax_categories')
export class AdminTaxCategoriesController {
  constructor(
    private readonly taxes: TaxRatesService,
    private readonly pager: Pager,
  ) {}

  /** Every category, oldest first; cursored. */
  @Get()
  @Auth(READ)
  @Envelope('tax_categories', [TaxCategoryDto])
  list(@Ctx() ctx: RequestContext, @ListParams() list: ListParams, @Query() _query: PageQueryDto): Promise<Page<TaxCategoryDto>> {
    return this.taxes.listCategories(ctx, this.pager.request(list, 'admin.tax_categories'));
  }

  /** 422 on a blank or taken key, a blank name or an unknown excise_class. */
  @Post()
  @HttpCode(201)
  @Auth(WRITE)
  @Envelope('tax_category', TaxCategoryDto, 201)
  create(@Ctx() ctx: RequestContext, @Body() body: CreateTaxCategoryDto): Promise<TaxCategoryDto> {
    return this.taxes.createCategory(ctx, body);
  }

  @Get(':id')
  @Auth(READ)
  @Envelope('tax_category', TaxCategoryDto)
  get(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<TaxCategoryDto> {
    return this.taxes.getCategory(ctx, id);
  }

  @Put(':id')
  @Auth(WRITE)
  @Envelope('tax_category', TaxCategoryDto)
  update(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() body: UpdateTaxCategoryDto): Promise<TaxCategoryDto> {
    return this.taxes.updateCategory(ctx, id, body);
  }

  /** Its rates go with it; its variants keep their own tax_rate. */
  @Delete(':id')
  @HttpCode(204)
  @Auth(WRITE)
  async delete(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<void> {
    await this.taxes.deleteCategory(ctx, id);
  }
}

@ApiTags('admin: taxes')
@Controller('admin/tax_rates')
export class AdminTaxRatesController {
  constructor(
    private readonly taxes: TaxRatesService,
    private readonly pager: Pager,
  ) {}

  /** Every rate, oldest first; cursored. */
  @Get()
  @Auth(READ)
  @Envelope('tax_rates', [TaxRateDto])
  list(@Ctx() ctx: RequestContext, @ListParams() list: ListParams, @Query() _query: PageQueryDto): Promise<Page<TaxRateDto>> {
    return this.taxes.listRates(ctx, this.pager.request(list, 'admin.tax_rates'));
  }

  /** 422 on a foreign category or zone, a rate outside 0..100, a negative excise, or a period overlapping another rate of the same category and zone. */
  @Post()
  @HttpCode(201)
  @Auth(WRITE)
  @Envelope('tax_rate', TaxRateDto, 201)
  create(@Ctx() ctx: RequestContext, @Body() body: CreateTaxRateDto): Promise<TaxRateDto> {
    return this.taxes.createRate(ctx, body);
  }

  @Get(':id')
  @Auth(READ)
  @Envelope('tax_rate', TaxRateDto)
  get(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<TaxRateDto> {
    return this.taxes.getRate(ctx, id);
  }

  @Put(':id')
  @Auth(WRITE)
  @Envelope('tax_rate', TaxRateDto)
  update(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() body: UpdateTaxRateDto): Promise<TaxRateDto> {
    return this.taxes.updateRate(ctx, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth(WRITE)
  async delete(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<void> {
    await this.taxes.deleteRate(ctx, id);
  }
}

@ApiTags('admin: taxes')
@Controller('admin/tax_settings')
export class AdminTaxSettingsController {
  constructor(private readonly taxes: TaxRatesService) {}

  /** The shop's tax settings (defaults: origin, constant, included). */
  @Get()
  @Auth(READ)
  @Envelope('tax_settings', TaxSettingsDto)
  get(@Ctx() ctx: RequestContext): Promise<TaxSettingsDto> {
    return this.taxes.settings(ctx);
  }

  /** Applies only the supplied members; 422 on an unknown value. */
  @Put()
  @Auth(WRITE)
  @Envelope('tax_settings', TaxSettingsDto)
  update(@Ctx() ctx: RequestContext, @Body() body: UpdateTaxSettingsDto): Promise<TaxSettingsDto> {
    return this.taxes.updateSettings(ctx, body);
  }
}
