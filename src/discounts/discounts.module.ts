import { Module } from '@nestjs/common';
import { AdminDiscountCodesController } from './admin-discount-codes.controller.js';
import { DiscountCodesService } from './discount-codes.service.js';

@Module({
  controllers: [AdminDiscountCodesController],
  providers: [DiscountCodesService],
  exports: [DiscountCodesService],
})
export class DiscountsModule {}
