import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator.js';
import { RateLimitPolicyFor } from '../common/auth/rate-limit.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { CustomerAuthService } from './auth/customer-auth.service.js';
import { CUSTOMER_AUTH_RATE_LIMIT } from './customer-auth.controller.js';
import { ConfirmEmailDto, ProfileDto, RecoverDto, RegisterCustomerDto, ResetPasswordDto } from './dto/account.dto.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';

/** Shopper registration and the mailed-code flows (CONTRACT 3), storefront tier. */
@ApiTags('storefront: customers')
@Controller('customers')
@Auth({ tier: 'storefront', scope: 'storefront/customers' })
@RateLimitPolicyFor(CUSTOMER_AUTH_RATE_LIMIT)
export class StorefrontCustomersController {
  constructor(private readonly auth: CustomerAuthService) {}

  /**
   * Registers a shopper: 201 with the profile; a confirmation code is mailed. 422 on a duplicate email (also one the
   * admin created: such a customer sets a password through /customers/recover) or a password under 8 characters.
   */
  @Post()
  @HttpCode(201)
  @Envelope('customer', ProfileDto, 201)
  register(@Ctx() ctx: RequestContext, @Body() body: RegisterCustomerDto): Promise<ProfileDto> {
    return this.auth.register(ctx, body);
  }

  /** Mails a password reset code when the email has an account; always 202 with no body. */
  @Post('recover')
  @HttpCode(202)
  async recover(@Ctx() ctx: RequestContext, @Body() body: RecoverDto): Promise<void> {
    await this.auth.recover(ctx, body.email);
  }

  /**
   * Sets a new password with a reset code: 204. The code is single use; the other reset codes and every shopper
   * token of the account are revoked; the email counts as confirmed. 422 `invalid_token` for an unknown, used or expired code.
   */
  @Post('reset_password')
  @HttpCode(204)
  @ApiErrors({ 422: ['invalid_token'] })
  async resetPassword(@Ctx() ctx: RequestContext, @Body() body: ResetPasswordDto): Promise<void> {
    await this.auth.resetPassword(ctx, body.token, body.password);
  }

  /** Confirms the email with the code mailed at registration: 204; 422 `invalid_token` for an unknown, used or expired code. */
  @Post('confirm_email')
  @HttpCode(204)
  @ApiErrors({ 422: ['invalid_token'] })
  async confirmEmail(@Ctx() ctx: RequestContext, @Body() body: ConfirmEmailDto): Promise<void> {
    await this.auth.confirmEmail(ctx, body.token);
  }
}
