import { Body, Controller, Get, HttpCode, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { UuidParam } from '../common/http/uuid-param.js';
import { Page } from '../common/paging/page.js';
import { PageQueryDto } from '../common/paging/page-query.dto.js';
import { Pager } from '../common/paging/pager.service.js';
import { CheckoutService } from './checkout.service.js';
import { AdminCheckoutDto, AdminCheckoutSummaryDto, UpdateAdminCheckoutDto } from './dto/admin-checkout.dto.js';
import { FulfillOrderDto, OrderReceiptDto } from './dto/order.dto.js';
import { OrdersService } from './orders.service.js';

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
  list(@Ctx() ctx: RequestContext, @Req() req: Request, @Query() _query: PageQueryDto): Promise<Page<AdminCheckoutSummaryDto>> {
    return this.checkouts.list(ctx, this.pager.request(req, 'admin.checkouts'));
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
  update(@Ctx() ctx: RequestContext, @UuidParam('token') token: string, @Body() dto: UpdateAdminCheckoutDto): Promise<AdminCheckoutDto> {
    return this.checkouts.adminUpdate(ctx, token, dto);
  }
}

/** Placed orders for staff: the receipt, and marking an order shipped (its tracking_url). */
@ApiTags('admin: orders')
@Controller('admin/orders')
export class AdminOrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Get(':id')
  @Auth({ tier: 'admin', scope: 'Shop/checkouts/read' })
  @Envelope('order', OrderReceiptDto)
  get(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<OrderReceiptDto> {
    return this.orders.adminGet(ctx, id);
  }

  /** Marks the order shipped with its tracking URL (status `Shipped`, emits order.shipped); repeatable to correct it. */
  @Post(':id/fulfillment')
  @HttpCode(200)
  @Auth({ tier: 'admin', scope: 'Shop/checkouts/write' })
  @Envelope('order', OrderReceiptDto)
  fulfill(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() dto: FulfillOrderDto): Promise<OrderReceiptDto> {
    return this.orders.fulfill(ctx, id, dto.tracking_url);
  }
}
