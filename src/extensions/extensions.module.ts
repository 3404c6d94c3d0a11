import { DynamicModule, Global, Module, Type } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { EXTENSION_MODULES, Extensions } from './extensions.service.js';
import { PriceAdjustments } from './price-adjustments.service.js';

const SERVICES = [Extensions, PriceAdjustments];

/** Global: any module may ask for the implementations of a point; `PriceAdjustments` runs the price adjusters. */
@Global()
@Module({ imports: [DiscoveryModule], providers: SERVICES, exports: SERVICES })
export class ExtensionsModule {
  /**
   * The app's: told which modules are extensions (`createShopApp({imports})`), so their implementations come after the
   * built-in ones whatever order Nest discovers the modules in (the last registered wins a single point).
   */
  static forApp(extensionModules: ReadonlyArray<Type | DynamicModule>): DynamicModule {
    const modules = new Set<unknown>(extensionModules.map((m) => ('module' in m ? m.module : m)));
    return {
      module: ExtensionsModule,
      global: true,
      imports: [DiscoveryModule],
      providers: [...SERVICES, { provide: EXTENSION_MODULES, useValue: modules }],
      exports: SERVICES,
    };
  }
}
