import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { UuidParam } from '../common/http/uuid-param.js';
import { CartService } from './cart.service.js';
import { AddCartItemDto, ApplyDiscountCodeDto, CartDto, SetCartCurrencyDto, UpdateCartItemDto } from './dto/cart.dto.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { COUPON_REFUSALS } from '../pricing/index.js';

/** SPEC "Storefront: cart": every action answers 200 with the whole cart after the change. */
@ApiTags('storefront: cart')
@Controller('cart')
@Auth({ tier: 'storefront', scope: 'storefront/cart' })
export class StorefrontCartController {
  constructor(private readonly cart: CartService) {}

  /** The visitor's cart, re-priced now; an empty cart when there is none (nothing is created). */
  @Get()
  @Envelope('cart', CartDto)
  get(@Ctx() ctx: RequestContext): Promise<CartDto> {
    return this.cart.get(ctx);
  }

  /** Empties the cart (lines and coupon); idempotent. */
  @Delete()
  @Envelope('cart', CartDto)
  clear(@Ctx() ctx: RequestContext): Promise<CartDto> {
    return this.cart.clear(ctx);
  }

  /** Adds `quantity` (default 1) of a variant; an increment. */
  @Post('items')
  @HttpCode(200)
  @Envelope('cart', CartDto)
  add(@Ctx() ctx: RequestContext, @Body() dto: AddCartItemDto): Promise<CartDto> {
    return this.cart.addItem(ctx, dto);
  }

  /** Sets the absolute quantity of the line of variant {id}; 0 removes it. */
  @Put('items/:id')
  @Envelope('cart', CartDto)
  set(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() dto: UpdateCartItemDto): Promise<CartDto> {
    return this.cart.setItem(ctx, id, dto);
  }

  /** Removes the line of variant {id}; idempotent. */
  @Delete('items/:id')
  @Envelope('cart', CartDto)
  remove(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<CartDto> {
    return this.cart.removeItem(ctx, id);
  }

  /** Switches the cart's currency (by id, or ISO code when no id is sent); the cart is re-priced in it. */
  @Put('currency')
  @Envelope('cart', CartDto)
  currency(@Ctx() ctx: RequestContext, @Body() dto: SetCartCurrencyDto): Promise<CartDto> {
    return this.cart.setCurrency(ctx, dto);
  }

  /** Applies a coupon; a refusal is 422 with `code` one of the CONTRACT 4 coupon refusal codes. */
  @Post('discount_code')
  @HttpCode(200)
  @Envelope('cart', CartDto)
  @ApiErrors({ 422: [...COUPON_REFUSALS] })
  applyDiscountCode(@Ctx() ctx: RequestContext, @Body() dto: ApplyDiscountCodeDto): Promise<CartDto> {
    return this.cart.applyDiscountCode(ctx, dto);
  }

  /** Clears the coupon; idempotent. */
  @Delete('discount_code')
  @Envelope('cart', CartDto)
  removeDiscountCode(@Ctx() ctx: RequestContext): Promise<CartDto> {
    return this.cart.removeDiscountCode(ctx);
  }
}
