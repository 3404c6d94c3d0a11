import { DynamicModule, Module, Type } from '@nestjs/common';
import { SearchSynonymsModule } from '../search-synonyms/search-synonyms.module.js';
import { CatalogueIndexCommits } from './catalogue-index-commits.js';
import { CatalogueIndexService } from './catalogue-index.service.js';
import { CatalogueIndexSource } from './catalogue-index.source.js';
import { ProductJsonCache } from './product-json-cache.js';

/**
 * The catalogue engine (README.md in this folder): `CatalogueIndexService`, the built-in `CatalogueSearch` (an
 * `Extensions` point: a provider that is an instance of it, as an extension module would register its own), its
 * after-commit hook `CatalogueIndexCommits`, and the product JSON
 * cache it keeps current. The module reading the catalogue's tables registers it with its `CatalogueIndexSource`
 * (`CatalogueModule`: `CatalogueSearchModule.register(CatalogueIndexRepository)`), so the engine imports nothing of it.
 */
@Module({})
export class CatalogueSearchModule {
  static register(source: Type<CatalogueIndexSource>): DynamicModule {
    return {
      module: CatalogueSearchModule,
      imports: [SearchSynonymsModule],
      providers: [ProductJsonCache, { provide: CatalogueIndexSource, useClass: source }, CatalogueIndexService, CatalogueIndexCommits],
      exports: [ProductJsonCache, CatalogueIndexService],
    };
  }
}
