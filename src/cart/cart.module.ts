import { Module } from '@nestjs/common';
import { DiscountsModule } from '../discounts/discounts.module.js';
import { PromotionsModule } from '../promotions/promotions.module.js';
import { CartCarryOver, CartCurrency } from './cart.extensions.js';
import { cleanupSweepsOf } from '../extensions/index.js';
import { CART_SWEEPS, CartRepository } from './cart.repository.js';
import { CartService } from './cart.service.js';
import { StorefrontCartController } from './storefront-cart.controller.js';

/** The storefront cart (issue 6). `CartService.priceCart` is the pricing the checkout builds on. */
@Module({
  imports: [DiscountsModule, PromotionsModule],
  controllers: [StorefrontCartController],
  providers: [CartService, CartRepository, CartCurrency, CartCarryOver, cleanupSweepsOf('cart', CART_SWEEPS)],
  exports: [CartService],
})
export class CartModule {}
