import { Module, OnModuleInit } from '@nestjs/common';
import { TenancyService } from '../tenancy/index.js';
import { AdminThemesController } from './admin-themes.controller.js';
import { StorefrontThemesController } from './storefront-themes.controller.js';
import { AssetStores } from './storage/asset-store.js';
import { ConfiguredAssetStores } from './storage/asset-stores.provider.js';
import { ThemeAssetsService } from './theme-assets.service.js';
import { ThemesService } from './themes.service.js';

@Module({
  controllers: [AdminThemesController, StorefrontThemesController],
  providers: [ThemesService, ThemeAssetsService, { provide: AssetStores, useClass: ConfiguredAssetStores }],
  exports: [ThemesService, ThemeAssetsService, AssetStores],
})
export class ThemesModule implements OnModuleInit {
  constructor(
    private readonly tenancy: TenancyService,
    private readonly themes: ThemesService,
  ) {}

  /** Every new shop gets its default theme, copied from the library inside the creating transaction. */
  onModuleInit(): void {
    this.tenancy.onTenantCreated(async (ctx) => {
      await this.themes.createDefault(ctx);
    });
  }
}
