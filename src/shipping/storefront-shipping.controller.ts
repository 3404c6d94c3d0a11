import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { Page } from '../common/paging/page.js';
import { PageQueryDto } from '../common/paging/page-query.dto.js';
import { ListParams } from '../common/paging/list-params.js';
import { Pager } from '../common/paging/pager.service.js';
import { StorefrontShippingMethodDto } from './dto/storefront-shipping.dto.js';
import { ShippingStorefrontService } from './shipping-storefront.service.js';

/** The shop's shipping methods before checkout (README "Shipping"): what the cart needs for free-shipping progress. */
@ApiTags('storefront: shipping')
@Controller('shipping_methods')
export class StorefrontShippingMethodsController {
  constructor(
    private readonly shipping: ShippingStorefrontService,
    private readonly pager: Pager,
  ) {}

  /** Every method with its free-shipping threshold (`free_over`), newest first; cursored (`Link: <...>; rel="next"`). */
  @Get()
  @Auth({ tier: 'storefront', scope: 'storefront/checkout' })
  @Envelope('shipping_methods', [StorefrontShippingMethodDto])
  list(@Ctx() ctx: RequestContext, @ListParams() list: ListParams, @Query() _query: PageQueryDto): Promise<Page<StorefrontShippingMethodDto>> {
    return this.shipping.listMethods(ctx, this.pager.request(list, 'storefront.shipping_methods'));
  }
}
