import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { RequestContext } from '../../common/context/request-context.js';
import { CacheBus } from '../../common/cluster/cache-bus.js';
import { SearchIndexService } from '../../catalogue/index.js';
import { OnDomainEvent, type DomainEvent } from '../../events/index.js';
import { CataloguePriceRule, type CatalogueSalePrice } from '../../extensions/index.js';
import { CataloguePromotionsRepository } from '../promotions.repository.js';
import type { LineSelector } from '../engine/types.js';
import { compileCatalogue, isCataloguePromotion, salePricesInSlices, unionOfSelectors, type StoredPromotion } from './catalogue-pricing.js';

/** Promotions written in one transaction (as they were before and after each write), repriced together. */
export type PromotionWrites = Array<StoredPromotion | null>;

/** Cache-bus topic: a shop's promotions changed; every instance re-arms its timers on the next boundary. */
export const PROMOTION_TIMERS_TOPIC = 'promotions.timers';
/** Longest sleep of the boundary timer: it re-reads the boundaries at least this often (a lost notification heals). */
const MAX_SLEEP_MS = 60_000;
/** At boot, shops with a boundary this recent are repriced (an instance that was down at a boundary catches up). */
const CATCH_UP_MS = 7 * 24 * 3600_000;

/**
 * Catalogue promotions as sale prices (issue 32), the built-in `CataloguePriceRule`: the catalogue asks it for the
 * sale prices of the products whose search rows it rebuilds (catalogue-pricing.ts decides them).
 *
 * Kept current without a restart, never inside an admin request: a write of a promotion (create, update, delete,
 * import) emits `promotion.created|updated|deleted` through the outbox, and this class's handlers of those events
 * reprice, after the commit and in a job of their own (retried on failure), the products the promotion reaches now
 * and those whose stored sale price it took part in (`SearchIndexService.reprice`: those whose sale price changes
 * get their rows, their price history and a delta to every instance's index). Every instance sleeps until the next
 * `starts_at` / `ends_at` of any shop's promotion, then reprices the products of the promotions whose boundary it
 * crossed (all of them since its last wake; at boot, the last 7 days'). All instances wake at a boundary; the
 * reprice is serialized per shop by an advisory lock, so the first does the work and the others find it done. The
 * timers are re-armed on every instance by a cache-bus message at each promotion write, and re-read at least every
 * minute.
 */
@Injectable()
export class CataloguePromotionPrices extends CataloguePriceRule implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('CataloguePromotions');
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private arming: Promise<void> | null = null;
  /** Boundaries up to this instant (ms) have been handled by this instance. */
  private lastWake = Date.now();

  constructor(
    private readonly repo: CataloguePromotionsRepository,
    private readonly search: SearchIndexService,
    private readonly adapterHost: HttpAdapterHost,
    @Optional() private readonly bus?: CacheBus,
  ) {
    super();
  }

  async salePrices(ctx: RequestContext, productIds: string[] | null): Promise<CatalogueSalePrice[]> {
    const at = new Date();
    const promotions = (await this.repo.candidates(ctx, at)).filter(isCataloguePromotion);
    if (promotions.length === 0) return [];
    const precision = await this.repo.defaultPrecision(ctx);
    const compiled = compileCatalogue(promotions, at, precision);
    if (!compiled) return [];
    // in slices: the event loop keeps answering reads while a boundary prices thousands of variants
    const prices = await salePricesInSlices(compiled, await this.repo.variants(ctx, productIds), precision);
    return prices.map((p) => ({ variantId: p.variantId, productId: p.productId, gross: p.gross, sourceIds: p.promotionIds }));
  }

  /**
   * A promotion was written in `tx` (before: as it was, null when created; after: null when deleted): when either is
   * a catalogue promotion, every instance re-arms its timers at commit. The repricing itself is the event handlers'
   * (below), after the commit; an import passes `batch` and re-arms once for all its writes (`rearm`).
   */
  async written(tx: RequestContext, before: StoredPromotion | null, after: StoredPromotion | null, batch?: PromotionWrites): Promise<void> {
    if (batch) {
      batch.push(before, after);
      return;
    }
    await this.rearm(tx, [before, after]);
  }

  /** Every instance re-reads the boundaries at commit when one of these promotions (as they were and are) is a catalogue one. */
  async rearm(tx: RequestContext, promotions: PromotionWrites): Promise<void> {
    if (!promotions.some((p) => p && isCataloguePromotion(p))) return;
    if (this.bus) await this.bus.publish(PROMOTION_TIMERS_TOPIC, tx.tenantId, tx.manager);
    else this.arm();
  }

  @OnDomainEvent('promotion.created')
  async created(event: DomainEvent<'promotion.created'>, ctx: RequestContext): Promise<void> {
    await this.repriceWritten(ctx, event.payload.promotion.id);
  }

  @OnDomainEvent('promotion.updated')
  async updated(event: DomainEvent<'promotion.updated'>, ctx: RequestContext): Promise<void> {
    await this.repriceWritten(ctx, event.payload.promotion.id);
  }

  @OnDomainEvent('promotion.deleted')
  async deleted(event: DomainEvent<'promotion.deleted'>, ctx: RequestContext): Promise<void> {
    await this.repriceWritten(ctx, event.payload.promotion.id);
  }

  @OnDomainEvent('collection.updated')
  async collectionUpdated(event: DomainEvent<'collection.updated'>, ctx: RequestContext): Promise<void> {
    await this.repriceCollection(ctx, event.payload.collection.id);
  }

  @OnDomainEvent('collection.deleted')
  async collectionDeleted(event: DomainEvent<'collection.deleted'>, ctx: RequestContext): Promise<void> {
    await this.repriceCollection(ctx, event.payload.collection.id);
  }

  /** A collection changed (a smart collection's rules, say): the catalogue promotions naming it are repriced. */
  async repriceCollection(ctx: RequestContext, collectionId: string): Promise<number> {
    const naming = (await this.repo.candidates(ctx, new Date())).filter(
      (p) =>
        isCataloguePromotion(p) &&
        p.conditions.some((c) => c.type === 'lines' && c.selector.some((m) => m.type === 'collection' && m.ids.includes(collectionId))),
    );
    let n = 0;
    for (const p of naming) n += await this.repriceWritten(ctx, p.id);
    return n;
  }

  /**
   * After a write of promotion `id` (in the event handler's job): reprices the products it reaches as it is now
   * (every product for a catalogue promotion without a `lines` condition) and those whose stored sale price it took
   * part in (as it was). Nothing for a promotion that is not a catalogue one and priced nothing. Reads the current
   * state, so jobs of several writes of one promotion, run in any order, end in the same prices.
   */
  async repriceWritten(ctx: RequestContext, id: string): Promise<number> {
    const now = await this.repo.stored(ctx, id);
    const priced = await this.repo.productsPricedBy(ctx, id);
    const reaches = now !== null && isCataloguePromotion(now);
    if (!reaches && priced.length === 0) return 0;
    const scope = reaches ? await this.scopeOf(ctx, [now]) : [];
    return this.search.reprice(ctx, scope === null ? null : [...new Set([...scope, ...priced])]);
  }

  /** Starts the timers with the HTTP service (a CLI context has none). */
  onApplicationBootstrap(): void {
    if (!this.adapterHost.httpAdapter) return;
    this.bus?.subscribe(PROMOTION_TIMERS_TOPIC, () => this.arm());
    this.lastWake = Date.now();
    void this.catchUp().finally(() => this.arm());
  }

  beforeApplicationShutdown(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * The products a reprice for these promotions must look at: those their first `lines` condition can match (a
   * variant a catalogue promotion reduces matches every one); null (every product) for one without such a condition.
   */
  private async scopeOf(ctx: RequestContext, promotions: Array<StoredPromotion | null>): Promise<string[] | null> {
    const selectors: LineSelector[] = [];
    for (const p of promotions) {
      if (!p || !isCataloguePromotion(p)) continue;
      const lines = p.conditions.find((c) => c.type === 'lines');
      if (!lines || lines.type !== 'lines') return null;
      selectors.push(lines.selector);
    }
    // one statement for all of them (a boundary of 900 promotions was 900 statements in a row)
    return selectors.length ? this.repo.productsMatching(ctx, unionOfSelectors(selectors)) : [];
  }

  /** Reprices, per shop, the products of the promotions that started or ended in `(since, until]`. */
  private async crossed(since: Date, until: Date): Promise<void> {
    for (const [tenantId, promotions] of await this.repo.crossed(since, until)) {
      if (this.stopped) return;
      try {
        const ctx = RequestContext.forTenant(tenantId, 'promotion-boundary');
        const n = await this.search.reprice(ctx, await this.scopeOf(ctx, promotions));
        if (n > 0) this.logger.log(`shop ${tenantId}: ${n} products repriced at a promotion boundary`);
      } catch (err) {
        this.logger.warn(`shop ${tenantId}: repricing at a promotion boundary failed: ${(err as Error).message}`);
      }
    }
  }

  /** Reprices what promotions started or ended recently touch (this instance may have slept through a boundary). */
  private async catchUp(): Promise<void> {
    try {
      await this.crossed(new Date(Date.now() - CATCH_UP_MS), new Date(this.lastWake));
    } catch (err) {
      this.logger.warn(`catching up on promotion boundaries failed: ${(err as Error).message}`);
    }
  }

  /** Sleeps until the next boundary of any shop (at most a minute), then reprices the shops whose boundary passed. */
  arm(): void {
    if (this.stopped) return;
    const run = async () => {
      const boundaries = await this.repo.nextBoundaries(new Date());
      if (this.stopped) return;
      const next = boundaries.reduce((m, b) => Math.min(m, b.at.getTime()), Date.now() + MAX_SLEEP_MS);
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => void this.wake(), Math.max(0, next - Date.now()));
      this.timer.unref();
    };
    const previous = this.arming ?? Promise.resolve();
    this.arming = previous.then(run).catch((err: Error) => {
      this.logger.warn(`arming the promotion timers failed: ${err.message}`);
      if (!this.stopped) this.timer = setTimeout(() => this.arm(), 5_000).unref();
    });
  }

  private async wake(): Promise<void> {
    this.timer = null;
    const now = Date.now();
    const since = this.lastWake;
    this.lastWake = now;
    try {
      await this.crossed(new Date(since), new Date(now));
    } catch (err) {
      this.logger.warn(`repricing at promotion boundaries failed: ${(err as Error).message}`);
    }
    this.arm();
  }
}
