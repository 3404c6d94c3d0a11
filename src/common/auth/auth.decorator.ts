import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiSecurity } from '@nestjs/swagger';
import type { Tier } from '../context/request-context.js';

export const AUTH_KEY = 'auth:options';

export interface AuthOptions {
  tier: Tier;
  /** Admin: `Shop/<resource>/<read|write>`; storefront: `storefront/<capability>` (checked only when a token is sent). */
  scope?: string;
}

/**
 * The one auth decorator: sets what the global API guard checks and documents it in OpenAPI.
 * A route without it is public.
 */
export function Auth(options: AuthOptions): MethodDecorator & ClassDecorator {
  const docs = options.tier === 'admin' ? [ApiBearerAuth('admin'), ApiSecurity('admin-header')] : options.tier === 'customer' ? [ApiBearerAuth('customer')] : [ApiBearerAuth('storefront')];
  return applyDecorators(SetMetadata(AUTH_KEY, options), ...docs);
}
