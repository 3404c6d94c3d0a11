/** The public surface of `catalogue` for other modules (feature -> feature imports go through this file only). */
export { SearchIndexService } from './search-index.service.js';
export { StockService } from './stock.service.js';
export { CatalogueImportService } from './import/catalogue-import.service.js';
export { generateDemoCatalogue } from './import/demo-catalogue.js';
export { StorefrontCatalogueService } from './storefront-catalogue.service.js';
export type { ProductListDto } from './storefront-catalogue.service.js';
export {
  availableSql,
  catalogueLineOf,
  facetIdsSql,
  firstStockLocationId,
  giftCardVariantIds,
  isListedProduct,
  isStockLocationOf,
  listedProductSql,
  lockVariant,
  lockVariants,
  onHandAt,
  openMovementsByLocation,
  paymentTypeOf,
  paymentTypesOf,
  productIdOfVariant,
  variantPromotionFacts,
  variantVolumesOf,
  sellableVariantRule,
  sellableVariantRuleSql,
  sellableVariants,
  sellableVariantsSql,
  stockLevelsFullestFirst,
  visibleVariantSql,
} from './catalogue.repository.js';
export type {
  LockedVariantRow,
  PaymentTypeRow,
  QuantityRuleRow,
  SellableVariantRow,
  StockLevelRow,
  VariantPromotionFactsRow,
  VariantVolumeRow,
} from './catalogue.repository.js';
export { productsMatchingSelector, promotionCatalogueVariants } from './promotion-catalogue.repository.js';
export { productsPricedByPromotion } from './sale-prices.repository.js';
export type { PromotionCatalogueVariant, PromotionSelectorFacet, PromotionSelectorMatcher } from './promotion-catalogue.repository.js';
export type { AdminProductDto } from './dto/admin-product.dto.js';
export type { ProductPayload } from './catalogue.events.js';
