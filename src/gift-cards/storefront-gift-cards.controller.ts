import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator.js';
import { RateLimitPolicy, RateLimitPolicyFor } from '../common/auth/rate-limit.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { CustomerAccountService } from '../customers/index.js';
import { BalancePayments } from './balance-payments.service.js';
import { GiftCardBalanceDto, GiftCardCodeDto, StoreCreditDto } from './dto/gift-card.dto.js';
import { GiftCardsService } from './gift-cards.service.js';

/** As strict as sign-in: guessing codes is as slow as guessing passwords. */
export const GIFT_CARD_BALANCE_RATE_LIMIT: RateLimitPolicy = { name: 'gift-card-balance', burst: 10, refillPerSecond: 1 / 6 };

/** The shopper's balance check (issue 33). */
@ApiTags('storefront: gift cards')
@Controller('gift_cards')
@Auth({ tier: 'storefront', scope: 'storefront/checkout' })
export class StorefrontGiftCardsController {
  constructor(private readonly cards: GiftCardsService) {}

  /** The same answer shape for an unknown, empty, expired or disabled card (balance 0); rate-limited per IP like sign-in. */
  @Post('balance')
  @HttpCode(200)
  @RateLimitPolicyFor(GIFT_CARD_BALANCE_RATE_LIMIT)
  @Envelope('gift_card', GiftCardBalanceDto)
  balance(@Ctx() ctx: RequestContext, @Body() dto: GiftCardCodeDto): Promise<GiftCardBalanceDto> {
    return this.cards.balance(ctx, dto.code);
  }
}

/** The signed-in shopper's store credit, one balance per currency. */
@ApiTags('customer: store credit')
@Controller('customers/me/store_credit')
@Auth({ tier: 'customer' })
export class CustomerStoreCreditController {
  constructor(
    private readonly payments: BalancePayments,
    private readonly accounts: CustomerAccountService,
  ) {}

  @Get()
  @Envelope('store_credit', [StoreCreditDto])
  async get(@Ctx() ctx: RequestContext): Promise<StoreCreditDto[]> {
    return this.payments.storeCredit(ctx, await this.accounts.activeShopper(ctx));
  }
}
