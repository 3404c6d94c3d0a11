import { Injectable, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PrincipalCache } from '../common/auth/principal-cache.js';
import { CacheBus } from '../common/cluster/cache-bus.js';
import type { CurrencyInfo, RequestContext } from '../common/context/request-context.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { translate } from '../common/i18n.js';
import { fromMinor, unitMinor } from '../pricing/index.js';
import { shippingCountriesOf, TENANCY_CACHE_TOPIC, type CountryRow } from '../tenancy/index.js';
import { paymentTypeOf, paymentTypesOf, type PaymentTypeRow } from '../catalogue/index.js';
import { CHECKOUT_OPTIONS_CACHE_TOPIC, ShippingQuotes, type Quote, type ShippingMethodRow } from '../shipping/index.js';
import type { CountryOptionDto, PaymentTypeOptionDto, ShippingOptionDto } from './dto/checkout.dto.js';

export type { CountryRow, PaymentTypeRow, ShippingMethodRow };

type Options = { methods: ShippingMethodRow[]; countries: CountryRow[]; paymentTypes: PaymentTypeRow[] };
const OPTIONS_CACHE_MS = 30_000;
const OPTIONS_CACHE_MAX = 30_000;

/**
 * The shop's shipping configuration (imported: shipping_methods, countries) and payment types, as checkout options.
 *
 * Issue 34: the rows are reused per instance and per tenant (they were read 15 times per order), inside the
 * checkout's transactions too (none of them writes these tables; under READ COMMITTED a read there saw the rows as
 * of that statement, the cache sees them as of the last write heard). Every write drops them on every instance: the
 * tables' triggers notify `checkout_options` at commit, the import retires the shop's settings (`tenancy`), and the
 * admin API's writers publish the topic after their commit so the writer's next request sees its own write. Nothing
 * is reused while the cache bus is down. Callers must not change the arrays or rows they get.
 */
@Injectable()
export class ShippingService {
  private readonly cache: PrincipalCache<Options[keyof Options]>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly quotes: ShippingQuotes,
    @Optional() private readonly bus?: CacheBus,
  ) {
    this.cache = new PrincipalCache(OPTIONS_CACHE_MS, OPTIONS_CACHE_MAX, () => this.bus?.listening === true);
    const drop = (tenantId: string | null) => this.cache.drop(tenantId);
    bus?.subscribe(CHECKOUT_OPTIONS_CACHE_TOPIC, drop);
    bus?.subscribe(TENANCY_CACHE_TOPIC, drop);
  }

  private async cached<K extends keyof Options>(ctx: RequestContext, kind: K, load: () => Promise<Options[K]>): Promise<Options[K]> {
    const key = `${kind}:${ctx.tenantId}`;
    const hit = this.cache.get(key) as Options[K] | undefined;
    if (hit !== undefined) return hit;
    const epoch = this.cache.begin();
    const rows = await load();
    this.cache.set(key, epoch, ctx.tenantId, rows);
    return rows;
  }

  methods(ctx: RequestContext): Promise<ShippingMethodRow[]> {
    return this.cached(ctx, 'methods', () => this.quotes.methods(ctx));
  }

  /** A method serves a country when it lists it (a method listing none serves every country); no country: all. */
  offeredFor(methods: ShippingMethodRow[], country: string | null): ShippingMethodRow[] {
    if (!country) return methods;
    return methods.filter((m) => m.countries.length === 0 || m.countries.includes(country));
  }

  /** Countries the shop ships to. */
  countries(ctx: RequestContext): Promise<CountryRow[]> {
    return this.cached(ctx, 'countries', () => shippingCountriesOf(managerOf(ctx, this.dataSource), ctx.tenantId));
  }

  paymentTypes(ctx: RequestContext): Promise<PaymentTypeRow[]> {
    return this.cached(ctx, 'paymentTypes', () => paymentTypesOf(managerOf(ctx, this.dataSource), ctx.tenantId));
  }

  /** One payment type of the shop, or null: from the cached list when there is one. */
  async paymentType(ctx: RequestContext, id: string): Promise<PaymentTypeRow | null> {
    if (!this.bus?.listening) return paymentTypeOf(managerOf(ctx, this.dataSource), ctx.tenantId, id);
    return (await this.paymentTypes(ctx)).find((p) => p.id === id) ?? null;
  }

  /**
   * The option list of a checkout: price for this checkout (0 over the free threshold), expected delivery date.
   * `quotes` (shops with rate tables, zones or carrier rates): each offered method's computed price and days.
   */
  mapOptions(
    ctx: RequestContext,
    offered: ShippingMethodRow[],
    currency: CurrencyInfo,
    subtotal: number,
    quotes: Map<string, Quote> | null = null,
    now = new Date(),
  ): ShippingOptionDto[] {
    return offered.map((m) => {
      const quoted = quotes?.get(m.id);
      const free = m.free_over !== null && subtotal >= unitMinor(m.free_over, currency);
      const price = quoted ? quoted.price : free ? 0 : unitMinor(m.price, currency);
      const days = quoted ? quoted.deliveryDays : m.delivery_days;
      // SPEC: expected_delivery_date is a string (not nullable): "" when the method names no delivery time
      let expected = '';
      if (days !== null) {
        const d = new Date(now.getTime() + days * 86_400_000);
        expected = d.toISOString().slice(0, 10);
      }
      return {
        id: m.id,
        name: translate(m.name, ctx) ?? '',
        price: fromMinor(price, currency.precision).toFixed(currency.precision),
        expected_delivery_date: expected,
      };
    });
  }

  mapCountries(ctx: RequestContext, rows: CountryRow[]): CountryOptionDto[] {
    return rows.map((c) => ({ code: c.code, name: translate(c.name, ctx) ?? c.code }));
  }

  mapPaymentTypes(ctx: RequestContext, rows: PaymentTypeRow[]): PaymentTypeOptionDto[] {
    // SPEC: name and image_url are strings (not nullable): "" when the payment type has no image
    return rows.map((p) => ({ id: p.id, name: translate(p.name, ctx) ?? p.key, image_url: p.image_url ?? '' }));
  }
}
