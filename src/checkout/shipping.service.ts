import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CurrencyInfo, RequestContext } from '../common/context/request-context.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { translate } from '../common/i18n.js';
import { fromMinor, unitMinor } from '../pricing/index.js';
import { shippingCountriesOf, type CountryRow } from '../tenancy/index.js';
import { paymentTypeOf, paymentTypesOf, shippingMethodsOf, type PaymentTypeRow, type ShippingMethodRow } from '../catalogue/index.js';
import type { CountryOptionDto, PaymentTypeOptionDto, ShippingOptionDto } from './dto/checkout.dto.js';

export type { CountryRow, PaymentTypeRow, ShippingMethodRow };

/** The shop's shipping configuration (imported: shipping_methods, countries) and payment types, as checkout options. */
@Injectable()
export class ShippingService {
  constructor(private readonly dataSource: DataSource) {}

  methods(ctx: RequestContext): Promise<ShippingMethodRow[]> {
    return shippingMethodsOf(managerOf(ctx, this.dataSource), ctx.tenantId);
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

  /** The option list of a checkout: price for this checkout (0 over the free threshold), expected delivery date. */
  mapOptions(ctx: RequestContext, offered: ShippingMethodRow[], currency: CurrencyInfo, subtotal: number, now = new Date()): ShippingOptionDto[] {
    return offered.map((m) => {
      const free = m.free_over !== null && subtotal >= unitMinor(m.free_over, currency);
      const price = free ? 0 : unitMinor(m.price, currency);
      // SPEC: expected_delivery_date is a string (not nullable): "" when the method names no delivery time
      let expected = '';
      if (m.delivery_days !== null) {
        const d = new Date(now.getTime() + m.delivery_days * 86_400_000);
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
