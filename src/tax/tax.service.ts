import { Injectable, Logger, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PrincipalCache } from '../common/auth/principal-cache.js';
import { CacheBus } from '../common/cluster/cache-bus.js';
import type { RequestContext } from '../common/context/request-context.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { AppConfig } from '../config/app-config.js';
import { Extensions, TaxProvider, type TaxProviderAnswer } from '../extensions/index.js';
import { Metrics } from '../observability/index.js';
import { categoriesOf, ratesOf, taxSettingsOf, variantTaxesOf, zonesOf } from './tax.repository.js';
import { computeTaxedTotals, type TaxedTotals, type TaxedTotalsInput, type TaxRules, type TaxSettings, type VariantTax } from './tax-engine.js';

/**
 * `reuseInTransaction`: the caller's transaction never writes `tax_settings` (the checkout's), so the per-tenant copy
 * may serve it as well (issue 34: one statement less per order); without it a transaction reads its own rows.
 */
export interface ReuseOption {
  reuseInTransaction?: boolean;
}

/** What the tax service needs of a checkout line's variant from the catalogue. */
export interface VariantFacts {
  variant_id: string;
  alcohol_volume: string | null;
  /** The size facet's name (`75 cl`, `1.5 l`), read for the volume when none is stored. */
  size: Record<string, string> | null;
}

/** Cache-bus topic sent by the `tax_settings` trigger (migration ReadPathNotify1795707000000). */
export const TAX_SETTINGS_CACHE_TOPIC = 'tax_settings' as const;
const READ_CACHE_MS = 5_000;
const READ_CACHE_MAX = 10_000;

const VOLUME = /(\d+(?:[.,]\d+)?)\s*(ml|cl|dl|l)\b/i;
const ML_PER_UNIT: Record<string, number> = { ml: 1, cl: 10, dl: 100, l: 1000 };

/** The volume in ml read from a size name (`75 cl` -> 750), or null. */
export function volumeFromSize(size: Record<string, string> | null): number | null {
  for (const name of Object.values(size ?? {})) {
    const m = VOLUME.exec(name);
    if (m) return Math.round(Number(m[1].replace(',', '.')) * ML_PER_UNIT[m[2].toLowerCase()] * 10) / 10;
  }
  return null;
}

/**
 * Taxes of a checkout under the shop's rules (src/tax/tax-engine.ts). A shop without tax settings, or in `origin`
 * mode, has no rules (`rules()` is null) and is priced exactly as before by the caller. A `TaxProvider` extension,
 * when registered, supplies the rates within `TAX_PROVIDER_TIMEOUT_MS`; otherwise the shop's tables do.
 */
@Injectable()
export class TaxService {
  private readonly logger = new Logger('TaxService');
  /** Each shop's tax settings row (null: none), outside transactions only; dropped by the `tax_settings` trigger's message. */
  private readonly settingsCache: PrincipalCache<TaxSettings | null>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly extensions: Extensions,
    @Optional() private readonly metrics?: Metrics,
    @Optional() private readonly bus?: CacheBus,
  ) {
    this.settingsCache = new PrincipalCache(READ_CACHE_MS, READ_CACHE_MAX, () => this.bus?.listening === true);
    bus?.subscribe(TAX_SETTINGS_CACHE_TOPIC, (tenantId) => this.settingsCache.drop(tenantId));
  }

  /** The shop's rules in `destination` mode, else null (origin: today's behaviour). */
  async rules(ctx: RequestContext, opts: ReuseOption = {}): Promise<TaxRules | null> {
    const m = managerOf(ctx, this.dataSource);
    const settings = await this.settings(ctx, opts);
    if (!settings || settings.mode !== 'destination') return null;
    const [zones, categories, rates] = await Promise.all([zonesOf(m, ctx.tenantId), categoriesOf(m, ctx.tenantId), ratesOf(m, ctx.tenantId)]);
    return { settings, zones, categories, rates };
  }

  /** The shop's tax settings row: reused between writes outside a transaction (issue 31: one query less per checkout read). */
  private async settings(ctx: RequestContext, opts: ReuseOption = {}): Promise<TaxSettings | null> {
    if (ctx.manager && !opts.reuseInTransaction) return taxSettingsOf(ctx.manager, ctx.tenantId);
    const hit = this.settingsCache.get(ctx.tenantId);
    if (hit !== undefined) return hit && { ...hit };
    const epoch = this.settingsCache.begin();
    // in a transaction (reuseInTransaction) on its own connection: never a second one from the pool while holding one
    const row = await taxSettingsOf(managerOf(ctx, this.dataSource), ctx.tenantId);
    this.settingsCache.set(ctx.tenantId, epoch, ctx.tenantId, row && { ...row });
    return row;
  }

  /** Each variant's stored `volume_ml` (null when none is stored), by variant id. */
  async storedVolumes(ctx: RequestContext, variantIds: readonly string[]): Promise<Map<string, number | null>> {
    const rows = await variantTaxesOf(managerOf(ctx, this.dataSource), ctx.tenantId, [...variantIds]);
    const stored = new Map(rows.map((r) => [r.variant_id, r.volume_ml === null ? null : Number(r.volume_ml)]));
    return new Map(variantIds.map((id) => [id, stored.get(id) ?? null]));
  }

  /** Each variant's category, volume (stored, else read from its size) and alcohol. */
  async variantTaxes(ctx: RequestContext, facts: readonly VariantFacts[]): Promise<Map<string, VariantTax>> {
    const stored = new Map(
      (
        await variantTaxesOf(
          managerOf(ctx, this.dataSource),
          ctx.tenantId,
          facts.map((f) => f.variant_id),
        )
      ).map((r) => [r.variant_id, r]),
    );
    return new Map(
      facts.map((f) => {
        const row = stored.get(f.variant_id);
        const volumeMl = row?.volume_ml != null ? Number(row.volume_ml) : volumeFromSize(f.size);
        return [f.variant_id, { categoryId: row?.category_id ?? null, volumeMl, alcoholVolume: f.alcohol_volume === null ? null : Number(f.alcohol_volume) }];
      }),
    );
  }

  /** The totals under `rules`, with the rates of the `TaxProvider` when one answers in time. */
  async totals(ctx: RequestContext, rules: TaxRules, input: TaxedTotalsInput): Promise<TaxedTotals> {
    const provider = this.extensions.one(TaxProvider);
    if (!provider) return computeTaxedTotals(rules, input);
    const answer = await this.ask(ctx, provider, rules, input);
    if (!answer) return computeTaxedTotals(rules, input);
    return computeTaxedTotals(rules, { ...input, provided: { lines: new Map(answer.lines.map((l) => [l.variantId, l.rate])), shipping: answer.shippingRate } });
  }

  private async ask(ctx: RequestContext, provider: TaxProvider, rules: TaxRules, input: TaxedTotalsInput): Promise<TaxProviderAnswer | null> {
    const categories = new Map(rules.categories.map((c) => [c.id, c.key]));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), this.config.TAX_PROVIDER_TIMEOUT_MS)));
    try {
      const answer = await Promise.race([
        provider.rates(ctx, {
          currency: { code: input.currency.code, precision: input.currency.precision },
          pricesIncludeTax: input.pricesIncludeTax,
          destination: input.destination
            ? { country: input.destination.country ?? null, region: input.destination.region ?? null, postcode: input.destination.postcode ?? null }
            : null,
          lines: input.lines.map((l) => {
            const categoryId = input.variants.get(l.variantId)?.categoryId;
            return {
              variantId: l.variantId,
              quantity: Number(l.quantity),
              originRate: Number(l.taxRate),
              category: categoryId ? (categories.get(categoryId) ?? null) : null,
              unitPrice: input.pricesIncludeTax ? l.gross : l.net,
            };
          }),
          shipping: input.shipping ? { price: input.shipping.price, originRate: Number(input.shipping.taxRate) } : null,
        }),
        timeout,
      ]);
      if (answer === 'timeout') return this.fallback(provider, 'timeout', `no answer within ${this.config.TAX_PROVIDER_TIMEOUT_MS} ms`);
      const answered = new Set(answer.lines.filter((l) => Number.isFinite(l.rate) && l.rate >= 0 && l.rate <= 100).map((l) => l.variantId));
      if (input.lines.some((l) => !answered.has(l.variantId)))
        return this.fallback(provider, 'invalid', 'the answer misses a line or has a rate outside 0..100');
      return answer;
    } catch (err) {
      return this.fallback(provider, 'error', err instanceof Error ? err.message : String(err));
    } finally {
      clearTimeout(timer);
    }
  }

  private fallback(provider: TaxProvider, reason: 'timeout' | 'error' | 'invalid', detail: string): null {
    this.logger.warn(`tax provider ${provider.name} failed (${reason}: ${detail}); the shop's own tax tables answer`);
    this.metrics?.taxProviderFallbacks.inc({ reason });
    return null;
  }
}
