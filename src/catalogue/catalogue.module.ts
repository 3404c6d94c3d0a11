import { Module } from '@nestjs/common';
import { AdminCatalogueController } from './admin-catalogue.controller.js';
import { FacetNameSnapshot } from './facet-name-snapshot.service.js';
import { FactsheetService } from './factsheet.service.js';
import { CatalogueImportService } from './import/catalogue-import.service.js';
import { SearchIndexService } from './search-index.service.js';
import { StockService } from './stock.service.js';
import { FactsheetController, StorefrontCatalogueController } from './storefront-catalogue.controller.js';
import { StorefrontCatalogueService } from './storefront-catalogue.service.js';

/** Catalogue: import, storefront products/facets/collections, stock ledger, factsheets (issue 5). */
@Module({
  controllers: [AdminCatalogueController, StorefrontCatalogueController, FactsheetController],
  providers: [CatalogueImportService, SearchIndexService, StockService, FacetNameSnapshot, StorefrontCatalogueService, FactsheetService],
  exports: [CatalogueImportService, StockService, SearchIndexService, StorefrontCatalogueService, FacetNameSnapshot],
})
export class CatalogueModule {}
