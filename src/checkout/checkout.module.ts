import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { CartModule } from '../cart/cart.module.js';
import { CatalogueModule } from '../catalogue/catalogue.module.js';
import { CustomersModule } from '../customers/customers.module.js';
import { DiscountsModule } from '../discounts/discounts.module.js';
import { GiftCardsModule } from '../gift-cards/gift-cards.module.js';
import { TaxModule } from '../tax/tax.module.js';
import { PromotionsModule } from '../promotions/promotions.module.js';
import { AdminTaxReportController } from './admin-tax-report.controller.js';
import { ShippingModule } from '../shipping/shipping.module.js';
import { adminResource, cleanupSweepsOf } from '../extensions/index.js';
import { AdminCheckoutsController } from './admin-checkouts.controller.js';
import { AdminOrdersController } from './admin-orders.controller.js';
import { AdminOrdersService } from './admin-orders.service.js';
import { OrderFulfillmentsService } from './order-fulfillments.service.js';
import { OrdersRepository } from './repositories/orders.repository.js';
import { CheckoutStateRepository } from './repositories/checkout-state.repository.js';
import { OrderLifecycleRepository } from './repositories/order-lifecycle.repository.js';
import { OrderLifecycleService } from './order-lifecycle.service.js';
import { OrderRefundsService } from './order-refunds.service.js';
import { OrderPaymentsService } from './order-payments.service.js';
import { OrderStock } from './order-stock.js';
import { ReplacementOrders } from './replacement-orders.service.js';
import { OrderShippingMail } from './order-shipping-mail.handler.js';
import { GiftCardSalesHandler } from './gift-card-sales.handler.js';
import { PaymentExpiryJob } from './payments/payment-expiry.job.js';
import { CheckoutStateService } from './checkout-state.service.js';
import { CHECKOUT_SWEEPS, OrderLinesHistory } from './checkout.repository.js';
import { CheckoutService } from './checkout.service.js';
import { CustomerOrdersController } from './customer-orders.controller.js';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor.js';
import { OrderPlacementService } from './order-placement.service.js';
import { OrdersService } from './orders.service.js';
import { BUILT_IN_PAYMENT_PROVIDERS, PaymentProviders } from './payments/payment-provider.js';
import { TestPaymentController } from './payments/test-payment.controller.js';
import { ShippingService } from './shipping.service.js';
import { StorefrontCheckoutController, StorefrontOrdersController } from './storefront-checkout.controller.js';

/**
 * Checkout, order placement, payments and orders (issue 7); also the `Idempotency-Key` interceptor of every admin
 * POST and of the storefront POSTs marked `@Idempotent()`. Payment providers are `PaymentProvider`
 * extension providers (src/extensions/extension-points.ts); the offline and test ones are built in.
 */
@Module({
  imports: [CartModule, CatalogueModule, DiscountsModule, CustomersModule, GiftCardsModule, TaxModule, ShippingModule, PromotionsModule],
  controllers: [
    AdminTaxReportController,
    StorefrontCheckoutController,
    StorefrontOrdersController,
    AdminCheckoutsController,
    AdminOrdersController,
    TestPaymentController,
    CustomerOrdersController,
  ],
  providers: [
    cleanupSweepsOf('checkout', CHECKOUT_SWEEPS),
    CheckoutService,
    CheckoutStateService,
    CheckoutStateRepository,
    ShippingService,
    OrderPlacementService,
    OrderStock,
    ReplacementOrders,
    OrdersService,
    OrderLifecycleService,
    OrderLifecycleRepository,
    OrdersRepository,
    OrderRefundsService,
    OrderPaymentsService,
    OrderFulfillmentsService,
    AdminOrdersService,
    PaymentExpiryJob,
    OrderShippingMail,
    GiftCardSalesHandler,
    PaymentProviders,
    ...BUILT_IN_PAYMENT_PROVIDERS,
    // Shop/orders/read and Shop/orders/write (issue 17): held by new shop owners and tenant create's admin token
    adminResource('orders'),
    OrderLinesHistory,
    IdempotencyInterceptor,
    { provide: APP_INTERCEPTOR, useExisting: IdempotencyInterceptor },
  ],
  exports: [OrdersService, OrderLifecycleService, AdminOrdersService, OrderRefundsService, ReplacementOrders, PaymentProviders, CheckoutService],
})
export class CheckoutModule {}
