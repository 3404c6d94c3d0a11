import { Module } from '@nestjs/common';
import { adminResource } from '../extensions/index.js';
import { AdminPromotionsController } from './admin-promotions.controller.js';
import { PromotionsRepository } from './promotions.repository.js';
import { PromotionsService } from './promotions.service.js';

/** Promotions (issue 32): the admin API over the pure engine of ./engine (README "Promotions"). */
@Module({
  controllers: [AdminPromotionsController],
  providers: [PromotionsService, PromotionsRepository, adminResource('promotions')],
  exports: [PromotionsService],
})
export class PromotionsModule {}
