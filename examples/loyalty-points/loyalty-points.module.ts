import { Module } from '@nestjs/common';
import { adminResource } from 'vinoshop-commerce';
import { LoyaltyPoints1764100000000 } from './1764100000000-loyalty-points.js';
import { AdminLoyaltyController } from './admin-loyalty.controller.js';
import { LoyaltyPointEntry } from './loyalty-point-entry.entity.js';
import { LoyaltyPointsService } from './loyalty-points.service.js';

/** Example extension: loyalty points earned on `order.placed`, read on the admin tier. */
@Module({
  controllers: [AdminLoyaltyController],
  // `Shop/loyalty/read|write` become valid admin scopes and new shop owners hold them (existing staff get them with
  // `shop staff permissions --set ...`)
  providers: [LoyaltyPointsService, adminResource('loyalty')],
})
export class LoyaltyPointsModule {}

/** Everything `createShopApp` needs: `createShopApp({config, databaseUrl, ...loyaltyPointsExtension})`. */
export const loyaltyPointsExtension = {
  imports: [LoyaltyPointsModule],
  entities: [LoyaltyPointEntry],
  migrations: [LoyaltyPoints1764100000000],
};
