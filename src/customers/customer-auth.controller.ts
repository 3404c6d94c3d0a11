import { Body, Controller, Delete, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AllowDisabledShopper, Auth } from '../common/auth/auth.decorator.js';
import { RateLimitPolicy, RateLimitPolicyFor } from '../common/auth/rate-limit.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { CustomerAuthService } from './auth/customer-auth.service.js';
import { CustomerAccessTokenDto, SignInDto } from './dto/account.dto.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';

/**
 * CONTRACT 3 "sign-in and registration have their own stricter bucket per IP": one bucket shared by sign-in,
 * registration, recover, reset_password and confirm_email: 10 requests, then one every 6 seconds.
 */
export const CUSTOMER_AUTH_RATE_LIMIT: RateLimitPolicy = { name: 'customer-auth', burst: 10, refillPerSecond: 1 / 6 };

@ApiTags('customer: sign-in')
@Controller('customer/auth/token')
export class CustomerAuthController {
  constructor(private readonly auth: CustomerAuthService) {}

  /**
   * Signs a shopper in: 200 `{customer_access_token: {access_token: "vnscat_...", expires_at}}` (30 days), and
   * carries the visitor's anonymous cart and wishlist over. 401 `invalid_credentials` for an unknown email or a wrong
   * password alike; 403 `email_not_confirmed` when the shop requires confirmation and the email is unconfirmed.
   */
  @Post()
  @HttpCode(200)
  @Auth({ tier: 'storefront', scope: 'storefront/customers' })
  @RateLimitPolicyFor(CUSTOMER_AUTH_RATE_LIMIT)
  @Envelope('customer_access_token', CustomerAccessTokenDto)
  @ApiErrors({ 401: ['invalid_credentials'], 403: ['email_not_confirmed'] })
  signIn(@Ctx() ctx: RequestContext, @Body() body: SignInDto): Promise<CustomerAccessTokenDto> {
    return this.auth.signIn(ctx, body.email, body.password);
  }

  /** Signs out: revokes the shopper token the request carries (204). Works for a disabled account too. */
  @Delete()
  @HttpCode(204)
  @Auth({ tier: 'customer' })
  @AllowDisabledShopper()
  async signOut(@Ctx() ctx: RequestContext): Promise<void> {
    await this.auth.signOut(ctx);
  }
}
