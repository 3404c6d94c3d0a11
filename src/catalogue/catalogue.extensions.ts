import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context.js';
import { ProductCountSource } from '../extensions/index.js';
import { type CatalogueIndexSnapshot, CatalogueIndexStats } from '../observability/index.js';
import { CatalogueIndexService } from '../catalogue-search/index.js';
import { StorefrontCatalogueService } from './storefront-catalogue.service.js';

/** The catalogue's `ProductCountSource`: the admin collections' `products_count`. */
@Injectable()
export class CatalogueProductCounts extends ProductCountSource {
  constructor(private readonly catalogue: StorefrontCatalogueService) {
    super();
  }

  productsCounts(ctx: RequestContext, collectionIds: string[]): Promise<Map<string, number>> {
    return this.catalogue.productsCountsByIds(ctx, collectionIds);
  }
}

/** The in-memory catalogue index's statistics, for metrics (`CatalogueIndexStats`). */
@Injectable()
export class CatalogueIndexStatistics extends CatalogueIndexStats {
  constructor(private readonly index: CatalogueIndexService) {
    super();
  }

  stats(): CatalogueIndexSnapshot {
    return this.index.stats();
  }
}
