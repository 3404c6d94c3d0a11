import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AllowDisabledShopper, Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { UuidParam } from '../common/http/uuid-param.js';
import { CustomerAccountService } from './customer-account.service.js';
import { AddressBodyDto, ProfileDto, SavedAddressDto } from './dto/account.dto.js';

/**
 * SPEC "Customer tier": the signed-in shopper's own data (`Authorization: Bearer vnscat_...`). A disabled account
 * reads its profile; every other route here answers 403 `account_disabled`.
 */
@ApiTags('customer: account')
@Controller('customers/me')
@Auth({ tier: 'customer' })
export class CustomerAccountController {
  constructor(private readonly accounts: CustomerAccountService) {}

  /** The shopper's profile; type is `Customer`, `Corporate` or `Reseller`; default_address is the billing address. */
  @Get()
  @AllowDisabledShopper()
  @Envelope('customer', ProfileDto)
  profile(@Ctx() ctx: RequestContext): Promise<ProfileDto> {
    return this.accounts.profile(ctx);
  }

  /** Every saved address of the shopper, unpaged; an empty array when none. */
  @Get('addresses')
  @Envelope('addresses', [SavedAddressDto])
  list(@Ctx() ctx: RequestContext): Promise<SavedAddressDto[]> {
    return this.accounts.listAddresses(ctx);
  }

  /** Saves a new address (201); the first one becomes the billing address when the shopper has none. */
  @Post('addresses')
  @HttpCode(201)
  @Envelope('address', SavedAddressDto, 201)
  create(@Ctx() ctx: RequestContext, @Body() body: AddressBodyDto): Promise<SavedAddressDto> {
    return this.accounts.createAddress(ctx, body);
  }

  /** Applies the members sent (null clears one); 404 for an unknown address or another shopper's. */
  @Put('addresses/:id')
  @Envelope('address', SavedAddressDto)
  update(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() body: AddressBodyDto): Promise<SavedAddressDto> {
    return this.accounts.updateAddress(ctx, id, body);
  }

  /** 204; 404 for an unknown address or another shopper's (also when already deleted). */
  @Delete('addresses/:id')
  @HttpCode(204)
  async delete(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<void> {
    await this.accounts.deleteAddress(ctx, id);
  }
}
