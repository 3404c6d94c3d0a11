import { Body, Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { OrderPaymentsService } from './order-payments.service.js';
import { ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { UuidParam } from '../common/http/uuid-param.js';
import { Page } from '../common/paging/page.js';
import { ListParams } from '../common/paging/list-params.js';
import { Pager } from '../common/paging/pager.service.js';
import { AdminOrdersService } from './admin-orders.service.js';
import {
  AdminOrderDto,
  AdminOrderListQueryDto,
  AdminOrderSummaryDto,
  CancelOrderDto,
  CreateFulfillmentDto,
  CreateRefundDto,
  RecordPaymentDto,
  UpdateOrderDto,
} from './dto/admin-order.dto.js';
import { FulfillOrderDto } from './dto/order.dto.js';
import { OrderFulfillmentsService } from './order-fulfillments.service.js';
import { OrderLifecycleService } from './order-lifecycle.service.js';
import { OrderRefundsService } from './order-refunds.service.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';

const READ = { tier: 'admin' as const, scope: 'Shop/orders/read' };
const WRITE = { tier: 'admin' as const, scope: 'Shop/orders/write' };

/** Placed orders for staff (issue 17): list, read, edit, cancel, refund, fulfil. */
@ApiTags('admin: orders')
@Controller('admin/orders')
export class AdminOrdersController {
  constructor(
    private readonly orders: AdminOrdersService,
    private readonly lifecycle: OrderLifecycleService,
    private readonly refunds: OrderRefundsService,
    private readonly fulfillments: OrderFulfillmentsService,
    private readonly payments: OrderPaymentsService,
    private readonly pager: Pager,
  ) {}

  /** Summary rows, newest first, cursored; filters AND-combined. */
  @Get()
  @Auth(READ)
  @Envelope('orders', [AdminOrderSummaryDto])
  list(@Ctx() ctx: RequestContext, @ListParams() list: ListParams, @Query() query: AdminOrderListQueryDto): Promise<Page<AdminOrderSummaryDto>> {
    return this.orders.list(ctx, this.pager.request(list, 'admin.orders'), query);
  }

  /** The receipt plus statuses, refunds, fulfillments, transactions, note and tags. `Shop/checkouts/read` is still accepted (deprecated). */
  @Get(':id')
  @Auth({ ...READ, deprecatedScopes: ['Shop/checkouts/read'] })
  @Envelope('order', AdminOrderDto)
  get(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<AdminOrderDto> {
    return this.orders.get(ctx, id);
  }

  /** note, tags, email; only supplied members change. */
  @Put(':id')
  @Auth(WRITE)
  @Envelope('order', AdminOrderDto)
  update(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() dto: UpdateOrderDto): Promise<AdminOrderDto> {
    return this.orders.update(ctx, id, dto);
  }

  /** One transaction: cancelled, restocked, code released, refunded or voided; 409 when already cancelled or fully fulfilled. */
  @Post(':id/cancel')
  @HttpCode(200)
  @Auth(WRITE)
  @Envelope('order', AdminOrderDto)
  @ApiErrors({ 409: [], 422: ['payment_provider_declined', 'payment_provider_unavailable'] })
  async cancel(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() dto: CancelOrderDto): Promise<AdminOrderDto> {
    const order = await this.lifecycle.cancel(ctx, id, {
      reason: dto.reason?.trim() || null,
      restock: dto.restock ?? true,
      refund: dto.refund ?? true,
      note: dto.note ?? null,
    });
    return this.orders.present(ctx, order);
  }

  /** Partial or full refund through the payment provider; 422 `refund_exceeds_paid` beyond paid minus refunded; `currency_mismatch` when `currency` is not the order's. */
  @Post(':id/refunds')
  @HttpCode(201)
  @Auth(WRITE)
  @Envelope('order', AdminOrderDto, 201)
  @ApiErrors({ 409: [], 422: ['refund_exceeds_paid', 'currency_mismatch', 'payment_provider_declined', 'payment_provider_unavailable'] })
  async refund(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() dto: CreateRefundDto): Promise<AdminOrderDto> {
    return this.orders.present(ctx, await this.refunds.create(ctx, id, dto));
  }

  /**
   * Money received (`manual`) or an authorization captured through the provider (`capture`), in parts, at most what
   * is unpaid: `financial_status` `partially_paid` or `paid`, event `order.paid`.
   */
  @Post(':id/payments')
  @HttpCode(201)
  @Auth(WRITE)
  @Envelope('order', AdminOrderDto, 201)
  @ApiErrors({
    409: ['order_cancelled', 'order_already_paid', 'no_pending_authorization'],
    422: ['payment_exceeds_unpaid', 'currency_mismatch', 'payment_provider_declined', 'payment_provider_unavailable'],
  })
  async pay(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() dto: RecordPaymentDto): Promise<AdminOrderDto> {
    return this.orders.present(ctx, await this.payments.record(ctx, id, dto));
  }

  /** Drops a pending authorization through the provider (`financial_status` `voided` when nothing was paid). */
  @Post(':id/payments/:pid/void')
  @HttpCode(200)
  @Auth(WRITE)
  @Envelope('order', AdminOrderDto)
  @ApiErrors({ 409: ['payment_not_voidable', 'order_cancelled'], 422: ['payment_provider_declined'] })
  async voidPayment(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @UuidParam('pid') pid: string): Promise<AdminOrderDto> {
    return this.orders.present(ctx, await this.payments.void(ctx, id, pid));
  }

  /** A (partial) shipment; every line's remaining quantity when `lines` is omitted. */
  @Post(':id/fulfillments')
  @HttpCode(201)
  @Auth(WRITE)
  @Envelope('order', AdminOrderDto, 201)
  @ApiErrors({ 409: [] })
  async fulfil(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() dto: CreateFulfillmentDto): Promise<AdminOrderDto> {
    return this.orders.present(ctx, await this.fulfillments.create(ctx, id, dto));
  }

  /** Older form: ships everything left with its tracking URL (status `Shipped`, order.shipped); repeatable to correct it. */
  @Post(':id/fulfillment')
  @HttpCode(200)
  @Auth({ ...WRITE, deprecatedScopes: ['Shop/checkouts/write'] })
  @Envelope('order', AdminOrderDto)
  @ApiErrors({ 409: [] })
  async ship(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() dto: FulfillOrderDto): Promise<AdminOrderDto> {
    return this.orders.present(ctx, await this.fulfillments.shipAll(ctx, id, dto.tracking_url));
  }
}
