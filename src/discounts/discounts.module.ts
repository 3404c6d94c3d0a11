import { Module } from '@nestjs/common';
import { AdminDiscountCodesController } from './admin-discount-codes.controller.js';
import { DiscountCodesRepository } from './discount-codes.repository.js';
import { DiscountCodesService } from './discount-codes.service.js';

@Module({
  controllers: [AdminDiscountCodesController],
  providers: [DiscountCodesService, DiscountCodesRepository],
  exports: [DiscountCodesService],
})
export class DiscountsModule {}
