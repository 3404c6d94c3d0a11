import { Injectable } from '@nestjs/common';
import { ownerOf } from '../cart/index.js';
import { StorefrontCatalogueService } from '../catalogue/index.js';
import type { RequestContext } from '../common/context/request-context.js';
import { AppError } from '../common/http/app-error.js';
import type { OffsetPage } from '../common/paging/offset-page.js';
import { AddWishlistItemDto, WishlistDto } from './dto/wishlist.dto.js';
import { WishlistRepository } from './wishlist.repository.js';

/**
 * The storefront wishlist (SPEC "Wishlist", "Storefront: wishlist"): saved products (not variants) of the request's
 * owner (shopper, else visitor cookie), newest first, each in the catalogue's list projection.
 */
@Injectable()
export class WishlistService {
  constructor(
    private readonly repo: WishlistRepository,
    private readonly catalogue: StorefrontCatalogueService,
  ) {}

  async get(ctx: RequestContext, page: OffsetPage = { limit: 50, offset: 0 }): Promise<WishlistDto> {
    const owner = ownerOf(ctx);
    const n = await this.repo.count(ctx, owner);
    const rows = await this.repo.listed(ctx, owner, page);
    const products = new Map(
      (
        await this.catalogue.listProjection(
          ctx,
          rows.map((r) => r.product_id),
        )
      ).map((p) => [p.id, p]),
    );
    return {
      item_count: Number(n),
      items: rows
        .filter((r) => products.has(r.product_id))
        .map((r) => ({ product_id: r.product_id, added_at: new Date(r.added_at).toISOString(), product: products.get(r.product_id)! })),
    };
  }

  /** Saves a published product of this shop; saving it again changes nothing (idempotent). */
  async add(ctx: RequestContext, dto: AddWishlistItemDto): Promise<WishlistDto> {
    if (!(await this.repo.isListedProduct(ctx, dto.product_id))) throw AppError.unprocessable('product_id does not name a published product of this shop');
    await this.repo.add(ctx, ownerOf(ctx), dto.product_id);
    return this.get(ctx);
  }

  /** Unsaves a product; idempotent. */
  async remove(ctx: RequestContext, productId: string): Promise<WishlistDto> {
    await this.repo.remove(ctx, ownerOf(ctx), productId);
    return this.get(ctx);
  }

  /** Unsaves everything; idempotent. */
  async clear(ctx: RequestContext): Promise<WishlistDto> {
    await this.repo.remove(ctx, ownerOf(ctx), null);
    return this.get(ctx);
  }

  /** Carries a visitor's saved products over to a shopper at sign-in (kept once, the shopper's date wins); idempotent. */
  async mergeVisitorIntoCustomer(ctx: RequestContext, visitorId: string, customerId: string): Promise<void> {
    await this.repo.mergeVisitorIntoCustomer(ctx, visitorId, customerId);
  }
}
