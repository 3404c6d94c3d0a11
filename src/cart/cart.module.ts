import { Module } from '@nestjs/common';
import { DiscountsModule } from '../discounts/discounts.module.js';
import { PromotionsModule } from '../promotions/promotions.module.js';
import { CartCarryOver, CartCurrency } from './cart.extensions.js';
import { CartRepository } from './cart.repository.js';
import { CartService } from './cart.service.js';
import { StorefrontCartController } from './storefront-cart.controller.js';

/** The storefront cart (issue 6). `CartService.priceCart` is the pricing the checkout builds on. */
@Module({
  imports: [DiscountsModule, PromotionsModule],
  controllers: [StorefrontCartController],
  providers: [CartService, CartRepository, CartCurrency, CartCarryOver],
  exports: [CartService],
})
export class CartModule {}
