import { Injectable, Logger, Optional } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import { BusMessage, CacheBus } from '../common/cluster/cache-bus.js';
import type { RequestContext } from '../common/context/request-context.js';
import { AppConfig } from '../config/app-config.js';
import { CatalogueSearch } from '../extensions/index.js';
import type { CatalogueIndexSnapshot } from '../observability/index.js';
import type { CatalogueSearchRequest, CatalogueSearchResult, VariantStock } from './catalogue-search.js';
import { CatalogueIndexSource } from './catalogue-index.source.js';
import type { TenantIndexWriter } from './tenant-index-view.js';
import { buildIndex, reloadProducts } from './index-build.js';
import { estimateIndexBytes, OverBudgetTenants } from './index-budget.js';
import { IndexQueries } from './index-queries.js';
import { SearchSynonymsService } from '../search-synonyms/index.js';
import { changeLsnOf, variantStock, visibleProducts } from './index-reads.js';
import { ProductJsonCache } from './product-json-cache.js';
import { counted, type Entry, entryTotals, evictLeastRecent, keptBytes, markApplied, newEntry, waitForChange } from './tenant-entry.js';

/** Cache-bus topic of catalogue deltas (sent by the `catalogue_changes` trigger at commit). */
export const CATALOGUE_DELTA_TOPIC = 'catalogue.delta';

/** Attempts at laying out a built index by category (each thrown away if a product changed while it was made). */
const LAYOUT_TRIES = 3;

/**
 * The in-memory catalogue engine (issue 14): one `TenantIndex` per tenant, built on the tenant's first catalogue
 * read from `variant_search` in one REPEATABLE READ snapshot (streamed in batches), held in an LRU bounded by
 * `CATALOGUE_INDEX_MEMORY_MB` across tenants, and kept current by the deltas the `catalogue_changes` trigger sends
 * through the cache bus at commit, in version order: a version gap, a listener reconnect or a `rebuild` delta
 * drops the tenant's index (rebuilt on the next read), never an answer from a stale one. After a commit of this
 * instance that changed the catalogue, reads of the tenant wait until the index has the committed version.
 */
@Injectable()
export class CatalogueIndexService extends CatalogueSearch {
  private readonly logger = new Logger('CatalogueIndex');
  private readonly tenants = new Map<string, Entry>();
  /** Memory budget in bytes (tests may lower it). */
  budgetBytes: number;
  /** Tenants whose index alone does not fit the budget: never kept, their reads refused (503). */
  readonly overBudget = new OverBudgetTenants();
  /**
   * How long after a build its index is laid out by category (`layOut`, `TenantIndex.layout`): not on the path of the read
   * that waited for the build (tests may change it).
   */
  layoutDelayMs = 1_000;
  /** Indexes laid out by category (diagnostics, tests). */
  layouts = 0;
  private builds = 0;
  private lagMs = 0;
  /** Transactions that changed a tenant's catalogue, until they commit. */
  private readonly pendingTx = new WeakMap<QueryRunner, Array<[string, number]>>();
  private readonly queries: IndexQueries;

  constructor(
    private readonly source: CatalogueIndexSource,
    private readonly products: ProductJsonCache,
    @Optional() config?: AppConfig,
    @Optional() bus?: CacheBus,
    @Optional() synonyms?: SearchSynonymsService,
  ) {
    super();
    this.budgetBytes = (config?.CATALOGUE_INDEX_MEMORY_MB ?? 512) * 1024 * 1024;
    this.queries = new IndexQueries(source, synonyms);
    bus?.subscribe(CATALOGUE_DELTA_TOPIC, (tenantId, msg) => {
      if (tenantId === null) this.dropAll('the cache bus reconnected');
      else if (msg) this.onDelta(tenantId, msg);
    });
  }

  /**
   * A transaction that published a delta makes this instance's next reads wait for it (called after every commit by
   * `CatalogueIndexCommits`, the engine's `TransactionListener`).
   */
  transactionCommitted(qr: QueryRunner): void {
    if (qr.isTransactionActive) return; // a savepoint was released; the transaction goes on
    const changes = this.pendingTx.get(qr);
    if (!changes) return;
    this.pendingTx.delete(qr);
    for (const [tenantId, id] of changes) this.awaitChange(tenantId, id);
  }

  /**
   * Called by the writers' after-change path with the id of the `catalogue_changes` row it wrote: once the
   * transaction commits, this instance's reads of the tenant wait until the index has applied that change.
   */
  changed(ctx: RequestContext, tenantId: string, changeId: number): void {
    const qr = ctx.manager?.queryRunner;
    if (qr && qr.isTransactionActive) {
      const list = this.pendingTx.get(qr) ?? [];
      list.push([tenantId, changeId]);
      this.pendingTx.set(qr, list);
    } else this.awaitChange(tenantId, changeId);
  }

  /** Reads of the tenant wait until its index applied change `id` (it arrives within milliseconds; 2 s at most, then a rebuild). */
  private awaitChange(tenantId: string, id: number): void {
    const e = this.tenants.get(tenantId);
    if (!e || (!e.index && !e.building) || e.applied.has(id)) return;
    // not received in time (a lost notification): this index cannot be proven current
    waitForChange(e, id, () => {
      if (this.tenants.get(tenantId) === e) this.drop(tenantId);
    });
  }

  // ------------------------------------------------------------------ tenants

  /** The tenant's index, current with every change this instance committed; built on first use. */
  async get(tenantId: string): Promise<TenantIndexWriter> {
    for (let attempt = 0; ; attempt++) {
      let e = this.tenants.get(tenantId);
      if (!e) {
        this.overBudget.check(tenantId, this.budgetBytes);
        e = newEntry();
        this.tenants.set(tenantId, e);
      } else {
        // most recently used last
        this.tenants.delete(tenantId);
        this.tenants.set(tenantId, e);
      }
      if (!e.index && !e.building) e.building = this.build(tenantId, e);
      if (e.building) await e.building;
      if (e.sync) await e.sync;
      await e.chain;
      const current = this.tenants.get(tenantId);
      if (current === e && e.index) return e.index;
      if (attempt > 3) throw new Error('the catalogue index was dropped repeatedly while reading');
    }
  }

  /** Whether a tenant's index is in memory (tests, diagnostics). */
  has(tenantId: string): boolean {
    return this.tenants.get(tenantId)?.index != null;
  }

  /**
   * Builds the tenant's index with its estimated size reserved in the budget first (others evicted to make room); an
   * index whose estimate or built size alone exceeds the budget is not kept (`tooLarge`).
   */
  private async build(tenantId: string, e: Entry): Promise<TenantIndexWriter> {
    const started = Date.now();
    let idx: TenantIndexWriter;
    try {
      const estimate = estimateIndexBytes(await this.source.countRows(tenantId));
      if (estimate > this.budgetBytes) throw this.tooLarge(tenantId, estimate, 'estimated');
      e.reserved = estimate;
      this.evict(tenantId);
      idx = await buildIndex(this.source, tenantId);
    } catch (err) {
      if (this.tenants.get(tenantId) === e) this.tenants.delete(tenantId);
      throw err;
    } finally {
      e.reserved = 0;
    }
    this.builds += 1;
    const bytes = idx.bytes();
    this.logger.log(
      `catalogue index of ${tenantId}: ${idx.alive} products, ${idx.vCount} variants, ${bytes} bytes (${Math.round(bytes / Math.max(1, idx.alive))} per product) in ${Date.now() - started} ms`,
    );
    if (this.tenants.get(tenantId) !== e) return idx; // dropped meanwhile: the next read builds again
    if (bytes > this.budgetBytes) {
      this.tenants.delete(tenantId);
      throw this.tooLarge(tenantId, bytes, 'built');
    }
    e.index = idx;
    e.building = null;
    this.products.dropTenant(tenantId);
    const buffered = e.buffer.sort((a, b) => Number(a.v) - Number(b.v));
    e.buffer = [];
    for (const msg of buffered) this.enqueue(tenantId, e, msg);
    e.bytes = bytes;
    e.engineSeen = idx.engineBytes();
    this.evict(tenantId);
    setTimeout(() => void this.layOut(tenantId), this.layoutDelayMs).unref();
    return idx;
  }

  /**
   * Replaces the tenant's index by its copy laid out by category (a query's products then sit in neighbouring
   * memory). The copy is made in slices with the event loop free between them (reads and deltas go on, on the built
   * index), then swapped in as one step of the delta chain: its stock is taken from the built index at that moment,
   * and if a product changed meanwhile the copy is thrown away and made again later (at most `LAYOUT_TRIES` times
   * per build). A read running on the built index keeps it until it ends. Done once per build (`layoutDelayMs`
   * after it); true when this call swapped.
   */
  async layOut(tenantId: string, tries = LAYOUT_TRIES): Promise<boolean> {
    const e = this.tenants.get(tenantId);
    const built = e?.index;
    if (!e || !built || built.byCategory) return false;
    // the copy is about as large as the built index and both live until the swap: room for it is made first (tenants
    // used less recently than this one evicted), and without room the index stays as built (correct, only less
    // clustered); the reserve is held until the swap or the give-up
    if (!this.evict(tenantId, e.bytes, true)) {
      this.logger.warn(`catalogue index of ${tenantId} not laid out: its copy (${e.bytes} bytes) does not fit the memory budget`);
      return false;
    }
    e.reserved = e.bytes;
    const started = Date.now();
    const gone = () => this.tenants.get(tenantId) !== e || e.index !== built;
    let swapped = false;
    let stale = false;
    try {
      const job = built.layout();
      for (const slice of job.slices) {
        void slice;
        await new Promise((resolve) => setImmediate(resolve));
        if (gone()) return false;
      }
      e.chain = e.chain.then(() => {
        if (gone()) return;
        if (!job.current()) {
          stale = true;
          return;
        }
        job.finish();
        e.index = job.copy;
        e.bytes = job.copy.bytes();
        e.engineSeen = job.copy.engineBytes();
        this.layouts += 1;
        swapped = true;
        this.logger.log(`catalogue index of ${tenantId} laid out by category in ${Date.now() - started} ms (${e.bytes} bytes)`);
      });
      await e.chain;
    } catch (err) {
      this.logger.warn(`catalogue index of ${tenantId} not laid out: ${(err as Error).message}`);
      return false;
    } finally {
      e.reserved = 0;
    }
    if (swapped) this.evict(tenantId);
    if (stale && tries > 1) setTimeout(() => void this.layOut(tenantId, tries - 1), this.layoutDelayMs).unref();
    return swapped;
  }

  /**
   * Drops the least recently used tenants (never `keep`, never one still building) until the indexes, the layout
   * copies being made and `extra` bytes fit the budget; true when they do. With `olderOnly` only tenants used less
   * recently than `keep` may go, and when even dropping all of them would not make room nothing is dropped.
   */
  private evict(keep: string, extra = 0, olderOnly = false): boolean {
    const own = this.tenants.get(keep);
    if (own?.index && counted(own) > this.budgetBytes) {
      // grown past the budget alone (deltas, kept answers): it goes, not the others
      this.tooLarge(keep, counted(own), 'grown');
      this.drop(keep);
      return false;
    }
    return evictLeastRecent(this.tenants, keep, this.budgetBytes, extra, olderOnly, (id) => this.drop(id));
  }

  /**
   * The primary WAL position (as a number) a replica must have replayed to serve these products' rows as this
   * index knows them: the latest of the index's build snapshot and the statements that re-read them after a change.
   * Null when the tenant's index is not loaded (then nothing is known: read the primary).
   */
  changeLsn(tenantId: string, productIds: string[]): number | null {
    const idx = this.tenants.get(tenantId)?.index;
    return idx ? changeLsnOf(idx, productIds) : null;
  }

  /** Marks the tenant as too large for the budget, with one warning line; the refusal for the read that found it. */
  private tooLarge(tenantId: string, bytes: number, how: 'estimated' | 'built' | 'grown'): Error {
    this.logger.warn(
      `catalogue index of ${tenantId} not kept: ${how} at ${bytes} bytes, over CATALOGUE_INDEX_MEMORY_MB (${this.budgetBytes} bytes); its catalogue reads are refused (503)`,
    );
    return this.overBudget.mark(tenantId, bytes, this.budgetBytes);
  }

  private drop(tenantId: string): void {
    const e = this.tenants.get(tenantId);
    if (!e) return;
    this.tenants.delete(tenantId);
    for (const done of e.changeWaiters.values()) done();
    e.changeWaiters.clear();
    this.products.dropTenant(tenantId);
  }

  /** Drops every tenant's index (rebuilt on their next reads): the cache bus reconnected, or a test starts clean. */
  dropAll(reason: string): void {
    if (this.tenants.size > 0) this.logger.warn(`dropping every catalogue index: ${reason}`);
    for (const id of [...this.tenants.keys()]) this.drop(id);
  }

  // ------------------------------------------------------------------ deltas

  private onDelta(tenantId: string, msg: BusMessage): void {
    const e = this.tenants.get(tenantId);
    if (!e) return; // not loaded here: the next build reads the database as it is
    if (e.building && !e.index) {
      e.buffer.push(msg);
      return;
    }
    this.enqueue(tenantId, e, msg);
  }

  private enqueue(tenantId: string, e: Entry, msg: BusMessage): void {
    e.chain = e.chain
      .then(() => this.apply(tenantId, e, msg))
      .catch((err: Error) => {
        this.logger.warn(`delta of ${tenantId} failed (${err.message}); dropping its index`);
        this.drop(tenantId);
      });
  }

  private async apply(tenantId: string, e: Entry, msg: BusMessage): Promise<void> {
    const idx = e.index;
    if (!idx || this.tenants.get(tenantId) !== e) return;
    const v = Number(msg.v);
    if (!(v > idx.version)) {
      markApplied(e, msg.c); // already in the index (the build saw it)
      return;
    }
    if (v > idx.version + 1) {
      this.logger.warn(`catalogue version gap for ${tenantId} (${idx.version} → ${v}); rebuilding`);
      this.drop(tenantId);
      return;
    }
    if (msg.k === 'stock' && Array.isArray(msg.d)) {
      for (const [variantId, available, onHand] of msg.d as Array<[string, boolean, number]>) idx.setStock(variantId, available, Number(onHand));
      idx.stockChanged();
    } else if (msg.k === 'products' && Array.isArray(msg.d)) {
      const ids = msg.d as string[];
      await reloadProducts(this.source, idx, ids);
      if (this.tenants.get(tenantId) !== e) return;
      idx.contentChanged();
      this.products.dropProducts(tenantId, ids);
      if (idx.wantsCompaction) {
        this.drop(tenantId);
        return;
      }
      e.bytes = idx.bytes();
      e.engineSeen = idx.engineBytes();
    } else {
      this.drop(tenantId);
      return;
    }
    idx.setVersion(v);
    markApplied(e, msg.c);
    if (typeof msg.at === 'number') this.lagMs = Math.max(0, Date.now() - msg.at);
    if (msg.k === 'products') this.evict(tenantId);
  }

  // ------------------------------------------------------------------ queries

  async search(ctx: RequestContext, req: CatalogueSearchRequest): Promise<CatalogueSearchResult> {
    const idx = await this.get(ctx.tenantId);
    const held = keptBytes(idx);
    const out = await this.queries.answer(ctx, idx, req);
    const e = this.tenants.get(ctx.tenantId);
    if (e?.index !== idx) return out;
    // the engine's memory (product sets made on first use, scratch arrays) is part of the tenant's size: its change
    // since it was last counted is added now, not at the next build or product change
    const engine = idx.engineBytes();
    const seen = e.engineSeen;
    e.bytes += engine - seen;
    e.engineSeen = engine;
    // kept answers or the engine grew the tenant's memory past another megabyte: the budget is enforced again (other
    // tenants, least recent first); not on every kept answer, so that a miss does not walk every loaded tenant
    if (keptBytes(idx) >>> 20 > held >>> 20 || engine >>> 20 > seen >>> 20) this.evict(ctx.tenantId);
    return out;
  }

  override async didYouMean(ctx: RequestContext, req: CatalogueSearchRequest, limit: number): Promise<Array<{ q: string; count: number }>> {
    return this.queries.didYouMean(ctx, await this.get(ctx.tenantId), req, limit);
  }

  async visible(ctx: RequestContext, productIds: string[]): Promise<Set<string>> {
    return visibleProducts(await this.get(ctx.tenantId), productIds);
  }

  async stock(ctx: RequestContext, variantIds: string[]): Promise<Map<string, VariantStock>> {
    return variantStock(await this.get(ctx.tenantId), variantIds);
  }

  /** The memory counted for a loaded tenant in the budget (its index, engine and kept answers), null when not loaded. */
  bytesOf(tenantId: string): number | null {
    const e = this.tenants.get(tenantId);
    return e?.index ? counted(e) : null;
  }

  stats(): CatalogueIndexSnapshot {
    return {
      ...entryTotals(this.tenants.values()),
      rebuilds: this.builds,
      overBudgetRefusals: this.overBudget.refusals,
      deltaLagMs: this.lagMs,
      answerHits: this.queries.hits,
      answerMisses: this.queries.misses,
    };
  }
}
