import { Injectable, Logger } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { CartService } from '../../cart/index.js';
import type { RequestContext } from '../../common/context/request-context.js';
import { WishlistService } from '../../wishlist/index.js';

interface Mergeable {
  mergeVisitorIntoCustomer(ctx: RequestContext, visitorId: string, customerId: string): Promise<void>;
}

/**
 * Sign-in carries the anonymous visitor's cart and wishlist over to the shopper (CONTRACT 3). The services are
 * looked up in the whole app (`strict: false`), so an app built without the cart or wishlist module still signs in.
 * A failing merge never fails the sign-in: the visitor's rows stay where they were and the next sign-in retries.
 */
@Injectable()
export class VisitorCarryOverService {
  private readonly logger = new Logger(VisitorCarryOverService.name);

  constructor(private readonly moduleRef: ModuleRef) {}

  async carryOver(ctx: RequestContext, visitorId: string | null, customerId: string): Promise<void> {
    if (!visitorId) return;
    for (const [name, service] of [['cart', this.find(CartService)], ['wishlist', this.find(WishlistService)]] as const) {
      if (!service) continue;
      try {
        await service.mergeVisitorIntoCustomer(ctx, visitorId, customerId);
      } catch (err) {
        this.logger.warn({ err, tenant_id: ctx.tenantId }, `could not carry the visitor's ${name} over at sign-in`);
      }
    }
  }

  private find(type: abstract new (...args: never[]) => Mergeable): Mergeable | null {
    try {
      return this.moduleRef.get(type, { strict: false });
    } catch {
      return null;
    }
  }
}
