import { Injectable, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { availableSql, ROLLUP_INSERT_SQL, visibleVariantSql } from './catalogue.repository.js';
import { CacheBus } from '../common/cluster/cache-bus.js';
import { CatalogueIndexService } from '../catalogue-search/index.js';
import { CataloguePriceRule, Extensions } from '../extensions/index.js';
import { chargedGrossSql, recordPriceHistory, replaceSalePrices, saleJoinSql, storedSalePrices } from './sale-prices.repository.js';
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
    // a semi-join on the unnested ids (not `= ANY`, a linear scan of the array per row): an import's batches of
    // thousands of products stay linear even while the planner's statistics still think the tables are empty
    const scope = productIds ? `AND p.id IN (SELECT unnest($3::uuid[]))` : '';
    const params: unknown[] = [ctx.tenantId, defaultLanguage];
    if (productIds) params.push(productIds);
    await m.query(
      `DELETE FROM variant_search vs USING products p WHERE p.id = vs.product_id AND vs.tenant_id = $1 AND p.tenant_id = $1 AND $2::text IS NOT NULL ${scope}`,
      params,
    );
    await m.query(
      `INSERT INTO variant_search (variant_id, tenant_id, product_id, position, product_created_at, title_sort, rating, gross, on_sale, available,
         manufacturer_id, color_id, region_id, year_id, size_id, country_id, option_ids, category_ids, tags, search_text, search_tsv)
       SELECT v.id, v.tenant_id, v.product_id, v.position, p.created_at,
         lower(unaccent(coalesce(p.title->>$2, (SELECT min(t.value) FROM jsonb_each_text(p.title) t), ''))),
         p.rating, ${chargedGrossSql('v', 'sp')},
         coalesce(sp.gross < v.gross, false) OR coalesce(v.compare_at_gross > v.gross, false),
         ${availableSql('v')},
         p.manufacturer_id, v.color_id, v.region_id, v.year_id, v.size_id, v.country_id, v.option_ids,
         coalesce((SELECT array_agg(DISTINCT a) FROM categories c, unnest(c.path) a WHERE c.tenant_id = p.tenant_id AND c.id = ANY(p.category_ids)), '{}'),
         p.tags, x.txt, to_tsvector('simple', x.txt)
       FROM variants v
       JOIN products p ON p.id = v.product_id AND p.tenant_id = v.tenant_id
       LEFT JOIN manufacturers mf ON mf.id = p.manufacturer_id
       ${saleJoinSql('v')}
       CROSS JOIN LATERAL (SELECT lower(unaccent(concat_ws(' ',
           (SELECT string_agg(t.value, ' ') FROM jsonb_each_text(p.title) t),
           (SELECT string_agg(t.value, ' ') FROM jsonb_each_text(v.title) t),
           v.sku, mf.name))) AS txt) x
       WHERE v.tenant_id = $1 AND ${visibleVariantSql('v', 'p')} ${scope}`,
      params,
    );
    await this.refreshRollup(ctx, productIds);
    await recordPriceHistory(m, ctx.tenantId, productIds);
    // up to MAX_DELTA_CHUNKS deltas of MAX_DELTA_PRODUCTS products each (a promotion starting on a producer's range
    // re-reads those products on every instance, not the whole catalogue); more is one rebuild
    const deltas: Array<[string, string[]]> = [];
    if (productIds && productIds.length <= MAX_DELTA_PRODUCTS * MAX_DELTA_CHUNKS) {
      for (let i = 0; i < productIds.length; i += MAX_DELTA_PRODUCTS) deltas.push(['products', productIds.slice(i, i + MAX_DELTA_PRODUCTS)]);
    } else deltas.push(['rebuild', []]);
    for (const delta of deltas) {
      const [change] = await m.query(`INSERT INTO catalogue_changes (tenant_id, kind, ids) VALUES ($1, $2, $3::uuid[]) RETURNING id`, [ctx.tenantId, ...delta]);
      this.index.changed(ctx, ctx.tenantId, Number(change.id));
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
    const m = managerOf(ctx, this.dataSource);
    const params: unknown[] = [ctx.tenantId];
    if (productIds) params.push(productIds);
    const scope = productIds ? 'AND vs.tenant_id = $1 AND vs.product_id IN (SELECT unnest($2::uuid[]))' : 'AND vs.tenant_id = $1';
    await m.query(`DELETE FROM product_search WHERE tenant_id = $1 ${productIds ? 'AND product_id IN (SELECT unnest($2::uuid[]))' : ''}`, params);
    await m.query(ROLLUP_INSERT_SQL.replace(/__SCOPE__/g, scope), params);
  }

  /** Re-reads availability of variants from the stock ledger (after a stock movement). */
  async refreshAvailability(ctx: RequestContext, variantIds: string[]): Promise<void> {
    if (variantIds.length === 0) return;
    await managerOf(ctx, this.dataSource).query(
      `UPDATE variant_search vs SET available = ${availableSql('v')}
       FROM variants v WHERE v.id = vs.variant_id AND vs.tenant_id = $1 AND v.tenant_id = $1 AND vs.variant_id = ANY($2::uuid[])`,
      [ctx.tenantId, variantIds],
    );
    await managerOf(ctx, this.dataSource).query(
      `UPDATE product_search ps SET available = x.available
       FROM (SELECT vs.product_id, bool_or(vs.available) AS available FROM variant_search vs
             WHERE vs.tenant_id = $1 AND vs.product_id IN (SELECT v.product_id FROM variant_search v WHERE v.tenant_id = $1 AND v.variant_id = ANY($2::uuid[]))
             GROUP BY vs.product_id) x
       WHERE ps.product_id = x.product_id AND ps.tenant_id = $1 AND ps.available IS DISTINCT FROM x.available`,
      [ctx.tenantId, variantIds],
    );
    const [change] = await managerOf(ctx, this.dataSource).query(
      `INSERT INTO catalogue_changes (tenant_id, kind, ids) VALUES ($1, 'stock', $2::uuid[]) RETURNING id`,
      [ctx.tenantId, variantIds],
    );
    this.index.changed(ctx, ctx.tenantId, Number(change.id));
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
      await m.query(`SELECT pg_advisory_xact_lock(hashtext('catalogue-reprice'), hashtext($1))`, [ctx.tenantId]);
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
