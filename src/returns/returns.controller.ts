import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { UuidParam } from '../common/http/uuid-param.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { CustomerAccountService } from '../customers/index.js';
import { ClaimsService } from './claims.service.js';
import { ClaimDto, CreateClaimDto, CreateReturnDto, ReceiveReturnDto, RefundReturnDto, RejectReturnDto, ReturnDto } from './dto/return.dto.js';
import { ReturnsService } from './returns.service.js';

const READ = { tier: 'admin' as const, scope: 'Shop/returns/read' };
const WRITE = { tier: 'admin' as const, scope: 'Shop/returns/write' };

/** Returns and claims of an order, for staff (issue 33). */
@ApiTags('admin: returns and claims')
@Controller('admin/orders/:id')
export class AdminReturnsController {
  constructor(
    private readonly returns: ReturnsService,
    private readonly claims: ClaimsService,
  ) {}

  @Get('returns')
  @Auth(READ)
  @Envelope('returns', [ReturnDto])
  list(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<ReturnDto[]> {
    return this.returns.list(ctx, id);
  }

  /** Opens a return (`requested`) for shipped units not yet returned. */
  @Post('returns')
  @HttpCode(201)
  @Auth(WRITE)
  @Envelope('return', ReturnDto, 201)
  @ApiErrors({ 409: ['order_cancelled'] })
  create(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() dto: CreateReturnDto): Promise<ReturnDto> {
    return this.returns.request(ctx, id, dto, null);
  }

  @Post('returns/:rid/approve')
  @HttpCode(200)
  @Auth(WRITE)
  @Envelope('return', ReturnDto)
  @ApiErrors({ 409: ['return_not_approvable'] })
  approve(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @UuidParam('rid') rid: string): Promise<ReturnDto> {
    return this.returns.approve(ctx, id, rid);
  }

  @Post('returns/:rid/reject')
  @HttpCode(200)
  @Auth(WRITE)
  @Envelope('return', ReturnDto)
  @ApiErrors({ 409: ['return_not_rejectable'] })
  reject(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @UuidParam('rid') rid: string, @Body() dto: RejectReturnDto): Promise<ReturnDto> {
    return this.returns.reject(ctx, id, rid, dto.reason?.trim() || null);
  }

  /** Undamaged units back to stock at `location_id`, damaged ones recorded; 409 once received. */
  @Post('returns/:rid/receive')
  @HttpCode(200)
  @Auth(WRITE)
  @Envelope('return', ReturnDto)
  @ApiErrors({ 409: ['return_not_receivable'] })
  receive(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @UuidParam('rid') rid: string, @Body() dto: ReceiveReturnDto): Promise<ReturnDto> {
    return this.returns.receive(ctx, id, rid, dto);
  }

  /** Refunds what came back, less `shipping_fee`, to the original payment or as store credit. */
  @Post('returns/:rid/refund')
  @HttpCode(200)
  @Auth(WRITE)
  @Envelope('return', ReturnDto)
  @ApiErrors({
    409: ['return_not_refundable'],
    422: ['store_credit_needs_customer', 'refund_exceeds_paid', 'payment_provider_declined', 'payment_provider_unavailable'],
  })
  refund(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @UuidParam('rid') rid: string, @Body() dto: RefundReturnDto): Promise<ReturnDto> {
    return this.returns.refund(ctx, id, rid, dto);
  }

  @Get('claims')
  @Auth(READ)
  @Envelope('claims', [ClaimDto])
  listClaims(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<ClaimDto[]> {
    return this.claims.list(ctx, id);
  }

  /** Breakage or a wrong item: a refund without a return, or a zero-priced replacement order. */
  @Post('claims')
  @HttpCode(201)
  @Auth(WRITE)
  @Envelope('claim', ClaimDto, 201)
  @ApiErrors({
    409: ['order_cancelled'],
    422: ['insufficient_stock', 'store_credit_needs_customer', 'refund_exceeds_paid', 'payment_provider_declined', 'payment_provider_unavailable'],
  })
  claim(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() dto: CreateClaimDto): Promise<ClaimDto> {
    return this.claims.create(ctx, id, dto);
  }
}

/** The shopper's return request (issue 33), within the shop's `return_window_days` of the last shipment. */
@ApiTags('customer: returns')
@Controller('customer/orders/:id/returns')
@Auth({ tier: 'customer' })
export class CustomerReturnsController {
  constructor(
    private readonly returns: ReturnsService,
    private readonly accounts: CustomerAccountService,
  ) {}

  @Post()
  @HttpCode(201)
  @Envelope('return', ReturnDto, 201)
  @ApiErrors({ 409: ['order_cancelled'], 422: ['return_window_closed'] })
  async create(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() dto: CreateReturnDto): Promise<ReturnDto> {
    return this.returns.request(ctx, id, dto, await this.accounts.activeShopper(ctx));
  }
}
