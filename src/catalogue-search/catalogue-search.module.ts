import { DynamicModule, Module, Type } from '@nestjs/common';
import { CATALOGUE_SEARCH } from '../extensions/index.js';
import { SearchSynonymsModule } from '../search-synonyms/search-synonyms.module.js';
import { CatalogueIndexService } from './catalogue-index.service.js';
import { CatalogueIndexSource } from './catalogue-index.source.js';
import { ProductJsonCache } from './product-json-cache.js';

/**
 * The catalogue engine (README.md in this folder): `CatalogueIndexService` as `CATALOGUE_SEARCH`, and the product JSON
 * cache it keeps current. The module reading the catalogue's tables registers it with its `CatalogueIndexSource`
 * (`CatalogueModule`: `CatalogueSearchModule.register(CatalogueIndexRepository)`), so the engine imports nothing of it.
 */
@Module({})
export class CatalogueSearchModule {
  static register(source: Type<CatalogueIndexSource>): DynamicModule {
    return {
      module: CatalogueSearchModule,
      imports: [SearchSynonymsModule],
      providers: [
        ProductJsonCache,
        { provide: CatalogueIndexSource, useClass: source },
        CatalogueIndexService,
        { provide: CATALOGUE_SEARCH, useExisting: CatalogueIndexService },
      ],
      exports: [ProductJsonCache, CatalogueIndexService, CATALOGUE_SEARCH],
    };
  }
}
