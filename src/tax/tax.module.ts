import { Module } from '@nestjs/common';
import { AdminTaxZonesController } from './admin-tax-zones.controller.js';
import { TaxZonesService } from './tax-zones.service.js';

/** Taxes by destination (issue 31): zones (shared with shipping), their admin API and the zone matcher. */
@Module({
  controllers: [AdminTaxZonesController],
  providers: [TaxZonesService],
  exports: [TaxZonesService],
})
export class TaxModule {}
