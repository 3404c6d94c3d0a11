import { Injectable, Logger, OnModuleInit, Optional } from '@nestjs/common';
import { DataSource, EntitySubscriberInterface, QueryRunner, TransactionCommitEvent } from 'typeorm';
import { BusMessage, CacheBus } from '../../common/cluster/cache-bus.js';
import type { RequestContext } from '../../common/context/request-context.js';
import { AppConfig } from '../../config/app-config.js';
import { collectionClause, FACET_KEYS, OrderSpec, Params, textClause } from '../catalogue-query.js';
import type { CatalogueSearch, CatalogueSearchRequest, CatalogueSearchResult, VariantStock } from './catalogue-search.js';
import { DIM, IndexQuery, IndexRow, OrderColumn, TenantIndex } from './tenant-index.js';
import { ProductJsonCache } from './product-json-cache.js';

/** Cache-bus topic of catalogue deltas (sent by the `catalogue_changes` trigger at commit). */
export const CATALOGUE_DELTA_TOPIC = 'catalogue.delta';

/** Rows per statement while building (the build holds one batch of rows at a time). */
const BUILD_BATCH = 20_000;
/** How long a read waits for this instance to receive a committed change before it rebuilds instead. */
const SYNC_WAIT_MS = 2_000;
/** Memory bound of the kept answers of one tenant (counted in its index's bytes). */
const RESULTS_MAX_BYTES = 32 * 1024 * 1024;

/** The index's columns of `variant_search` (arrays as text: parsed faster than pg's array parser). */
const ROW_COLUMNS = `vs.variant_id, vs.product_id, vs.position, (extract(epoch FROM vs.product_created_at) * 1000)::float8 AS created,
    vs.title_sort, vs.rating::float8 AS rating, vs.gross::text AS gross, vs.on_sale, vs.available, v.sku,
    vs.manufacturer_id, vs.color_id, vs.region_id, vs.year_id, vs.size_id, vs.country_id,
    array_to_string(vs.option_ids, ',') AS option_ids, array_to_string(vs.category_ids, ',') AS category_ids`;
const ROW_FROM = `FROM variant_search vs JOIN variants v ON v.id = vs.variant_id AND v.tenant_id = vs.tenant_id`;
const ON_HAND = `coalesce((SELECT sum(sm.delta) FROM stock_movements sm WHERE sm.tenant_id = vs.tenant_id AND sm.variant_id = vs.variant_id), 0)::float8 AS on_hand`;

/** The same columns as one JSON array per row: the build parses one text per row natively (JSON.parse), not 18 fields. */
const ROW_JSON = `json_build_array(vs.variant_id, vs.product_id, vs.position, (extract(epoch FROM vs.product_created_at) * 1000)::float8,
    vs.title_sort, vs.rating::float8, vs.gross::text, vs.on_sale, vs.available, v.sku,
    vs.manufacturer_id, vs.color_id, vs.region_id, vs.year_id, vs.size_id, vs.country_id, vs.option_ids, vs.category_ids)::text AS j`;

function jsonRow(j: string, onHand: Map<string, number>): IndexRow {
  const a = JSON.parse(j) as unknown[];
  const id = a[0] as string;
  return {
    variant_id: id,
    product_id: a[1] as string,
    position: a[2] as number,
    created: a[3] as number,
    title_sort: a[4] as string,
    rating: a[5] as number,
    gross: a[6] as string,
    on_sale: a[7] as boolean,
    available: a[8] as boolean,
    sku: a[9] as string | null,
    manufacturer_id: a[10] as string | null,
    color_id: a[11] as string | null,
    region_id: a[12] as string | null,
    year_id: a[13] as string | null,
    size_id: a[14] as string | null,
    country_id: a[15] as string | null,
    option_ids: (a[16] as string[] | null) ?? [],
    category_ids: (a[17] as string[] | null) ?? [],
    on_hand: onHand.get(id) ?? 0,
  };
}

/** A raw row (arrays as comma-separated text) as an IndexRow. */
function indexRow(r: Record<string, unknown>, onHand: number): IndexRow {
  const list = (v: unknown) => (typeof v === 'string' && v !== '' ? v.split(',') : Array.isArray(v) ? (v as string[]) : []);
  return { ...(r as unknown as IndexRow), option_ids: list(r.option_ids), category_ids: list(r.category_ids), on_hand: onHand };
}

interface Entry {
  index: TenantIndex | null;
  building: Promise<TenantIndex> | null;
  /** Deltas received while building, applied once the build is done. */
  buffer: BusMessage[];
  /** Deltas being applied, in version order. */
  chain: Promise<void>;
  /** A wait for a committed change of this instance (read-after-write), when one is pending. */
  sync: Promise<void> | null;
  waiters: Array<{ version: number; done: () => void }>;
  /** Ids of changes applied (or already in the build), the most recent 4,096. */
  applied: Set<number>;
  /** Reads waiting for a change of this instance's transaction, by change id. */
  changeWaiters: Map<number, () => void>;
  bytes: number;
}

const ORDER_COLUMN: Record<Exclude<OrderSpec, never>, [OrderColumn, 1 | -1]> = {
  'price asc': ['price', 1],
  'price desc': ['price', -1],
  'created asc': ['created', 1],
  'created desc': ['created', -1],
  'title asc': ['title', 1],
  'title desc': ['title', -1],
  'rating desc': ['rating', -1],
  relevance: ['rel', -1],
  manual: ['pos', 1],
};

/**
 * The in-memory catalogue engine (issue 14): one `TenantIndex` per tenant, built on the tenant's first catalogue
 * read from `variant_search` in one REPEATABLE READ snapshot (streamed in batches), held in an LRU bounded by
 * `CATALOGUE_INDEX_MEMORY_MB` across tenants, and kept current by the deltas the `catalogue_changes` trigger sends
 * through the cache bus at commit, in version order: a version gap, a listener reconnect or a `rebuild` delta
 * drops the tenant's index (rebuilt on the next read), never an answer from a stale one. After a commit of this
 * instance that changed the catalogue, reads of the tenant wait until the index has the committed version.
 */
@Injectable()
export class CatalogueIndexService implements CatalogueSearch, OnModuleInit, EntitySubscriberInterface {
  private readonly logger = new Logger('CatalogueIndex');
  private readonly tenants = new Map<string, Entry>();
  /** Memory budget in bytes (tests may lower it). */
  budgetBytes: number;
  private builds = 0;
  private lagMs = 0;
  /** When products (`tenant|product`, or `tenant|*` for all) last changed through a delta: reads of them avoid replicas for a while. */
  private readonly changedAt = new Map<string, number>();
  /** Transactions that changed a tenant's catalogue, until they commit. */
  private readonly pendingTx = new WeakMap<QueryRunner, Array<[string, number]>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly products: ProductJsonCache,
    @Optional() config?: AppConfig,
    @Optional() bus?: CacheBus,
  ) {
    this.budgetBytes = (config?.CATALOGUE_INDEX_MEMORY_MB ?? 512) * 1024 * 1024;
    bus?.subscribe(CATALOGUE_DELTA_TOPIC, (tenantId, msg) => {
      if (tenantId === null) this.dropAll('the cache bus reconnected');
      else if (msg) this.onDelta(tenantId, msg);
    });
  }

  onModuleInit(): void {
    // after-commit hook: a transaction that published a delta makes this instance's next reads wait for it
    if (!this.dataSource.subscribers.includes(this)) this.dataSource.subscribers.push(this);
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    const qr = event.queryRunner;
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
    const wait = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        e.changeWaiters.delete(id);
        // not received in time (a lost notification): this index cannot be proven current
        if (this.tenants.get(tenantId) === e && !e.applied.has(id)) this.drop(tenantId);
        resolve();
      }, SYNC_WAIT_MS);
      timer.unref();
      e.changeWaiters.set(id, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    const prev = e.sync;
    const next: Promise<void> = prev ? Promise.all([prev, wait]).then(() => undefined) : wait;
    e.sync = next;
    void next.then(() => {
      if (e.sync === next) e.sync = null;
    });
  }

  /** A change `id` is in the index (applied, or already in the build's snapshot). */
  private markApplied(e: Entry, id: unknown): void {
    if (typeof id !== 'number') return;
    e.applied.add(id);
    if (e.applied.size > 4096) e.applied.delete(e.applied.values().next().value!);
    e.changeWaiters.get(id)?.();
    e.changeWaiters.delete(id);
  }

  /** After a commit of a change whose id is unknown: reads wait until the index has the database's current version. */
  syncAfterCommit(tenantId: string): void {
    const e = this.tenants.get(tenantId);
    if (!e || (!e.index && !e.building)) return;
    const sync = (async () => {
      const [row] = await this.dataSource.query(`SELECT version FROM catalogue_versions WHERE tenant_id = $1`, [tenantId]);
      const target = Number(row?.version ?? 0);
      await this.waitFor(tenantId, e, target);
    })().catch((err: Error) => {
      this.logger.warn(`sync of ${tenantId} failed (${err.message}); dropping its index`);
      this.drop(tenantId);
    });
    const prev = e.sync;
    e.sync = prev ? Promise.all([prev, sync]).then(() => undefined) : sync;
    const mine = e.sync;
    void mine.then(() => {
      if (e.sync === mine) e.sync = null;
    });
  }

  private waitFor(tenantId: string, e: Entry, version: number): Promise<void> {
    if (e.index && e.index.version >= version) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        // not received in time (a lost notification): this index cannot be proven current
        if (this.tenants.get(tenantId) === e && (!e.index || e.index.version < version)) this.drop(tenantId);
        resolve();
      }, SYNC_WAIT_MS);
      timer.unref();
      e.waiters.push({
        version,
        done: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  // ------------------------------------------------------------------ tenants

  /** The tenant's index, current with every change this instance committed; built on first use. */
  async get(tenantId: string): Promise<TenantIndex> {
    for (let attempt = 0; ; attempt++) {
      let e = this.tenants.get(tenantId);
      if (!e) {
        e = { index: null, building: null, buffer: [], chain: Promise.resolve(), sync: null, waiters: [], applied: new Set(), changeWaiters: new Map(), bytes: 0 };
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

  private async build(tenantId: string, e: Entry): Promise<TenantIndex> {
    const started = Date.now();
    const idx = new TenantIndex(tenantId);
    const qr = this.dataSource.createQueryRunner('master');
    try {
      await qr.connect();
      await qr.startTransaction('REPEATABLE READ');
      // the build's one ordered statement sorts in memory rather than on disk (a cursor cannot use parallel workers)
      await qr.query(`SET LOCAL work_mem = '128MB'`);
      const [v] = await qr.query(`SELECT coalesce((SELECT version FROM catalogue_versions WHERE tenant_id = $1), 0) AS version`, [tenantId]);
      idx.version = Number(v.version);
      // on-hand of every stocked variant in one aggregate (not one sub-select per row)
      const onHand = new Map<string, number>();
      for (const r of (await qr.query(`SELECT variant_id, sum(delta)::float8 AS n FROM stock_movements WHERE tenant_id = $1 GROUP BY variant_id`, [tenantId])) as Array<{ variant_id: string; n: number }>) onHand.set(r.variant_id, r.n);
      let current: string | null = null;
      let rows: IndexRow[] = [];
      const flush = () => {
        if (current !== null) idx.putProduct(current, rows);
      };
      // one statement, streamed through a cursor BUILD_BATCH rows at a time (memory bounded while building)
      await qr.query(`DECLARE catalogue_index_build NO SCROLL CURSOR FOR SELECT ${ROW_JSON} ${ROW_FROM} WHERE vs.tenant_id = $1 ORDER BY vs.product_id, vs.position, vs.variant_id`, [tenantId]);
      for (;;) {
        const raw: Array<{ j: string }> = await qr.query(`FETCH ${BUILD_BATCH} FROM catalogue_index_build`);
        for (const r of raw) {
          const row = jsonRow(r.j, onHand);
          if (row.product_id !== current) {
            flush();
            current = row.product_id;
            rows = [];
          }
          rows.push(row);
        }
        if (raw.length < BUILD_BATCH) break;
      }
      flush();
      await qr.commitTransaction();
    } catch (err) {
      if (qr.isTransactionActive) await qr.rollbackTransaction().catch(() => undefined);
      if (this.tenants.get(tenantId) === e) this.tenants.delete(tenantId);
      throw err;
    } finally {
      await qr.release();
    }
    this.builds += 1;
    const bytes = idx.bytes();
    this.logger.log(`catalogue index of ${tenantId}: ${idx.alive} products, ${idx.vCount} variants, ${bytes} bytes (${Math.round(bytes / Math.max(1, idx.alive))} per product) in ${Date.now() - started} ms`);
    if (this.tenants.get(tenantId) !== e) return idx; // dropped meanwhile: the next read builds again
    e.index = idx;
    e.building = null;
    this.products.dropTenant(tenantId);
    const buffered = e.buffer.sort((a, b) => Number(a.v) - Number(b.v));
    e.buffer = [];
    for (const msg of buffered) this.enqueue(tenantId, e, msg);
    e.bytes = bytes;
    this.evict(tenantId);
    return idx;
  }

  private evict(keep: string): void {
    const size = (e: Entry) => e.bytes + (e.index?.resultsBytes ?? 0);
    let total = 0;
    for (const e of this.tenants.values()) total += size(e);
    for (const [id, e] of this.tenants) {
      if (total <= this.budgetBytes) break;
      if (id === keep || !e.index) continue;
      total -= size(e);
      this.drop(id);
    }
  }

  private markChanged(tenantId: string, productIds: string[] | null): void {
    const now = Date.now();
    if (this.changedAt.size > 50_000) for (const [k, at] of this.changedAt) if (now - at > 60_000) this.changedAt.delete(k);
    if (productIds === null) this.changedAt.set(`${tenantId}|*`, now);
    else for (const id of productIds) this.changedAt.set(`${tenantId}|${id}`, now);
  }

  /**
   * Whether any of these products changed within `withinMs` (or the whole tenant was rebuilt then): a replica may
   * not have replayed the change yet, so their JSON is read from the primary.
   */
  changedRecently(tenantId: string, productIds: string[], withinMs: number): boolean {
    const since = Date.now() - withinMs;
    if ((this.changedAt.get(`${tenantId}|*`) ?? 0) >= since) return true;
    return productIds.some((id) => (this.changedAt.get(`${tenantId}|${id}`) ?? 0) >= since);
  }

  private drop(tenantId: string): void {
    const e = this.tenants.get(tenantId);
    if (!e) return;
    this.markChanged(tenantId, null);
    this.tenants.delete(tenantId);
    for (const w of e.waiters) w.done();
    e.waiters = [];
    for (const done of e.changeWaiters.values()) done();
    e.changeWaiters.clear();
    this.products.dropTenant(tenantId);
  }

  private dropAll(reason: string): void {
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
    e.chain = e.chain.then(() => this.apply(tenantId, e, msg)).catch((err: Error) => {
      this.logger.warn(`delta of ${tenantId} failed (${err.message}); dropping its index`);
      this.drop(tenantId);
    });
  }

  private async apply(tenantId: string, e: Entry, msg: BusMessage): Promise<void> {
    const idx = e.index;
    if (!idx || this.tenants.get(tenantId) !== e) return;
    const v = Number(msg.v);
    if (!(v > idx.version)) {
      this.markApplied(e, msg.c); // already in the index (the build saw it)
      return;
    }
    if (v > idx.version + 1) {
      this.logger.warn(`catalogue version gap for ${tenantId} (${idx.version} → ${v}); rebuilding`);
      this.drop(tenantId);
      return;
    }
    if (msg.k === 'stock' && Array.isArray(msg.d)) {
      for (const [variantId, available, onHand] of msg.d as Array<[string, boolean, number]>) idx.setStock(variantId, available, Number(onHand));
      idx.stockVersion += 1;
    } else if (msg.k === 'products' && Array.isArray(msg.d)) {
      const ids = msg.d as string[];
      await this.reload(idx, ids);
      if (this.tenants.get(tenantId) !== e) return;
      idx.contentVersion += 1;
      idx.memo.clear();
      this.products.dropProducts(tenantId, ids);
      this.markChanged(tenantId, ids);
      if (idx.wantsCompaction) {
        this.drop(tenantId);
        return;
      }
      e.bytes = idx.bytes() - idx.resultsBytes;
    } else {
      this.drop(tenantId);
      return;
    }
    idx.version = v;
    this.markApplied(e, msg.c);
    if (typeof msg.at === 'number') this.lagMs = Math.max(0, Date.now() - msg.at);
    const still: Entry['waiters'] = [];
    for (const w of e.waiters) (w.version <= idx.version ? w.done() : still.push(w));
    e.waiters = still;
    if (msg.k === 'products') this.evict(tenantId);
  }

  /** Re-reads products from the primary and replaces them in the index (absent rows: no longer visible). */
  private async reload(idx: TenantIndex, productIds: string[]): Promise<void> {
    if (productIds.length === 0) return;
    const raw: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT ${ROW_COLUMNS}, ${ON_HAND} ${ROW_FROM} WHERE vs.tenant_id = $1 AND vs.product_id = ANY($2::uuid[]) ORDER BY vs.product_id, vs.position, vs.variant_id`,
      [idx.tenantId, productIds],
    );
    const rows = raw.map((r) => indexRow(r, Number(r.on_hand)));
    const byProduct = new Map<string, IndexRow[]>(productIds.map((id) => [id, []]));
    for (const r of rows) byProduct.get(r.product_id)?.push(r);
    for (const [id, list] of byProduct) idx.putProduct(id, list);
  }

  // ------------------------------------------------------------------ queries

  async search(ctx: RequestContext, req: CatalogueSearchRequest): Promise<CatalogueSearchResult> {
    const idx = await this.get(ctx.tenantId);
    const f = req.filters;
    const cur = ctx.activeCurrency;
    // the same question against the same catalogue content gets the same answer: recent answers are kept per index,
    // keyed by the content version (and the stock version when availability is filtered on), so a sale retires none
    // of them unless `available` is asked; a manual collection's picks change outside the catalogue: not kept
    const memoKey =
      req.scope?.type === 'manual'
        ? null
        : JSON.stringify([f.ids, f.collectionId, f.words, f.q ?? null, f.dims, f.priceMin, f.priceMax, f.available, f.onSale, req.scope, req.order, req.after, req.rows, req.facets, cur.rate, cur.precision, req.rank.version]);
    const memoVersion = `${idx.contentVersion}/${f.available ? idx.stockVersion : ''}`;
    if (memoKey !== null) {
      const hit = idx.results.get(memoKey);
      if (hit && hit.version === memoVersion) {
        idx.results.delete(memoKey);
        idx.results.set(memoKey, hit);
        return hit.value;
      }
    }
    const result = await this.compute(ctx, idx, req);
    if (memoKey !== null && memoVersion === `${idx.contentVersion}/${f.available ? idx.stockVersion : ''}`) {
      // bounded by count and by bytes (an answer with facets weighs its values, named and serialized once per language)
      const bytes = 512 + result.rows.length * 160 + (result.facets ?? []).reduce((n, g) => n + g.values.length * 200, 0);
      const old = idx.results.get(memoKey);
      if (old) idx.resultsBytes -= old.bytes;
      idx.results.set(memoKey, { version: memoVersion, value: result, bytes });
      idx.resultsBytes += bytes;
      for (const [k, r] of idx.results) {
        if (idx.results.size <= 512 && idx.resultsBytes <= RESULTS_MAX_BYTES) break;
        idx.results.delete(k);
        idx.resultsBytes -= r.bytes;
      }
      if (this.tenants.size > 1) this.evict(ctx.tenantId);
    }
    return result;
  }

  private async compute(ctx: RequestContext, idx: TenantIndex, req: CatalogueSearchRequest): Promise<CatalogueSearchResult> {
    const f = req.filters;
    const cur = ctx.activeCurrency;
    let allowed: Uint8Array | null = null;
    const restrict = (slots: Iterable<number>) => {
      const next = new Uint8Array(idx.pCount);
      for (const s of slots) if (allowed === null || allowed[s]) next[s] = 1;
      allowed = next;
    };
    if (f.ids) restrict(f.ids.map((id) => idx.pIndex.get(id)).filter((s): s is number => s !== undefined));
    let pos: Map<number, number> | undefined;
    if (req.scope) {
      const scoped = await this.scopeProducts(ctx, idx, req.scope);
      restrict(scoped.keys());
      if (req.scope.type === 'manual') pos = scoped;
    }
    const dims = new Map<number, number[]>();
    for (const k of FACET_KEYS) {
      if (k === 'categories' || f.dims[k].length === 0) continue;
      dims.set(DIM[k], f.dims[k].map((id) => idx.codeOf.get(id) ?? -1));
    }
    const text = await this.textMatches(ctx, idx, f.words, f.q ?? '');
    const q: IndexQuery = {
      allowed,
      categories: f.dims.categories.length > 0 ? f.dims.categories.map((id) => idx.codeOf.get(id) ?? -1) : null,
      dims,
      priceMin: f.priceMin,
      priceMax: f.priceMax,
      available: f.available,
      onSale: f.onSale,
      text,
      prices: idx.prices(cur.rate, cur.precision),
    };
    const [column, dir] = ORDER_COLUMN[req.order];
    const res = idx.search(q, { column, dir, after: req.after, n: req.rows, pos, facets: req.facets });
    let facets: CatalogueSearchResult['facets'] = null;
    if (res.counts) {
      const counts = res.counts;
      const order = this.rankedCodes(idx, req.rank);
      facets = [];
      FACET_KEYS.forEach((key, d) => {
        const values: Array<{ id: string; count: number }> = [];
        for (const c of order[d]) if (counts[c] > 0) values.push({ id: idx.codeIds[c], count: counts[c] });
        if (values.length > 0) facets!.push({ key, values });
      });
    }
    const rows = res.rows.map((r) => ({
      id: r.id,
      position: r.position,
      variantIds: text ? idx.matchingVariants(r.slot, q).map((v) => idx.vIds[v]) : null,
    }));
    return { rows, facets, priceRange: { min: res.min, max: res.max } };
  }

  /** Codes of each dimension ordered by rank then id, memoized per rank version and dictionary size. */
  private rankedCodes(idx: TenantIndex, rank: CatalogueSearchRequest['rank']): number[][] {
    const key = `rank|${rank.version}|${idx.codeIds.length}`;
    const hit = idx.memo.get(key);
    if (hit) return hit.value as number[][];
    for (const k of [...idx.memo.keys()]) if (k.startsWith('rank|')) idx.memo.delete(k);
    const order = idx.dimCodes.map((codes) =>
      [...codes].sort((a, b) => rank.of(idx.codeIds[a]) - rank.of(idx.codeIds[b]) || (idx.codeIds[a] < idx.codeIds[b] ? -1 : idx.codeIds[a] > idx.codeIds[b] ? 1 : 0)),
    );
    idx.memo.set(key, { version: idx.contentVersion, value: order, bytes: idx.codeIds.length * 8 });
    return order;
  }

  /**
   * Variants matching the search: a query that is exactly a SKU (case-insensitive) matches only the variants with
   * that SKU; otherwise each word as a prefix or by trigram similarity in PostgreSQL, memoized per content version.
   */
  private async textMatches(ctx: RequestContext, idx: TenantIndex, words: string[], raw: string): Promise<{ slots: Int32Array; rel: Float64Array } | null> {
    const sku = raw.trim().toLowerCase();
    const bySku = sku ? idx.skuIndex.get(sku) : undefined;
    if (bySku && bySku.length > 0) return { slots: Int32Array.from(bySku), rel: new Float64Array(bySku.length).fill(1) };
    if (words.length === 0) return null;
    const key = `text|${words.join(' ')}`;
    const hit = idx.memo.get(key);
    if (hit && hit.version === idx.contentVersion) return hit.value as { slots: Int32Array; rel: Float64Array };
    const version = idx.contentVersion;
    const params = new Params();
    const t = params.add(ctx.tenantId);
    const rel = words.map((w) => `word_similarity(${params.add(w)}, vs.search_text)`).join(' + ');
    const rows: Array<{ variant_id: string; rel: number }> = await this.dataSource.query(
      `SELECT vs.variant_id, round((${rel})::numeric, 6)::float8 AS rel FROM variant_search vs WHERE vs.tenant_id = ${t} AND ${words.map((w) => textClause(params, w)).join(' AND ')}`,
      params.values,
    );
    const slots: number[] = [];
    const rels: number[] = [];
    for (const r of rows) {
      const s = idx.vIndex.get(r.variant_id);
      if (s === undefined) continue;
      slots.push(s);
      rels.push(r.rel);
    }
    const value = { slots: Int32Array.from(slots), rel: Float64Array.from(rels) };
    if (idx.contentVersion === version) this.remember(idx, key, value, slots.length * 12 + 64);
    return value;
  }

  /** Products of a collection: a manual one's picks with their positions (read each time), a smart one's rules (memoized per content version). */
  private async scopeProducts(ctx: RequestContext, idx: TenantIndex, scope: NonNullable<CatalogueSearchRequest['scope']>): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (scope.type === 'manual') {
      const rows: Array<{ product_id: string; pos: number }> = await this.dataSource.query(
        `SELECT product_id, min(position)::float8 AS pos FROM collection_products WHERE tenant_id = $1 AND collection_id = $2 GROUP BY product_id`,
        [ctx.tenantId, scope.id],
      );
      for (const r of rows) {
        const s = idx.pIndex.get(r.product_id);
        if (s !== undefined) out.set(s, r.pos);
      }
      return out;
    }
    const key = `smart|${scope.rulesJson ?? ''}`;
    const hit = idx.memo.get(key);
    let slots: Int32Array;
    if (hit && hit.version === idx.contentVersion) slots = hit.value as Int32Array;
    else {
      const version = idx.contentVersion;
      const params = new Params();
      const t = params.add(ctx.tenantId);
      const rows: Array<{ product_id: string }> = await this.dataSource.query(`SELECT ps.product_id FROM product_search ps WHERE ps.tenant_id = ${t} AND ${collectionClause(params, t, scope, 'ps')}`, params.values);
      slots = Int32Array.from(rows.map((r) => idx.pIndex.get(r.product_id)).filter((s): s is number => s !== undefined));
      if (idx.contentVersion === version) this.remember(idx, key, slots, slots.byteLength + 64);
    }
    for (const s of slots) out.set(s, 0);
    return out;
  }

  private remember(idx: TenantIndex, key: string, value: unknown, bytes: number): void {
    if (idx.memo.size >= 256) idx.memo.delete(idx.memo.keys().next().value!);
    idx.memo.set(key, { version: idx.contentVersion, value, bytes });
  }

  async visible(ctx: RequestContext, productIds: string[]): Promise<Set<string>> {
    const idx = await this.get(ctx.tenantId);
    return new Set(productIds.filter((id) => {
      const s = idx.pIndex.get(id);
      return s !== undefined && idx.pAlive[s] === 1;
    }));
  }

  async stock(ctx: RequestContext, variantIds: string[]): Promise<Map<string, VariantStock>> {
    const idx = await this.get(ctx.tenantId);
    const out = new Map<string, VariantStock>();
    for (const id of variantIds) {
      const v = idx.vIndex.get(id);
      if (v !== undefined) out.set(id, { available: idx.vAvail[v] === 1, onHand: idx.vOnHand[v] });
    }
    return out;
  }

  stats(): { tenants: number; bytes: number; rebuilds: number; deltaLagMs: number } {
    let bytes = 0;
    let tenants = 0;
    for (const e of this.tenants.values()) {
      if (!e.index) continue;
      tenants += 1;
      bytes += e.bytes + e.index.resultsBytes;
    }
    return { tenants, bytes, rebuilds: this.builds, deltaLagMs: this.lagMs };
  }
}
