import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { inTransaction } from '../common/db/tenant-scope.js';
import { TenancyService } from '../tenancy/index.js';
import { FacetNameSnapshot } from './facet-name-snapshot.service.js';
import { SearchIndexService } from './search-index.service.js';

/** What a catalogue write reports to `CatalogueChanges.write`. */
export interface CatalogueWrite<R> {
  result: R;
  /** Products whose storefront rows must follow (null: every product of the shop). */
  productIds: string[] | null;
  defaultLanguage: string;
  /** The shop's settings or currencies may have changed (the import): their cache is retired too. */
  settingsChanged?: boolean;
}

/**
 * The one path by which a catalogue change reaches the storefront, shared by the import and the admin catalogue API:
 * the write runs in one transaction, which also rebuilds the changed products' search rows (and so their facets,
 * prices, availability and smart-collection membership, evaluated from them at read time); after the commit (or
 * the rollback) the shop's settings and facet-name snapshot are retired here and, through
 * the cache bus, on every instance. Factsheets follow by the rows' `updated_at`.
 */
@Injectable()
export class CatalogueChanges {
  constructor(
    private readonly dataSource: DataSource,
    private readonly search: SearchIndexService,
    private readonly snapshot: FacetNameSnapshot,
    private readonly tenancy: TenancyService,
  ) {}

  async write<R>(ctx: RequestContext, work: (tx: RequestContext) => Promise<CatalogueWrite<R>>): Promise<R> {
    let settings = true; // unknown until the work reports (a failed write retires everything)
    try {
      return await inTransaction(ctx, this.dataSource, async (tx) => {
        const out = await work(tx);
        settings = out.settingsChanged ?? false;
        await this.search.refresh(tx, out.productIds, out.defaultLanguage);
        return out.result;
      });
    } finally {
      this.settled(ctx.tenantId, settings);
    }
  }

  /** Retires every cached view of the shop's catalogue (and its settings when they may have changed), here and on every instance. */
  settled(tenantId: string, settings = true): void {
    if (settings) this.tenancy.invalidate(tenantId);
    this.snapshot.invalidate(tenantId);
    if (settings) this.search.namesChanged(tenantId); // the import may rename facets: every instance's snapshot follows
  }
}
