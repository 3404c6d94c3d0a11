import { Module } from '@nestjs/common';
import { AdminTaxCategoriesController, AdminTaxRatesController, AdminTaxSettingsController } from './admin-tax.controller.js';
import { AdminTaxZonesController } from './admin-tax-zones.controller.js';
import { TaxRatesService } from './tax-rates.service.js';
import { TaxService } from './tax.service.js';
import { TaxZonesService } from './tax-zones.service.js';

/** Taxes by destination (issue 31): zones (shared with shipping), their admin API and the zone matcher. */
@Module({
  controllers: [AdminTaxZonesController, AdminTaxCategoriesController, AdminTaxRatesController, AdminTaxSettingsController],
  providers: [TaxZonesService, TaxRatesService, TaxService],
  exports: [TaxZonesService, TaxRatesService, TaxService],
})
export class TaxModule {}
