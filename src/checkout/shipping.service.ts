import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CurrencyInfo, RequestContext } from '../common/context/request-context.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { translate } from '../common/i18n.js';
import { fromMinor, unitMinor } from '../pricing/index.js';
import { shippingCountriesOf, type CountryRow } from '../tenancy/index.js';
import { paymentTypeOf, paymentTypesOf, type PaymentTypeRow } from '../catalogue/index.js';
import { ShippingQuotes, type Quote, type ShippingMethodRow } from '../shipping/index.js';
import type { CountryOptionDto, PaymentTypeOptionDto, ShippingOptionDto } from './dto/checkout.dto.js';

export type { CountryRow, PaymentTypeRow, ShippingMethodRow };

/** The shop's shipping configuration (imported: shipping_methods, countries) and payment types, as checkout options. */
@Injectable()
export class ShippingService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly quotes: ShippingQuotes,
  ) {}

  methods(ctx: RequestContext): Promise<ShippingMethodRow[]> {
    return this.quotes.methods(ctx);
  }

  /** A method serves a country when it lists it (a method listing none serves every country); no country: all. */
  offeredFor(methods: ShippingMethodRow[], country: string | null): ShippingMethodRow[] {
    if (!country) return methods;
    return methods.filter((m) => m.countries.length === 0 || m.countries.includes(country));
  }

  /** Countries the shop ships to. */
  countries(ctx: RequestContext): Promise<CountryRow[]> {
    return shippingCountriesOf(managerOf(ctx, this.dataSource), ctx.tenantId);
  }

  paymentTypes(ctx: RequestContext): Promise<PaymentTypeRow[]> {
    return paymentTypesOf(managerOf(ctx, this.dataSource), ctx.tenantId);
  }

  async paymentType(ctx: RequestContext, id: string): Promise<PaymentTypeRow | null> {
    return paymentTypeOf(managerOf(ctx, this.dataSource), ctx.tenantId, id);
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
