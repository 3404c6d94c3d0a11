import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue/catalogue.module.js';
import { StorefrontWishlistController } from './storefront-wishlist.controller.js';
import { WishlistCarryOver } from './wishlist.extensions.js';
import { WishlistRepository } from './wishlist.repository.js';
import { WishlistService } from './wishlist.service.js';

/** The storefront wishlist (issue 6). */
@Module({
  imports: [CatalogueModule],
  controllers: [StorefrontWishlistController],
  providers: [WishlistService, WishlistRepository, WishlistCarryOver],
  exports: [WishlistService],
})
export class WishlistModule {}
