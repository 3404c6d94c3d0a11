import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query, Req } from '@nestjs/common';
import { DESTINATION_RULE_CODES } from '../shipping/index.js';
import { ApiHeader, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Auth, OwnCurrency } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { publicBaseUrl } from '../common/http/url.js';
import { UuidParam } from '../common/http/uuid-param.js';
import { AppConfig } from '../config/app-config.js';
import { CheckoutService } from './checkout.service.js';
import { ApplyGiftCardDto, CompleteCheckoutDto, CompleteResultDto, StorefrontCheckoutDto, UpdateCheckoutDto } from './dto/checkout.dto.js';
import { OrderReceiptDto } from './dto/order.dto.js';
import { Idempotent } from './idempotency/idempotency.interceptor.js';
import { OrderPlacementService } from './order-placement.service.js';
import { OrdersService } from './orders.service.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { COUPON_REFUSALS } from '../pricing/index.js';

const IDEMPOTENCY_DOC = {
  name: 'Idempotency-Key',
  required: false,
  description: 'retry-safe key (up to 255 characters, kept 24 h): a retry returns the first answer',
};

/** SPEC "Storefront: checkouts". Clients branch on the endpoint: complete answers a different shape under `checkout`. */
@ApiTags('storefront: checkouts')
@Controller('checkouts')
@Auth({ tier: 'storefront', scope: 'storefront/checkout' })
export class StorefrontCheckoutController {
  constructor(
    private readonly checkouts: CheckoutService,
    private readonly placement: OrderPlacementService,
    private readonly config: AppConfig,
  ) {}

  /** A checkout from the visitor's cart; 422 when the cart is empty. */
  @Post()
  @HttpCode(200)
  @Idempotent()
  @ApiHeader(IDEMPOTENCY_DOC)
  @Envelope('checkout', StorefrontCheckoutDto)
  @ApiErrors({ 401: ['guest_checkout_disabled'] })
  create(@Ctx() ctx: RequestContext): Promise<StorefrontCheckoutDto> {
    return this.checkouts.create(ctx);
  }

  /** The checkout priced now; a completed one shows its order, as charged. */
  @Get(':token')
  @OwnCurrency()
  @Envelope('checkout', StorefrontCheckoutDto)
  get(@Ctx() ctx: RequestContext, @UuidParam('token') token: string): Promise<StorefrontCheckoutDto> {
    return this.checkouts.get(ctx, token);
  }

  @Put(':token')
  @OwnCurrency()
  @Envelope('checkout', StorefrontCheckoutDto)
  @ApiErrors({ 401: ['guest_checkout_disabled'], 409: [], 422: ['shipping_method_not_offered'] })
  update(@Ctx() ctx: RequestContext, @UuidParam('token') token: string, @Body() dto: UpdateCheckoutDto): Promise<StorefrontCheckoutDto> {
    return this.checkouts.update(ctx, token, dto);
  }

  /** Applies a gift card (several may be applied); it pays after discounts, before the payment provider. */
  @Post(':token/gift_cards')
  @OwnCurrency()
  @HttpCode(200)
  @Envelope('checkout', StorefrontCheckoutDto)
  @ApiErrors({
    409: [],
    422: ['gift_card_not_found', 'gift_card_disabled', 'gift_card_expired', 'gift_card_empty', 'gift_card_currency_mismatch'],
  })
  applyGiftCard(@Ctx() ctx: RequestContext, @UuidParam('token') token: string, @Body() dto: ApplyGiftCardDto): Promise<StorefrontCheckoutDto> {
    return this.checkouts.applyBalance(ctx, token, dto.code);
  }

  /** Removes an applied gift card or store credit (its id in `gift_cards`); 404 when not applied. */
  @Delete(':token/gift_cards/:id')
  @OwnCurrency()
  @Envelope('checkout', StorefrontCheckoutDto)
  @ApiErrors({ 409: [] })
  removeGiftCard(@Ctx() ctx: RequestContext, @UuidParam('token') token: string, @UuidParam('id') id: string): Promise<StorefrontCheckoutDto> {
    return this.checkouts.removeBalance(ctx, token, id);
  }

  /** Applies the signed-in shopper's store credit in the checkout's currency (401 for guests). */
  @Post(':token/store_credit')
  @OwnCurrency()
  @HttpCode(200)
  @Envelope('checkout', StorefrontCheckoutDto)
  @ApiErrors({ 409: [], 422: ['store_credit_empty'] })
  applyStoreCredit(@Ctx() ctx: RequestContext, @UuidParam('token') token: string): Promise<StorefrontCheckoutDto> {
    return this.checkouts.applyBalance(ctx, token, null);
  }

  /** Places the order in one transaction; 409 once completed; 422 with a `code` for consent, stock and coupon. */
  @Post(':token/complete')
  @OwnCurrency()
  @HttpCode(200)
  @Idempotent()
  @ApiHeader(IDEMPOTENCY_DOC)
  @Envelope('checkout', CompleteResultDto)
  @ApiErrors({
    401: ['guest_checkout_disabled'],
    409: [],
    422: [
      'payment_type_unavailable',
      'return_url_required',
      'checkout_empty',
      'terms_acceptance_required',
      'age_verification_required',
      'shipping_method_required',
      'shipping_method_not_offered',
      'insufficient_stock',
      'payment_required',
      'gift_card_disabled',
      'gift_card_expired',
      'gift_card_currency_mismatch',
      'promotion_usage_limit_reached',
      'promotion_unavailable',
      ...COUPON_REFUSALS,
      ...DESTINATION_RULE_CODES,
    ],
  })
  complete(@Ctx() ctx: RequestContext, @UuidParam('token') token: string, @Body() dto: CompleteCheckoutDto, @Req() req: Request): Promise<CompleteResultDto> {
    return this.placement.complete(ctx, token, dto, publicBaseUrl(req, this.config.PUBLIC_URL));
  }
}

/** CONTRACT 4: the guest order read by id and hash. */
@ApiTags('storefront: orders')
@Controller('orders')
@Auth({ tier: 'storefront', scope: 'storefront/checkout' })
export class StorefrontOrdersController {
  constructor(private readonly orders: OrdersService) {}

  /** The receipt; a wrong or missing hash is 404. */
  @Get(':id')
  @ApiQuery({ name: 'hash', required: true })
  @Envelope('order', OrderReceiptDto)
  get(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Query('hash') hash: unknown): Promise<OrderReceiptDto> {
    return this.orders.guestRead(ctx, id, hash);
  }
}
