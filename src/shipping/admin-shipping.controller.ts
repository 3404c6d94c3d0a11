import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { UuidParam } from '../common/http/uuid-param.js';
import { Page } from '../common/paging/page.js';
import { PageQueryDto } from '../common/paging/page-query.dto.js';
import { ListParams } from '../common/paging/list-params.js';
import { Pager } from '../common/paging/pager.service.js';
import { DestinationRuleDto, ShippingMethodDto } from './dto/shipping.dto.js';
import { ShippingAdminService } from './shipping-admin.service.js';

/** Bodies are the import's member schemas (`ImportShippingMethod`, `ImportDestinationRule`), published as components. */
const body = (schema: string, description: string) => ApiBody({ schema: { $ref: `#/components/schemas/${schema}` }, description });

/** Shipping methods with their rate tables and zones (README "Shipping"). */
@ApiTags('admin: shipping')
@Controller('admin/shipping_methods')
export class AdminShippingMethodsController {
  constructor(
    private readonly shipping: ShippingAdminService,
    private readonly pager: Pager,
  ) {}

  /** Every method, newest first; cursored (`Link: <...>; rel="next"`). */
  @Get()
  @Auth({ tier: 'admin', scope: 'Shop/settings/read' })
  @Envelope('shipping_methods', [ShippingMethodDto])
  list(@Ctx() ctx: RequestContext, @ListParams() list: ListParams, @Query() _query: PageQueryDto): Promise<Page<ShippingMethodDto>> {
    return this.shipping.listMethods(ctx, this.pager.request(list, 'admin.shipping_methods'));
  }

  /** `name` required; a key is generated when none is given. 422 naming the member (a rate table with a gap or an overlap, an unknown zone, a taken key). */
  @Post()
  @HttpCode(201)
  @Auth({ tier: 'admin', scope: 'Shop/settings/write' })
  @Envelope('shipping_method', ShippingMethodDto, 201)
  @body('AdminShippingMethodWrite', 'CONTRACT 6 shipping method members with `rate_table`, `zones`, `rate_provider`; `name` required, `key` optional')
  create(@Ctx() ctx: RequestContext, @Body() payload: unknown): Promise<ShippingMethodDto> {
    return this.shipping.createMethod(ctx, payload);
  }

  @Get(':id')
  @Auth({ tier: 'admin', scope: 'Shop/settings/read' })
  @Envelope('shipping_method', ShippingMethodDto)
  get(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<ShippingMethodDto> {
    return this.shipping.getMethod(ctx, id);
  }

  /** Applies the members given; `rate_table` and `zones` are replaced whole. */
  @Put(':id')
  @Auth({ tier: 'admin', scope: 'Shop/settings/write' })
  @Envelope('shipping_method', ShippingMethodDto)
  @body('AdminShippingMethodWrite', 'the members to change')
  update(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() payload: unknown): Promise<ShippingMethodDto> {
    return this.shipping.updateMethod(ctx, id, payload);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth({ tier: 'admin', scope: 'Shop/settings/write' })
  async delete(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<void> {
    await this.shipping.deleteMethod(ctx, id);
  }
}

/** Destination rules per zone: closed to alcohol, litres per order and per year, minimum age (README "Shipping"). */
@ApiTags('admin: shipping')
@Controller('admin/destination_rules')
export class AdminDestinationRulesController {
  constructor(
    private readonly shipping: ShippingAdminService,
    private readonly pager: Pager,
  ) {}

  /** Every rule, newest first; cursored. */
  @Get()
  @Auth({ tier: 'admin', scope: 'Shop/settings/read' })
  @Envelope('destination_rules', [DestinationRuleDto])
  list(@Ctx() ctx: RequestContext, @ListParams() list: ListParams, @Query() _query: PageQueryDto): Promise<Page<DestinationRuleDto>> {
    return this.shipping.listRules(ctx, this.pager.request(list, 'admin.destination_rules'));
  }

  /** `zone` required (one rule per zone); 422 naming the member. */
  @Post()
  @HttpCode(201)
  @Auth({ tier: 'admin', scope: 'Shop/settings/write' })
  @Envelope('destination_rule', DestinationRuleDto, 201)
  @body('AdminDestinationRuleWrite', 'the rule of one zone, `zone` required')
  create(@Ctx() ctx: RequestContext, @Body() payload: unknown): Promise<DestinationRuleDto> {
    return this.shipping.createRule(ctx, payload);
  }

  @Get(':id')
  @Auth({ tier: 'admin', scope: 'Shop/settings/read' })
  @Envelope('destination_rule', DestinationRuleDto)
  get(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<DestinationRuleDto> {
    return this.shipping.getRule(ctx, id);
  }

  /** Applies the members given (null clears a limit). */
  @Put(':id')
  @Auth({ tier: 'admin', scope: 'Shop/settings/write' })
  @Envelope('destination_rule', DestinationRuleDto)
  @body('AdminDestinationRuleWrite', 'the members to change')
  update(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() payload: unknown): Promise<DestinationRuleDto> {
    return this.shipping.updateRule(ctx, id, payload);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth({ tier: 'admin', scope: 'Shop/settings/write' })
  async delete(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<void> {
    await this.shipping.deleteRule(ctx, id);
  }
}
