import { Global, Module } from '@nestjs/common';
import { StorefrontCurrenciesController } from './storefront-currencies.controller.js';
import { TenancyRepository } from './tenancy.repository.js';
import { TenancyService } from './tenancy.service.js';

@Global()
@Module({ controllers: [StorefrontCurrenciesController], providers: [TenancyService, TenancyRepository], exports: [TenancyService] })
export class TenancyModule {}
