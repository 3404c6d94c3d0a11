import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context.js';
import { VisitorCarryOverParticipant } from '../extensions/index.js';
import { WishlistService } from './wishlist.service.js';

/** The visitor's saved products move to the shopper at sign-in. */
@Injectable()
export class WishlistCarryOver extends VisitorCarryOverParticipant {
  readonly name = 'wishlist';

  constructor(private readonly wishlist: WishlistService) {
    super();
  }

  mergeVisitorIntoCustomer(ctx: RequestContext, visitorId: string, customerId: string): Promise<void> {
    return this.wishlist.mergeVisitorIntoCustomer(ctx, visitorId, customerId);
  }
}
