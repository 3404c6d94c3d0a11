import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Extensions } from './extensions.service.js';
import { PriceAdjustments } from './price-adjustments.service.js';

/** Global: any module may ask for the implementations of a point; `PriceAdjustments` runs the price adjusters. */
@Global()
@Module({ imports: [DiscoveryModule], providers: [Extensions, PriceAdjustments], exports: [Extensions, PriceAdjustments] })
export class ExtensionsModule {}
