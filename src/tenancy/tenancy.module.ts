import { Global, Module } from '@nestjs/common';
import { StorefrontCurrenciesController } from './storefront-currencies.controller.js';
import { TenancyService } from './tenancy.service.js';

@Global()
@Module({ controllers: [StorefrontCurrenciesController], providers: [TenancyService], exports: [TenancyService] })
export class TenancyModule {}
