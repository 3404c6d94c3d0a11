import { Injectable, Module } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context.js';
import { TenantCreatedHook } from '../extensions/index.js';
import { AdminThemesController } from './admin-themes.controller.js';
import { StorefrontThemesController } from './storefront-themes.controller.js';
import { AssetStores } from './storage/asset-store.js';
import { ConfiguredAssetStores } from './storage/asset-stores.provider.js';
import { ThemeAssetsRepository } from './theme-assets.repository.js';
import { ThemeAssetsService } from './theme-assets.service.js';
import { ThemesRepository } from './themes.repository.js';
import { ThemesService } from './themes.service.js';

/** Every new shop gets its default theme, copied from the library inside the creating transaction. */
@Injectable()
export class DefaultThemeOnTenantCreated extends TenantCreatedHook {
  constructor(private readonly themes: ThemesService) {
    super();
  }

  async onTenantCreated(ctx: RequestContext): Promise<void> {
    await this.themes.createDefault(ctx);
  }
}

@Module({
  controllers: [AdminThemesController, StorefrontThemesController],
  providers: [
    ThemesService,
    ThemesRepository,
    ThemeAssetsService,
    ThemeAssetsRepository,
    // the built-in asset stores, registered as an extension module would register its own (the last one wins)
    { provide: AssetStores, useClass: ConfiguredAssetStores },
    DefaultThemeOnTenantCreated,
  ],
  exports: [ThemesService, ThemeAssetsService],
})
export class ThemesModule {}
