import { Injectable } from '@nestjs/common';
import type { RequestContext } from './request-context.js';

/**
 * Points where feature modules refine the request context without the guard depending on them:
 * the cart module tells which currency a visitor's cart is in (CONTRACT 4: the cart's currency
 * is the storefront's active currency when no `currency` parameter is given).
 */
@Injectable()
export class ContextHooks {
  visitorCurrencyId: ((ctx: RequestContext) => Promise<string | null>) | null = null;
}
