import { Module } from '@nestjs/common';
import { registerAdminResource } from '../../src/common/auth/scopes.js';
import { LoyaltyPoints1764100000000 } from './1764100000000-loyalty-points.js';
import { AdminLoyaltyController } from './admin-loyalty.controller.js';
import { LoyaltyPointEntry } from './loyalty-point-entry.entity.js';
import { LoyaltyPointsService } from './loyalty-points.service.js';

// When this file is imported, before any shop is created: `Shop/loyalty/read|write` become valid admin scopes and
// new shop owners hold them. Existing staff get them with `shop staff permissions --set ...`.
registerAdminResource('loyalty');

/** Example extension: loyalty points earned on `order.placed`, read on the admin tier. */
@Module({
  controllers: [AdminLoyaltyController],
  providers: [LoyaltyPointsService],
})
export class LoyaltyPointsModule {}

/** Everything `createShopApp` needs: `createShopApp({config, databaseUrl, ...loyaltyPointsExtension})`. */
export const loyaltyPointsExtension = {
  imports: [LoyaltyPointsModule],
  entities: [LoyaltyPointEntry],
  migrations: [LoyaltyPoints1764100000000],
};
