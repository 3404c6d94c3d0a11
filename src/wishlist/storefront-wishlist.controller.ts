import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { offsetPage } from '../common/paging/offset-page.js';
import { UuidParam } from '../common/http/uuid-param.js';
import { AddWishlistItemDto, WishlistDto } from './dto/wishlist.dto.js';
import { WishlistService } from './wishlist.service.js';

/** SPEC "Storefront: wishlist": every action answers 200 with the wishlist after the change. */
@ApiTags('storefront: wishlist')
@Controller('wishlist')
@Auth({ tier: 'storefront', scope: 'storefront/wishlist' })
export class StorefrontWishlistController {
  constructor(private readonly wishlist: WishlistService) {}

  /** Saved products, newest first; `item_count` is the full total. */
  @Get()
  @ApiQuery({ name: 'limit', required: false, description: 'clamped to 1..250; 50 when omitted' })
  @ApiQuery({ name: 'offset', required: false, description: 'saved products skipped, newest first; 0 when omitted' })
  @Envelope('wishlist', WishlistDto)
  get(@Ctx() ctx: RequestContext, @Query('limit') limit?: string, @Query('offset') offset?: string): Promise<WishlistDto> {
    return this.wishlist.get(ctx, offsetPage(limit, offset));
  }

  /** Unsaves everything; idempotent. */
  @Delete()
  @Envelope('wishlist', WishlistDto)
  clear(@Ctx() ctx: RequestContext): Promise<WishlistDto> {
    return this.wishlist.clear(ctx);
  }

  /** Saves a published product; idempotent. */
  @Post('items')
  @HttpCode(200)
  @Envelope('wishlist', WishlistDto)
  add(@Ctx() ctx: RequestContext, @Body() dto: AddWishlistItemDto): Promise<WishlistDto> {
    return this.wishlist.add(ctx, dto);
  }

  /** Unsaves the product {id}; idempotent. */
  @Delete('items/:id')
  @Envelope('wishlist', WishlistDto)
  remove(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<WishlistDto> {
    return this.wishlist.remove(ctx, id);
  }
}
