/** The public surface of `promotions` for other modules (feature -> feature imports go through this file only). */
export * from './engine/index.js';
export { PromotionsService } from './promotions.service.js';
export type { PromotionDto } from './dto/promotion.dto.js';
export { CustomerGroupsService } from './customer-groups.service.js';
export { buyerKey, PromotionEvaluation } from './promotion-evaluation.service.js';
export type { PreparedPromotions, PromotionRequest, VariantFacts } from './promotion-evaluation.service.js';
export {
  AvailablePromotionDto,
  type CartPromotionsDto,
  LinePromotionDto,
  mapAvailable,
  mapCartPromotions,
  mapDiscounts,
  mapLinePromotions,
  mapSuggestedGifts,
  PromotionDiscountDto,
  SuggestedGiftDto,
} from './dto/applied-promotion.dto.js';
