import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import type { ProductListDto } from '../../catalogue/index.js';

/** One saved product; `product` is the storefront product list projection (SPEC "Storefront product (list projection)"). */
export class WishlistItemDto {
  product_id: string;
  /** When the product was saved. */
  added_at: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'storefront product, list projection (as in GET /products)' })
  product: ProductListDto;
}

/** SPEC "Wishlist". */
export class WishlistDto {
  /** Every saved product, including those no longer published (which are not among `items`). */
  item_count: number;
  /** Newest saved first; only products still published. */
  @ApiProperty({ type: () => [WishlistItemDto] })
  items: WishlistItemDto[];
}

export class AddWishlistItemDto {
  /** A published product of this shop (a product id, not a variant id). */
  @IsUUID('all', { message: 'product_id must be a UUID' })
  product_id: string;
}
