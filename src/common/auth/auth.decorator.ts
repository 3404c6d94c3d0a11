import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiSecurity } from '@nestjs/swagger';
import type { Tier } from '../context/request-context.js';

export const AUTH_KEY = 'auth:options';

export interface AuthOptions {
  tier: Tier;
  /** Admin: `Shop/<resource>/<read|write>`; storefront: `storefront/<capability>` (checked only when a token is sent). */
  scope?: string;
  /** Older scopes still accepted in place of `scope` for one version (admin tier; documented as deprecated). */
  deprecatedScopes?: string[];
}

export const OWN_CURRENCY = 'auth:own-currency';
/**
 * The route answers in its resource's own currency (a checkout's), never in the request's active one: the guard
 * takes `?currency` (still checked) or the shop's default, and spares the read of the visitor's cart that would only
 * pick the active currency (issue 34: one statement less per checkout request).
 */
export const OwnCurrency = () => SetMetadata(OWN_CURRENCY, true);

export const ALLOW_DISABLED_SHOPPER = 'auth:allow-disabled-shopper';
/** A disabled shopper's token is refused (403 `account_disabled`) everywhere except on routes marked with this. */
export const AllowDisabledShopper = () => SetMetadata(ALLOW_DISABLED_SHOPPER, true);

/**
 * The one auth decorator: sets what the global API guard checks and documents it in OpenAPI.
 * A route without it is public.
 */
export function Auth(options: AuthOptions): MethodDecorator & ClassDecorator {
  const docs =
    options.tier === 'admin'
      ? [ApiBearerAuth('admin'), ApiSecurity('admin-header')]
      : options.tier === 'customer'
        ? [ApiBearerAuth('customer')]
        : [ApiBearerAuth('storefront')];
  // the tier and scope let finalizeOpenApi document the security alternatives and the 401/403 answers of the tier
  const ext = [ApiExtension('x-tier', options.tier), ...(options.scope ? [ApiExtension('x-scope', options.scope)] : [])];
  return applyDecorators(SetMetadata(AUTH_KEY, options), ...docs, ...ext);
}
