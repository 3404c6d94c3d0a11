import { Injectable, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { CacheBus } from '../common/cluster/cache-bus.js';
import { CatalogueIndexService } from '../catalogue-search/index.js';
import { CataloguePriceRule, Extensions } from '../extensions/index.js';
import { recordPriceHistory, replaceSalePrices, storedSalePrices } from './sale-prices.repository.js';
import {
  insertCatalogueChange,
  lockReprice,
  rebuildProductSearchRows,
  rebuildVariantSearchRows,
  insertMovementsAndRefreshAvailability,
  refreshAvailabilityAndRecordChange,
} from './repositories/search-rows.repository.js';
import { inTransaction } from '../common/db/tenant-scope.js';
import { toMinor } from '../pricing/index.js';
import { tenantSettingsOf } from '../tenancy/index.js';

/** Cache-bus topic: a tenant's facet names changed (import); every instance rebuilds its facet-name snapshot. */
export const CATALOGUE_CACHE_TOPIC = 'catalogue';

/** Product ids per `products` delta (the NOTIFY payload is limited to 8 KB). */
const MAX_DELTA_PRODUCTS = 150;
/** `products` deltas one refresh may send; a larger change is one `rebuild` delta. */
const MAX_DELTA_CHUNKS = 20;

/**
 * Maintains `variant_search`: one row per visible variant (published and active, of a published product) with
 * everything the storefront filters, orders and counts on, so a list or facet query reads one table:
 * facet ids as columns, categories expanded with their ancestors, gross price (default currency), availability
 * from the stock ledger, and unaccented lower-case text with a tsvector for search. With it `product_search`, the
 * per-product rollup (facet ids of every visible variant in one array, min/max gross, flags) that product-level
 * lists, smart collections and text search read.
 *
 * Both methods are also the publishers of catalogue deltas (issue 14): they record in `catalogue_changes` what
 * changed, in the caller's transaction; at commit a trigger sends the delta through the cache bus to every
 * instance's in-memory index (`CatalogueIndexService`), and this instance's reads wait for it after the commit.
 */
@Injectable()
export class SearchIndexService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly index: CatalogueIndexService,
    @Optional() private readonly bus?: CacheBus,
    @Optional() private readonly extensions?: Extensions,
  ) {}

  /** Rebuilds the rows of the given products (every product of the tenant when `productIds` is null). */
  async refresh(ctx: RequestContext, productIds: string[] | null, defaultLanguage: string): Promise<void> {
    const m = managerOf(ctx, this.dataSource);
    if (productIds && productIds.length === 0) return;
    await this.refreshSalePrices(ctx, productIds);
    await rebuildVariantSearchRows(m, ctx.tenantId, defaultLanguage, productIds);
    await this.refreshRollup(ctx, productIds);
    await recordPriceHistory(m, ctx.tenantId, productIds);
    // up to MAX_DELTA_CHUNKS deltas of MAX_DELTA_PRODUCTS products each (a promotion starting on a producer's range
    // re-reads those products on every instance, not the whole catalogue); more is one rebuild
    const deltas: Array<[string, string[]]> = [];
    if (productIds && productIds.length <= MAX_DELTA_PRODUCTS * MAX_DELTA_CHUNKS) {
      for (let i = 0; i < productIds.length; i += MAX_DELTA_PRODUCTS) deltas.push(['products', productIds.slice(i, i + MAX_DELTA_PRODUCTS)]);
    } else deltas.push(['rebuild', []]);
    for (const delta of deltas) {
      this.index.changed(ctx, ctx.tenantId, await insertCatalogueChange(m, ctx.tenantId, ...delta));
    }
  }

  /**
   * The sale prices of these products' variants from the `CataloguePriceRule` (catalogue promotions), at this
   * moment: the search rows then carry the charged price (`gross`) and `on_sale` (issue 32).
   */
  private async refreshSalePrices(ctx: RequestContext, productIds: string[] | null): Promise<void> {
    const rule = this.extensions?.one(CataloguePriceRule);
    const prices = rule ? await rule.salePrices(ctx, productIds) : [];
    await replaceSalePrices(managerOf(ctx, this.dataSource), ctx.tenantId, productIds, prices);
  }

  /** Rebuilds the `product_search` rows of the given products (every product of the tenant when null) from `variant_search`. */
  private async refreshRollup(ctx: RequestContext, productIds: string[] | null): Promise<void> {
    await rebuildProductSearchRows(managerOf(ctx, this.dataSource), ctx.tenantId, productIds);
  }

  /** Re-reads availability of variants from the stock ledger (after a stock movement). */
  async refreshAvailability(ctx: RequestContext, variantIds: string[]): Promise<void> {
    if (variantIds.length === 0) return;
    const m = managerOf(ctx, this.dataSource);
    // one statement: the rows' availability, the products' rollup and the delta (issue 34)
    this.index.changed(ctx, ctx.tenantId, await refreshAvailabilityAndRecordChange(m, ctx.tenantId, variantIds));
  }

  /** Appends movements of variants the transaction has locked and refreshes their availability, in one statement. */
  async recordLockedMovements(
    ctx: RequestContext,
    reason: string,
    moves: ReadonlyArray<{ variantId: string; locationId: string; delta: number }>,
  ): Promise<void> {
    if (moves.length === 0) return;
    const m = managerOf(ctx, this.dataSource);
    this.index.changed(ctx, ctx.tenantId, await insertMovementsAndRefreshAvailability(m, ctx.tenantId, reason, moves));
  }

  /**
   * Brings the catalogue sale prices of these products (every product of the shop when null) to what the
   * `CataloguePriceRule` answers now (a promotion started, ended, was created, changed or deleted: the caller names
   * the products it can reach): the products whose sale prices differ from the stored ones get their search rows
   * rebuilt (and so a delta to every instance's index, and a price-history row). One transaction, serialized per
   * shop by an advisory lock: instances doing it at once for the same boundary find nothing left to do after the
   * first. Answers the number of products repriced.
   */
  async reprice(ctx: RequestContext, productIds: string[] | null = null): Promise<number> {
    if (productIds && productIds.length === 0) return 0;
    return inTransaction(ctx, this.dataSource, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      await lockReprice(m, ctx.tenantId);
      const rule = this.extensions?.one(CataloguePriceRule);
      const next = rule ? await rule.salePrices(tx, productIds) : [];
      const stored = await storedSalePrices(m, ctx.tenantId, productIds);
      const changed = new Set<string>();
      for (const p of next) {
        const was = stored.get(p.variantId);
        if (!was || toMinor(was.gross, 4) !== toMinor(p.gross, 4)) changed.add(p.productId);
        stored.delete(p.variantId);
      }
      for (const gone of stored.values()) changed.add(gone.productId);
      if (changed.size === 0) return 0;
      const settings = await tenantSettingsOf(m, ctx.tenantId);
      await this.refresh(tx, [...changed], settings?.default_language ?? 'en');
      return changed.size;
    });
  }

  /** Facet, category or manufacturer names may have changed (import): every instance rebuilds its name snapshot. */
  namesChanged(tenantId: string): void {
    this.bus?.publishSoon(CATALOGUE_CACHE_TOPIC, tenantId);
  }
}
