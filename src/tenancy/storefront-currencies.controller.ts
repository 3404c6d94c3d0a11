import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { mapCurrency, StorefrontCurrencyDto } from './dto/currency.dto.js';
import { TenancyService } from './tenancy.service.js';

@ApiTags('storefront: currencies')
@Controller('currencies')
export class StorefrontCurrenciesController {
  constructor(private readonly tenancy: TenancyService) {}

  /** The currencies the shop publishes. */
  @Get()
  @Auth({ tier: 'storefront', scope: 'storefront/catalogue' })
  @Envelope('currencies', [StorefrontCurrencyDto])
  async list(@Ctx() ctx: RequestContext): Promise<StorefrontCurrencyDto[]> {
    return (await this.tenancy.publishedCurrencies(ctx)).map(mapCurrency);
  }
}
