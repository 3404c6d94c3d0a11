import { Module } from '@nestjs/common';
import { AdminCustomersController } from './admin-customers.controller.js';
import { CustomerAuthRepository } from './auth/customer-auth.repository.js';
import { CustomerAuthService, CustomerTokenResolver } from './auth/customer-auth.service.js';
import { VisitorCarryOverService } from './auth/visitor-carry-over.service.js';
import { CustomerAccountController } from './customer-account.controller.js';
import { CustomerAccountService } from './customer-account.service.js';
import { CustomerAuthController } from './customer-auth.controller.js';
import { cleanupSweepsOf } from '../extensions/index.js';
import { CUSTOMER_SWEEPS, CustomersRepository } from './customers.repository.js';
import { CustomersService } from './customers.service.js';
import { MailModule } from './mail/mail.module.js';
import { StorefrontCustomersController } from './storefront-customers.controller.js';

/**
 * Customers: admin CRUD (admin tier), registration and mailed codes (storefront tier), sign-in with `vnscat_` tokens,
 * and the shopper's own profile and saved addresses (customer tier). One table, one email per customer.
 */
@Module({
  imports: [MailModule],
  controllers: [AdminCustomersController, StorefrontCustomersController, CustomerAuthController, CustomerAccountController],
  providers: [
    cleanupSweepsOf('customers', CUSTOMER_SWEEPS),
    CustomersService,
    CustomerAuthService,
    CustomerTokenResolver,
    CustomerAccountService,
    VisitorCarryOverService,
    CustomersRepository,
    CustomerAuthRepository,
  ],
  exports: [CustomersService, CustomerAccountService],
})
export class CustomersModule {}
