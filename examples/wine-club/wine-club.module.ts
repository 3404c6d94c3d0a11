import { DynamicModule, Module } from '@nestjs/common';
import { adminResource } from 'vinoshop-commerce';
import { WineClub1764200000000 } from './1764200000000-wine-club.js';
import { AdminWineClubController } from './admin-wine-club.controller.js';
import { WINE_CLUB_OPTIONS, WineClubAllocationJob, WineClubOptions } from './wine-club-allocation.job.js';
import { WineClubAllocation, WineClubMember, WineClubPrice } from './wine-club.entities.js';
import { WineClubPricing } from './wine-club.pricing.js';
import { WineClubMemberCondition } from './wine-club.promotions.js';
import { WineClubService } from './wine-club.service.js';

/**
 * Example extension: a subscription wine club, built only on the public surface (`src/index.ts`). Its extension
 * points are plain providers: `WineClubPricing` (a `PriceAdjuster`: members' club prices in the cart, the checkout
 * and the order), `WineClubMemberCondition` (a `PromotionCondition`: `wine_club_member` for promotions) and
 * `adminResource('wine_club')` (scopes `Shop/wine_club/read|write`).
 */
@Module({})
export class WineClubModule {
  static forRoot(options: WineClubOptions): DynamicModule {
    return {
      module: WineClubModule,
      controllers: [AdminWineClubController],
      providers: [
        { provide: WINE_CLUB_OPTIONS, useValue: options },
        WineClubService,
        WineClubAllocationJob,
        WineClubPricing,
        WineClubMemberCondition,
        adminResource('wine_club'),
      ],
      exports: [WineClubAllocationJob],
    };
  }
}

/** Everything `createShopApp` needs: `createShopApp({config, databaseUrl, ...wineClubExtension()})`. */
export function wineClubExtension(options: Partial<WineClubOptions> = {}) {
  return {
    imports: [WineClubModule.forRoot({ allocationCheckMs: options.allocationCheckMs ?? 3_600_000 })],
    entities: [WineClubPrice, WineClubMember, WineClubAllocation],
    migrations: [WineClub1764200000000],
  };
}
