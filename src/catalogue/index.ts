/** The public surface of `catalogue` for other modules (feature -> feature imports go through this file only). */
export { SearchIndexService } from './search-index.service.js';
export { StockService } from './stock.service.js';
export { CatalogueImportService } from './import/catalogue-import.service.js';
export { generateDemoCatalogue } from './import/demo-catalogue.js';
export { StorefrontCatalogueService } from './storefront-catalogue.service.js';
export type { ProductListDto } from './storefront-catalogue.service.js';
export {
  availableSql,
  facetIdsSql,
  firstStockLocationId,
  isListedProduct,
  listedProductSql,
  lockVariants,
  openMovementsByLocation,
  sellableVariantRule,
  sellableVariants,
  stockLevelsFullestFirst,
  visibleVariantSql,
} from './catalogue.repository.js';
export type { LockedVariantRow, QuantityRuleRow, SellableVariantRow, StockLevelRow } from './catalogue.repository.js';
