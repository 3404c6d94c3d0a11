/** The public surface of `gift-cards` for other modules (feature -> feature imports go through this file only). */
export { GiftCardsModule } from './gift-cards.module.js';
export { BalancePayments } from './balance-payments.service.js';
export type { AppliedBalance, BalanceCoverage, Redemption } from './balance-payments.service.js';
export { appliedAccountsJsonSql, type AppliedAccountJson } from './gift-cards.repository.js';
export { GiftCardsService } from './gift-cards.service.js';
export { GiftCardSales } from './gift-card-sales.service.js';
export type { GiftCardSaleOrder, GiftCardSaleUnit } from './gift-card-sales.service.js';
export { giftCardsIssueCommand } from './gift-cards.cli.js';
export { BalanceAccount } from './entities/balance-account.entity.js';
