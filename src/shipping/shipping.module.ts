import { Module } from '@nestjs/common';
import { AdminDestinationRulesController, AdminShippingMethodsController } from './admin-shipping.controller.js';
import { ShippingAdminService } from './shipping-admin.service.js';
import { ShippingQuotes } from './shipping-quotes.service.js';
import { ShippingZones } from './shipping-zones.js';
import { ShippingStorefrontService } from './shipping-storefront.service.js';
import { StorefrontShippingMethodsController } from './storefront-shipping.controller.js';

/**
 * Shipping (issue 31, README "Shipping"): shipping methods with rate tables and zones, destination rules, carrier
 * rate providers. Scopes `Shop/settings/read|write` (a built-in admin resource, shared with the tax module).
 */
@Module({
  controllers: [AdminShippingMethodsController, AdminDestinationRulesController, StorefrontShippingMethodsController],
  providers: [ShippingAdminService, ShippingStorefrontService, ShippingQuotes, ShippingZones],
  exports: [ShippingQuotes],
})
export class ShippingModule {}
