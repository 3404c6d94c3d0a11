import { Module } from '@nestjs/common';
import { CollectionsModule } from '../collections/collections.module.js';
import { SearchSynonymsModule } from '../search-synonyms/search-synonyms.module.js';
import { AdminCatalogueController } from './admin-catalogue.controller.js';
import { CatalogueIndexStatistics, CatalogueProductCounts } from './catalogue.extensions.js';
import { CatalogueSearchModule } from '../catalogue-search/catalogue-search.module.js';
import { CatalogueIndexRepository } from './repositories/catalogue-index.repository.js';
import { ProductJsonService } from './product-json.service.js';
import { AdminProductsController } from './admin-products.controller.js';
import { AdminProductsService } from './admin-products.service.js';
import { CatalogueExportService } from './export/catalogue-export.service.js';
import { CatalogueChanges } from './catalogue-changes.service.js';
import { FacetNameSnapshot } from './facet-name-snapshot.service.js';
import { FactsheetService } from './factsheet.service.js';
import { CatalogueImportService } from './import/catalogue-import.service.js';
import { SearchIndexService } from './search-index.service.js';
import { SearchSuggestController } from './search-suggest.controller.js';
import { SearchSuggestService } from './search-suggest.service.js';
import { StockService } from './stock.service.js';
import { FactsheetController, StorefrontCatalogueController } from './storefront-catalogue.controller.js';
import { StorefrontCatalogueService } from './storefront-catalogue.service.js';

/** Catalogue: import, storefront products/facets/collections, stock ledger, factsheets (issue 5). */
@Module({
  imports: [CollectionsModule, SearchSynonymsModule, CatalogueSearchModule.register(CatalogueIndexRepository)],
  controllers: [AdminCatalogueController, AdminProductsController, StorefrontCatalogueController, FactsheetController, SearchSuggestController],
  providers: [
    ProductJsonService,
    CatalogueIndexStatistics,
    CatalogueChanges,
    AdminProductsService,
    CatalogueExportService,
    CatalogueImportService,
    SearchIndexService,
    SearchSuggestService,
    StockService,
    FacetNameSnapshot,
    StorefrontCatalogueService,
    FactsheetService,
    CatalogueProductCounts,
  ],
  exports: [CatalogueImportService, CatalogueChanges, StockService, SearchIndexService, StorefrontCatalogueService, FacetNameSnapshot, CatalogueSearchModule],
})
export class CatalogueModule {}
