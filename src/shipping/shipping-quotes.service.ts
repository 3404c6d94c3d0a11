import { Injectable, Logger, Optional } from '@nestjs/common';
import { PrincipalCache } from '../common/auth/principal-cache.js';
import { CacheBus } from '../common/cluster/cache-bus.js';
import { DataSource } from 'typeorm';
import type { CurrencyInfo, RequestContext } from '../common/context/request-context.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { AppConfig } from '../config/app-config.js';
import { Extensions, ShippingRateProvider, type ShippingRate } from '../extensions/index.js';
import { Metrics } from '../observability/index.js';
import { unitMinor } from '../pricing/index.js';
import { judgeDestination, litresOfSize, type DestinationRuleRow, type DestinationVerdict, type OrderMeasure } from './destination-rules.js';
import { quote, type Destination, type Quote, type ShippingMethodRow } from './method-zones.js';
import { parcelMeasures } from './rate-table.js';
import { ShippingZones, type AddressForZones } from './shipping-zones.js';
import { destinationRulesOf, shippingMethodsOf } from './shipping.repository.js';

/** A checkout as shipping sees it: where it goes, what it holds, what it is worth. */
export interface ShipmentRequest {
  address: AddressForZones;
  lines: ReadonlyArray<{ variantId: string; quantity: number; grams: number | null }>;
  /** Subtotal after discount, minor units of `currency`. */
  value: number;
  currency: CurrencyInfo;
}

/** A line as the destination rules measure it. */
export interface RuleLine {
  quantity: number;
  alcohol_volume: string | number | null;
  size: Record<string, string> | string | null;
  /** The variant's stored volume of one unit in ml (`volume_ml`); when missing or null the `size` text is read. */
  volume_ml?: number | null;
}

class ProviderTimeout extends Error {}

/** Cache-bus topic sent by the `destination_rules` trigger (migration ReadPathNotify1795707000000). */
export const DESTINATION_RULES_CACHE_TOPIC = 'destination_rules' as const;
/**
 * Cache-bus topic of the checkout's cached shipping methods, payment types and shipping countries (issue 34), sent
 * by the triggers of those tables (migration CheckoutOptionsNotify1795709340000) and by the admin API's writers.
 */
export const CHECKOUT_OPTIONS_CACHE_TOPIC = 'checkout_options' as const;

/**
 * Prices shipping methods for a checkout and judges its destination (README "Shipping"): the checkout reads and the
 * order placement ask here, so both always agree.
 */
@Injectable()
export class ShippingQuotes {
  private readonly logger = new Logger('ShippingQuotes');

  constructor(
    private readonly dataSource: DataSource,
    private readonly zones: ShippingZones,
    private readonly extensions: Extensions,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
    @Optional() private readonly bus?: CacheBus,
  ) {
    this.rulesCache = new PrincipalCache(5_000, 10_000, () => this.bus?.listening === true);
    bus?.subscribe(DESTINATION_RULES_CACHE_TOPIC, (tenantId) => this.rulesCache.drop(tenantId));
  }

  /** Each shop's destination rules, outside transactions only; dropped by the `destination_rules` trigger's message. */
  private readonly rulesCache: PrincipalCache<readonly DestinationRuleRow[]>;

  /** The shop's destination rules: reused between writes outside a transaction (issue 31: one query less per checkout read). */
  private async destinationRules(ctx: RequestContext, reuseInTransaction = false): Promise<readonly DestinationRuleRow[]> {
    if (ctx.manager && !reuseInTransaction) return destinationRulesOf(ctx.manager, ctx.tenantId);
    const hit = this.rulesCache.get(ctx.tenantId);
    if (hit !== undefined) return hit;
    const epoch = this.rulesCache.begin();
    const rows = await destinationRulesOf(managerOf(ctx, this.dataSource), ctx.tenantId);
    this.rulesCache.set(ctx.tenantId, epoch, ctx.tenantId, rows);
    return rows;
  }

  methods(ctx: RequestContext): Promise<ShippingMethodRow[]> {
    return shippingMethodsOf(managerOf(ctx, this.dataSource), ctx.tenantId);
  }

  /** Each method that can serve the shipment, with its price; methods that cannot are absent. */
  async quotes(ctx: RequestContext, methods: ShippingMethodRow[], req: ShipmentRequest): Promise<Map<string, Quote>> {
    const locate = methods.some((m) => m.zones.length > 0) ? await this.zones.locator(ctx, req.address) : () => null;
    const dest: Destination = { country: req.address.country, postcode: req.address.postcode, zoneOf: locate };
    const parcel = parcelMeasures(req.lines, req.value);
    const toMinor = (d: number | string) => unitMinor(typeof d === 'number' ? d.toFixed(4) : d, req.currency);
    const out = new Map<string, Quote>();
    for (const m of methods) {
      const own = quote(m, dest, parcel, toMinor);
      if (!own) continue;
      const provider = m.rate_provider ? this.provider(m.rate_provider) : null;
      if (!provider) {
        out.set(m.id, own);
        continue;
      }
      const carrier = await this.askProvider(ctx, provider, m, req, own.zone);
      if (carrier === undefined) out.set(m.id, own);
      else if (carrier !== null)
        out.set(m.id, {
          price: carrier.amount,
          zone: own.zone,
          deliveryDays: carrier.deliveryDays ?? own.deliveryDays,
          rate: { source: 'provider', basis: null, from: null, to: null, price: null, beyond_blocks: 0, free: false },
        });
    }
    return out;
  }

  /**
   * The destination rules' verdict on a checkout: null when the shop has no rules (the checkout then shows no
   * `compliance.destination`, as before issue 31). `email` finds the buyer's earlier orders this calendar year;
   * `litresOrdered` counts them (the checkout module owns orders). `reuseInTransaction`: the caller's transaction
   * never writes `destination_rules` (the checkout's), so the per-tenant copy serves it too (issue 34).
   */
  async judge(
    ctx: RequestContext,
    address: AddressForZones,
    lines: () => Promise<readonly RuleLine[]>,
    litresOrdered: () => Promise<number | null>,
    opts: { reuseInTransaction?: boolean } = {},
  ): Promise<DestinationVerdict | null> {
    const rules = await this.destinationRules(ctx, opts.reuseInTransaction === true);
    if (rules.length === 0) return null;
    const order = measureOrder(await lines());
    if (!address.country || !order.alcoholic) return { allowed: true, reasons: [], minAge: null };
    const zone = (await this.zones.locator(ctx, address))(rules.map((r) => r.zone));
    const rule = rules.find((r) => r.zone === zone) ?? null;
    const needsYear = rule?.max_litres_per_year !== null && rule?.max_litres_per_year !== undefined;
    return judgeDestination(rule, { ...order, litresThisYear: needsYear ? await litresOrdered() : 0 });
  }

  private provider(name: string): ShippingRateProvider | null {
    const all = this.extensions.all(ShippingRateProvider).filter((p) => p.name === name);
    return all[all.length - 1] ?? null;
  }

  /** The carrier's rate; null: it cannot serve; undefined: not usable (logged and counted), the method's own rate applies. */
  private async askProvider(
    ctx: RequestContext,
    provider: ShippingRateProvider,
    m: ShippingMethodRow,
    req: ShipmentRequest,
    zone: string | null,
  ): Promise<ShippingRate | null | undefined> {
    const ms = this.config.SHIPPING_RATE_PROVIDER_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    try {
      const answer = await Promise.race([
        provider.rate(ctx, {
          method: { id: m.id, key: m.key, name: m.name },
          destination: { country: req.address.country, postcode: req.address.postcode, zone },
          lines: req.lines,
          value: req.value,
          currency: req.currency.code,
          precision: req.currency.precision,
        }),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new ProviderTimeout(`no answer within ${ms} ms`)), ms))),
      ]);
      if (answer !== null && !(Number.isInteger(answer?.amount) && answer.amount >= 0)) throw new Error(`invalid amount ${String(answer?.amount)}`);
      return answer;
    } catch (err) {
      const reason = err instanceof ProviderTimeout ? 'timeout' : 'error';
      this.metrics.shippingRateFallbacks.inc({ provider: provider.name, reason });
      this.logger.warn(`shipping rate provider "${provider.name}" not used for method ${m.key} (${reason}: ${(err as Error).message}); its own rates apply`);
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * Alcoholic lines (alcohol_volume above 0) and their litres: a unit's litres are its stored `volume_ml` / 1000, and
 * only when no volume is stored, what its size text names (`75 cl`; 0 when it names none).
 */
export function measureOrder(lines: readonly RuleLine[]): Omit<OrderMeasure, 'litresThisYear'> {
  let litres = 0;
  let alcoholic = false;
  for (const l of lines) {
    if (l.alcohol_volume === null || !(Number(l.alcohol_volume) > 0)) continue;
    alcoholic = true;
    litres += l.quantity * (l.volume_ml != null && l.volume_ml > 0 ? l.volume_ml / 1000 : litresOfSize(l.size));
  }
  return { alcoholic, litres };
}
