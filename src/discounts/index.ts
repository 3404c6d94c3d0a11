/** The public surface of `discounts` for other modules (feature -> feature imports go through this file only). */
export { DiscountCodesService } from './discount-codes.service.js';
export { DiscountCode } from './entities/discount-code.entity.js';
export { couponInputOf, redeemDiscountCode, releaseDiscountCode } from './discount-codes.repository.js';
export type { RedeemedCodeRow } from './discount-codes.repository.js';
