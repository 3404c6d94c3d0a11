import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue/catalogue.module.js';
import { CheckoutModule } from '../checkout/checkout.module.js';
import { CustomersModule } from '../customers/customers.module.js';
import { adminResource } from '../extensions/index.js';
import { ClaimsService } from './claims.service.js';
import { AdminReturnsController, CustomerReturnsController } from './returns.controller.js';
import { ReturnsAfterSales } from './returns-after-sales.js';
import { ReturnsRepository } from './returns.repository.js';
import { ReturnsService } from './returns.service.js';

/** Returns (RMA) and claims after the sale (issue 33); scopes `Shop/returns/read|write`. */
@Module({
  imports: [CheckoutModule, CatalogueModule, CustomersModule],
  controllers: [AdminReturnsController, CustomerReturnsController],
  providers: [ReturnsRepository, ReturnsService, ClaimsService, ReturnsAfterSales, adminResource('returns')],
})
export class ReturnsModule {}
