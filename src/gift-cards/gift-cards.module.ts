import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module.js';
import { adminResource } from '../extensions/index.js';
import { AdminGiftCardsController, AdminStoreCreditController, AdminStoreCreditTransferController } from './admin-gift-cards.controller.js';
import { BalancePayments } from './balance-payments.service.js';
import { GiftCardCodes } from './gift-card-codes.js';
import { GiftCardsRepository } from './gift-cards.repository.js';
import { GiftCardsService } from './gift-cards.service.js';
import { GiftCardsTransfer } from './gift-cards-transfer.js';
import { GiftCardSales } from './gift-card-sales.service.js';
import { CustomerStoreCreditController, StorefrontGiftCardsController } from './storefront-gift-cards.controller.js';

/**
 * Gift cards and store credit (issue 33): accounts of one append-only ledger (`balance_transactions`). Staff manage
 * them (`Shop/gift_cards/read|write`); the checkout module spends them through `BalancePayments`.
 */
@Module({
  imports: [CustomersModule],
  controllers: [
    AdminGiftCardsController,
    AdminStoreCreditController,
    AdminStoreCreditTransferController,
    StorefrontGiftCardsController,
    CustomerStoreCreditController,
  ],
  providers: [GiftCardsRepository, GiftCardCodes, GiftCardsService, GiftCardsTransfer, GiftCardSales, BalancePayments, adminResource('gift_cards')],
  exports: [BalancePayments, GiftCardsService, GiftCardSales],
})
export class GiftCardsModule {}
