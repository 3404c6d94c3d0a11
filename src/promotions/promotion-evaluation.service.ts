import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { VariantPromotionFactsRow } from '../catalogue/index.js';
import type { CurrencyInfo, RequestContext } from '../common/context/request-context.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { Extensions, OrderHistory } from '../extensions/index.js';
import type { PricedLine } from '../pricing/index.js';
import { compilePromotions, promotionClass, type CompiledPromotions } from './engine/compile.js';
import { evaluatePromotions } from './engine/evaluate.js';
import type { EngineCart, EngineHooks, EngineLine, EngineResult, LineFacet, PromotionDefinition } from './engine/types.js';
import type { Promotion } from './entities/promotion.entity.js';
import { parseActions, parseConditions, RuleError, toEngineRules } from './promotion-rules.js';
import { CustomerGroupsRepository, PromotionUsagesRepository } from './promotions.repository.js';
import { PromotionsService } from './promotions.service.js';
import { invalidateAfterCommit, PromotionUsageCommits } from './promotion-usage-commits.js';

/** The catalogue's facts of a variant that promotions match lines by (`variantPromotionFacts` of the catalogue). */
export type VariantFacts = VariantPromotionFactsRow;

export interface PromotionRequest {
  currency: CurrencyInfo;
  /** The signed-in shopper (or the checkout's customer); null for a guest. */
  customerId: string | null;
  /** A guest's email (checkout): `usage_limit_per_customer` counts a guest by it. */
  email?: string | null;
  /** A code on the cart or checkout that names a promotion's code rather than a discount code. */
  codes: string[];
  /** A discount code applies: promotions not combining with discount codes stand aside. */
  hasDiscountCode: boolean;
  /** The checkout's delivery (null in the cart: shipping conditions and actions wait for the checkout); `zones` loads the keys and ids of the zones containing the address. */
  shipping: { methodId: string | null; country: string | null; zones: () => Promise<string[]> } | null;
  /** Loads the facts of the lines' variants (called only when some promotion is active). */
  facts: (variantIds: string[]) => Promise<VariantFacts[]>;
  variantIds: string[];
}

/** A cart's or checkout's promotions, ready: `promote` evaluates (once per distinct input), `last` is its answer. */
export interface PreparedPromotions {
  promote: (lines: readonly PricedLine[], shippingAmount: number | null) => EngineResult;
  last(): EngineResult | null;
}

interface TenantPromotions {
  /** The promotions live from loading to `until` (none starts or ends in between). */
  live: Promotion[];
  /** Of `live`, those with a `usage_limit_per_customer` (the buyer's uses of them are read per request). */
  limited: Promotion[];
  /** When the set changes by itself (a start or end passes), at the latest 30 s after loading (other processes' edits). */
  until: number;
  /** What the live promotions need loaded per request. */
  needs: { groups: boolean; firstOrder: boolean; hooks: boolean; zones: boolean };
  byCurrency: Map<string, CompiledPromotions>;
  /** Answers by everything they depend on (see `prepare`), newest last; dropped with the entry. */
  results: Map<string, EngineResult>;
}

const TTL_MS = 30_000;
/** Variants whose facts a process keeps per shop (beyond it the shop's cache starts over). */
const FACTS_CAP = 50_000;
/** Engine answers a process keeps per shop (the oldest goes first). */
const RESULTS_CAP = 256;
let factsGeneration = 0;
const usageLimitReached = (name: string) => AppError.unprocessable(`the promotion "${name}" has reached its usage limit`, 'promotion_usage_limit_reached');

/** The buyer key `usage_limit_per_customer` counts by: the customer id, else the lower-cased email. */
export function buyerKey(customerId: string | null, email: string | null | undefined): string | null {
  if (customerId) return `customer:${customerId}`;
  const e = email?.trim().toLowerCase();
  return e ? `email:${e}` : null;
}

/**
 * Runs the promotions engine for a cart or a checkout (issue 32). The shop's current promotions are loaded and
 * compiled once per currency and cached per tenant until a start or end passes, an admin change (`invalidate`) or a
 * completion, and at most 30 s (so another process's edits show); the lines' catalogue facts are cached per variant
 * for 30 s too. Per request only what the active promotions need is loaded: the facts of variants not cached, the shopper's groups, whether the shopper ordered before, the buyer's uses
 * of promotions limited per customer, the extensions' hooks. A shop without an active promotion gets null: its
 * answers stay exactly as without promotions.
 */
@Injectable()
export class PromotionEvaluation {
  private readonly cache = new Map<string, TenantPromotions>();
  /**
   * Bumped by every `invalidate`: a read that began before a change and ends after it must not cache what it read
   * (the change's invalidation came first, so that stale answer would stay for up to 30 s).
   */
  private readonly generations = new Map<string, number>();
  /** The lines' catalogue facts by shop and variant, for at most 30 s (a catalogue edit reaches promotions within it). */
  private readonly factsCache = new Map<string, { until: number; generation: number; byVariant: Map<string, VariantFacts> }>();
  private readonly logger = new Logger('Promotions');
  /** Stored promotions already reported as unreadable (id and problem), so each is logged once per process. */
  private readonly reported = new Set<string>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly usages: PromotionUsagesRepository,
    private readonly groups: CustomerGroupsRepository,
    private readonly promotions: PromotionsService,
    private readonly extensions: Extensions,
    commits: PromotionUsageCommits,
  ) {
    promotions.onChange((tenantId) => this.invalidate(tenantId));
    commits.bind((tenantId) => this.invalidate(tenantId));
  }

  invalidate(tenantId: string): void {
    this.cache.delete(tenantId);
    this.generations.set(tenantId, (this.generations.get(tenantId) ?? 0) + 1);
  }

  /**
   * The stored promotions the admin API's parsers accept. A row they refuse (written by SQL or by an older version:
   * the API never stores one) is left out of every evaluation and logged once, instead of failing every cart of the
   * shop with a 500.
   */
  private readable(ctx: RequestContext, rows: Promotion[]): Promotion[] {
    return rows.filter((p) => {
      const problem = storedRuleProblem(p);
      if (problem === null) return true;
      const key = `${p.id}|${problem}`;
      if (!this.reported.has(key)) {
        this.reported.add(key);
        this.logger.warn(`shop ${ctx.tenantId}: promotion ${p.id} ("${p.name}") is left out of carts and checkouts: ${problem}`);
      }
      return false;
    });
  }

  /** The active promotions of the shop now (enabled, started, not ended, not used up). */
  async active(ctx: RequestContext): Promise<Promotion[]> {
    return (await this.entry(ctx)).live;
  }

  private async entry(ctx: RequestContext): Promise<TenantPromotions> {
    const now = Date.now();
    let entry = this.cache.get(ctx.tenantId);
    if (!entry || entry.until <= now) {
      const generation = this.generations.get(ctx.tenantId) ?? 0;
      const rows = this.readable(ctx, await this.usages.current(ctx));
      let until = now + TTL_MS;
      for (const r of rows) {
        if (r.startsAt && r.startsAt.getTime() > now) until = Math.min(until, r.startsAt.getTime());
        if (r.endsAt && r.endsAt.getTime() > now) until = Math.min(until, r.endsAt.getTime());
      }
      const live = rows.filter((r) => isLive(r, now));
      const uses = (type: string) => live.some((p) => p.conditions.some((c) => c.type === type));
      const needs = {
        groups: uses('customer_group'),
        firstOrder: uses('first_order'),
        hooks: uses('custom') || live.some((p) => p.actions.some((a) => a.type === 'custom')),
        zones: uses('shipping_zone') || live.some((p) => p.actions.some((a) => a.type === 'shipping' && !!a.zones?.length)),
      };
      const limited = live.filter((p) => p.usageLimitPerCustomer !== null);
      entry = { live, limited, until, needs, byCurrency: new Map(), results: new Map() };
      if ((this.generations.get(ctx.tenantId) ?? 0) === generation) this.cache.set(ctx.tenantId, entry);
    }
    return entry;
  }

  /** The active promotion whose code this is (any case), else null. */
  async byCode(ctx: RequestContext, code: string): Promise<Promotion | null> {
    const c = code.trim().toUpperCase();
    return (await this.active(ctx)).find((p) => p.code?.toUpperCase() === c) ?? null;
  }

  async prepare(ctx: RequestContext, req: PromotionRequest): Promise<PreparedPromotions | null> {
    const entry = await this.entry(ctx);
    const { live, limited, needs } = entry;
    if (live.length === 0) return null;
    const buyer = buyerKey(req.customerId, req.email);
    const exhausted = new Set<string>();
    if (buyer && limited.length) {
      const used = await this.usages.usesBy(
        ctx,
        limited.map((p) => p.id),
        buyer,
      );
      for (const p of limited) if ((used.get(p.id) ?? 0) >= p.usageLimitPerCustomer!) exhausted.add(p.id);
    }
    let compiled: CompiledPromotions;
    if (exhausted.size)
      compiled = compile(
        live.filter((p) => !exhausted.has(p.id)),
        req.currency,
      );
    else {
      const cached = entry.byCurrency.get(req.currency.id);
      compiled = cached ?? compile(live, req.currency);
      if (!cached) entry.byCurrency.set(req.currency.id, compiled);
    }
    const [{ byVariant, generation }, groupIds, ordered, hooks, zones] = await Promise.all([
      this.factsOf(ctx.tenantId, req),
      req.customerId && needs.groups ? this.groups.groupIdsOf(ctx, req.customerId) : Promise.resolve([] as string[]),
      req.customerId && needs.firstOrder ? this.hasOrdered(ctx, req.customerId) : Promise.resolve(false),
      needs.hooks ? this.promotions.hooks(ctx, { customerId: req.customerId }) : Promise.resolve({} as EngineHooks),
      req.shipping && needs.zones ? req.shipping.zones() : Promise.resolve([] as string[]),
    ]);
    // the engine is pure: its answer is shared by the reads of the same input while this entry and these facts live
    // (not with an extension's hooks, whose conditions may read anything; not when a per-customer limit removed some)
    const shared = !needs.hooks && exhausted.size === 0 ? entry.results : null;
    const fixed = JSON.stringify([
      req.currency.id,
      generation,
      req.customerId,
      groupIds,
      ordered,
      req.codes,
      req.hasDiscountCode,
      req.shipping ? [req.shipping.methodId, req.shipping.country, zones] : null,
    ]);
    let memo: { key: string; result: EngineResult } | null = null;
    const promote = (lines: readonly PricedLine[], shippingAmount: number | null): EngineResult => {
      const key = `${fixed};${shippingAmount};${lines.map((l) => `${l.variantId}:${l.productId}:${l.quantity}:${l.unit}:${l.line}`).join(',')}`;
      if (memo?.key === key) return memo.result;
      const known = shared?.get(key);
      if (known) {
        memo = { key, result: known };
        return known;
      }
      const cart: EngineCart = {
        lines: lines.map((l) => engineLine(l, byVariant.get(l.variantId))),
        customer: req.customerId ? { id: req.customerId, groupIds, firstOrder: !ordered } : null,
        guestFirstOrder: false,
        shipping:
          req.shipping && shippingAmount !== null ? { methodId: req.shipping.methodId, country: req.shipping.country, zones, amount: shippingAmount } : null,
        codes: req.codes,
        hasDiscountCode: req.hasDiscountCode,
      };
      memo = { key, result: deepFreeze(evaluatePromotions(compiled, cart, hooks)) };
      if (shared) {
        if (shared.size >= RESULTS_CAP) shared.delete(shared.keys().next().value!);
        shared.set(key, memo.result);
      }
      return memo.result;
    };
    return { promote, last: () => memo?.result ?? null };
  }

  /**
   * At order completion, in its transaction: one more use of each applied promotion, under the promotion's row lock
   * (so concurrent completions serialize on it): past `usage_limit`, or past `usage_limit_per_customer` for this
   * buyer, the completion fails with 422 `promotion_usage_limit_reached` and rolls back. Then one usage row each.
   */
  async redeem(tx: RequestContext, orderId: string, promotionIds: string[], customerId: string | null, email: string | null): Promise<void> {
    const ids = [...new Set(promotionIds)];
    if (ids.length === 0) return;
    const taken = await this.usages.takeUses(tx, ids);
    if (taken.length < ids.length) throw AppError.unprocessable('a promotion of this checkout no longer exists', 'promotion_unavailable');
    for (const t of taken) if (t.usage_limit !== null && t.times_used > t.usage_limit) throw usageLimitReached(t.name);
    const buyer = buyerKey(customerId, email);
    const perBuyer = taken.filter((t) => t.usage_limit_per_customer !== null);
    if (buyer && perBuyer.length) {
      const used = await this.usages.usesBy(
        tx,
        perBuyer.map((t) => t.id),
        buyer,
      );
      for (const t of perBuyer) if ((used.get(t.id) ?? 0) >= t.usage_limit_per_customer!) throw usageLimitReached(t.name);
    }
    await this.usages.recordUses(tx, orderId, ids, buyer);
    // a promotion with a usage_limit may be used up now: reload now and again once this commits (a read in between
    // would keep the counts from before it; the others' counts do not change what is active)
    if (taken.some((t) => t.usage_limit !== null)) {
      this.invalidate(tx.tenantId);
      invalidateAfterCommit(tx.manager?.queryRunner, tx.tenantId);
    }
  }

  /**
   * At completion, in its transaction: the buyer's last read showed these promotions and the pricing now no longer
   * applies them, so the completion is refused (no order at a total not shown; the buyer's next read shows the new
   * total and records it): 422 `promotion_usage_limit_reached` when one is used up (or by this buyer), else
   * `promotion_unavailable` (ended, disabled, deleted, its conditions no longer holding).
   */
  async refuseDropped(tx: RequestContext, promotionIds: string[], customerId: string | null, email: string | null): Promise<never> {
    const rows = await this.usages.usageOf(tx, promotionIds);
    for (const r of rows) if (r.usage_limit !== null && r.times_used >= r.usage_limit) throw usageLimitReached(r.name);
    const buyer = buyerKey(customerId, email);
    const perBuyer = rows.filter((r) => r.usage_limit_per_customer !== null);
    const used =
      buyer && perBuyer.length
        ? await this.usages.usesBy(
            tx,
            perBuyer.map((r) => r.id),
            buyer,
          )
        : new Map<string, number>();
    for (const r of perBuyer) if ((used.get(r.id) ?? 0) >= r.usage_limit_per_customer!) throw usageLimitReached(r.name);
    throw AppError.unprocessable(
      rows.length
        ? `the promotion "${rows[0].name}" no longer applies to this checkout: read the checkout again for its new total`
        : 'a promotion of this checkout no longer exists: read the checkout again for its new total',
      'promotion_unavailable',
    );
  }

  /**
   * The facts of the request's variants: cached ones, the others loaded in one statement. A variant's facts do not
   * change within a `generation` (a new one starts when the cache does), so answers are shared within it.
   */
  private async factsOf(tenantId: string, req: PromotionRequest): Promise<{ byVariant: Map<string, VariantFacts>; generation: number }> {
    const now = Date.now();
    let cached = this.factsCache.get(tenantId);
    if (!cached || cached.until <= now || cached.byVariant.size > FACTS_CAP) {
      cached = { until: now + TTL_MS, generation: ++factsGeneration, byVariant: new Map() };
      this.factsCache.set(tenantId, cached);
    }
    const known = cached.byVariant;
    const missing = req.variantIds.filter((id) => !known.has(id));
    if (missing.length) for (const f of await req.facts(missing)) known.set(f.variant_id, f);
    return { byVariant: known, generation: cached.generation };
  }

  private async hasOrdered(ctx: RequestContext, customerId: string): Promise<boolean> {
    const history = this.extensions.one(OrderHistory);
    return history ? history.customerHasOrdered(managerOf(ctx, this.dataSource), ctx.tenantId, customerId) : false;
  }
}

/** An answer shared between requests is read only: a caller writing into it fails loudly instead of changing others'. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}

/** Why the admin API would refuse this stored promotion's rules (the message of its parsers), null when it would not. */
export function storedRuleProblem(p: Pick<Promotion, 'conditions' | 'actions'>): string | null {
  try {
    const rules = { conditions: parseConditions(p.conditions), actions: parseActions(p.actions) };
    return promotionClass(rules) ? null : 'actions must all be of one kind: product (lines), order or shipping';
  } catch (err) {
    if (err instanceof RuleError) return err.message;
    throw err;
  }
}

function isLive(p: Promotion, now: number): boolean {
  return (!p.startsAt || p.startsAt.getTime() <= now) && (!p.endsAt || p.endsAt.getTime() > now);
}

/** The stored promotions as the engine reads them, money in the currency's minor units; a code becomes a condition. */
export function compile(rows: readonly Promotion[], currency: Pick<CurrencyInfo, 'rate' | 'precision'>): CompiledPromotions {
  const defs: PromotionDefinition[] = rows.map((p) => {
    const rules = toEngineRules(p.conditions, p.actions, currency.precision, currency.rate);
    return {
      id: p.id,
      name: p.name,
      priority: p.priority,
      combinesWith: p.combinesWith,
      conditions: p.code ? [...rules.conditions, { type: 'code', code: p.code }] : rules.conditions,
      actions: rules.actions,
    };
  });
  return compilePromotions(defs);
}

/** A priced line with its variant's facts (none when the variant is gone: it matches by its ids only). */
export function engineLine(l: PricedLine, f: VariantFacts | undefined): EngineLine {
  const facets: Partial<Record<LineFacet, string[]>> = {};
  const customFields: Record<string, string[]> = {};
  if (f) {
    for (const k of ['colour', 'country', 'region', 'vintage', 'size'] as const) if (f[k].length) facets[k] = f[k];
    for (const [field, key, value, id] of f.options) (customFields[field] ??= []).push(...new Set([key, id, ...(value === null ? [] : [value])]));
  }
  return {
    variantId: l.variantId,
    productId: l.productId,
    collectionIds: f?.collection_ids ?? [],
    categoryIds: f?.category_ids ?? [],
    manufacturerId: f?.manufacturer_id ?? null,
    facets,
    customFields,
    quantity: l.quantity,
    unit: l.unit,
    amount: l.line,
  };
}
