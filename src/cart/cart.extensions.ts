import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context.js';
import { CartCurrencyResolver, VisitorCarryOverParticipant } from '../extensions/index.js';
import { CartService } from './cart.service.js';

/** The cart module's `CartCurrencyResolver`: the currency of the request owner's cart (CONTRACT 4). */
@Injectable()
export class CartCurrency extends CartCurrencyResolver {
  constructor(private readonly cart: CartService) {
    super();
  }

  cartCurrencyId(ctx: RequestContext): Promise<string | null> {
    return this.cart.cartCurrencyId(ctx);
  }
}

/** The visitor's cart moves to the shopper at sign-in. */
@Injectable()
export class CartCarryOver extends VisitorCarryOverParticipant {
  readonly name = 'cart';

  constructor(private readonly cart: CartService) {
    super();
  }

  mergeVisitorIntoCustomer(ctx: RequestContext, visitorId: string, customerId: string): Promise<void> {
    return this.cart.mergeVisitorIntoCustomer(ctx, visitorId, customerId);
  }
}
