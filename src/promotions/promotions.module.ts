import { Module } from '@nestjs/common';
import { adminResource } from '../extensions/index.js';
import { AdminCustomerGroupsController } from './admin-customer-groups.controller.js';
import { AdminPromotionsController } from './admin-promotions.controller.js';
import { CustomerGroupsService } from './customer-groups.service.js';
import { PromotionEvaluation } from './promotion-evaluation.service.js';
import { PromotionUsageCommits } from './promotion-usage-commits.js';
import { CataloguePromotionsRepository, CustomerGroupsRepository, PromotionsRepository, PromotionUsagesRepository } from './promotions.repository.js';
import { CatalogueModule } from '../catalogue/catalogue.module.js';
import { CataloguePromotionPrices } from './catalogue/catalogue-promotions.service.js';
import { PromotionsTransferService } from './promotions-transfer.service.js';
import { PromotionsService } from './promotions.service.js';

/** Promotions (issue 32): the admin API over the pure engine of ./engine (README "Promotions"). */
@Module({
  imports: [CatalogueModule],
  controllers: [AdminPromotionsController, AdminCustomerGroupsController],
  providers: [
    PromotionsService,
    PromotionsRepository,
    PromotionUsagesRepository,
    PromotionEvaluation,
    PromotionUsageCommits,
    CustomerGroupsService,
    CustomerGroupsRepository,
    CataloguePromotionsRepository,
    CataloguePromotionPrices,
    PromotionsTransferService,
    adminResource('promotions'),
  ],
  exports: [PromotionsService, CustomerGroupsService, PromotionEvaluation],
})
export class PromotionsModule {}
