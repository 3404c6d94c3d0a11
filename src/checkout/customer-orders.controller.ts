import { Controller, Get, Query } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { UuidParam } from '../common/http/uuid-param.js';
import { offsetPage } from '../common/paging/offset-page.js';
import { CustomerAccountService } from '../customers/index.js';
import { OrderReceiptDto, OrderSummaryDto } from './dto/order.dto.js';
import { OrdersService } from './orders.service.js';

/** SPEC "Customer tier": the signed-in shopper's own orders. A disabled account gets 403 `account_disabled`. */
@ApiTags('customer: orders')
@Controller('customers/me/orders')
@Auth({ tier: 'customer' })
export class CustomerOrdersController {
  constructor(
    private readonly orders: OrdersService,
    private readonly accounts: CustomerAccountService,
  ) {}

  /** Newest first by date; limit 1..250 (default 50, clamped) and offset; no total and no Link header. */
  @Get()
  @ApiQuery({ name: 'limit', required: false, description: '1..250, default 50 (clamped)' })
  @ApiQuery({ name: 'offset', required: false, description: 'orders skipped, newest first; 0 when omitted' })
  @ApiQuery({ name: 'include', required: false, description: '`currency`: each summary also names its currency (SPEC leaves it out)' })
  @Envelope('orders', [OrderSummaryDto])
  async list(
    @Ctx() ctx: RequestContext,
    @Query('limit') limit?: string,
    @Query('offset') offset?: string,
    @Query('include') include?: string,
  ): Promise<OrderSummaryDto[]> {
    const page = offsetPage(limit, offset);
    const customerId = await this.accounts.activeShopper(ctx);
    const withCurrency = typeof include === 'string' && include.split(',').includes('currency');
    return this.orders.listForCustomer(ctx, customerId, page.limit, page.offset, withCurrency);
  }

  /** The full receipt; an order of another shopper (or a guest order) is 404. */
  @Get(':id')
  @Envelope('order', OrderReceiptDto)
  async get(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<OrderReceiptDto> {
    const customerId = await this.accounts.activeShopper(ctx);
    return this.orders.getForCustomer(ctx, customerId, id);
  }
}
