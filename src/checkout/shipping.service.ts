import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CurrencyInfo, RequestContext } from '../common/context/request-context.js';
import type { Translations } from '../common/db/base.entity.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { translate } from '../common/i18n.js';
import { fromMinor } from '../pricing/index.js';
import { unitMinor } from '../pricing/index.js';
import type { CountryOptionDto, PaymentTypeOptionDto, ShippingOptionDto } from './dto/checkout.dto.js';

export interface ShippingMethodRow {
  id: string;
  name: Translations;
  price: string;
  tax_rate: string;
  countries: string[];
  free_over: string | null;
  delivery_days: number | null;
}

export interface CountryRow {
  code: string;
  name: Translations;
}

export interface PaymentTypeRow {
  id: string;
  key: string;
  name: Translations;
  kind: string;
  image_url: string | null;
}

/** The shop's shipping configuration (imported: shipping_methods, countries) and payment types, as checkout options. */
@Injectable()
export class ShippingService {
  constructor(private readonly dataSource: DataSource) {}

  methods(ctx: RequestContext): Promise<ShippingMethodRow[]> {
    return managerOf(ctx, this.dataSource).query(
      `SELECT id, name, price, tax_rate, countries, free_over, delivery_days FROM shipping_methods WHERE tenant_id = $1 ORDER BY price, key`,
      [ctx.tenantId],
    );
  }

  /** A method serves a country when it lists it (a method listing none serves every country); no country: all. */
  offeredFor(methods: ShippingMethodRow[], country: string | null): ShippingMethodRow[] {
    if (!country) return methods;
    return methods.filter((m) => m.countries.length === 0 || m.countries.includes(country));
  }

  /** Countries the shop ships to. */
  countries(ctx: RequestContext): Promise<CountryRow[]> {
    return managerOf(ctx, this.dataSource).query(`SELECT code, name FROM countries WHERE tenant_id = $1 AND shipping ORDER BY code`, [ctx.tenantId]);
  }

  paymentTypes(ctx: RequestContext): Promise<PaymentTypeRow[]> {
    return managerOf(ctx, this.dataSource).query(`SELECT id, key, name, kind, image_url FROM payment_types WHERE tenant_id = $1 ORDER BY key`, [ctx.tenantId]);
  }

  async paymentType(ctx: RequestContext, id: string): Promise<PaymentTypeRow | null> {
    const rows: PaymentTypeRow[] = await managerOf(ctx, this.dataSource).query(`SELECT id, key, name, kind, image_url FROM payment_types WHERE tenant_id = $1 AND id = $2`, [ctx.tenantId, id]);
    return rows[0] ?? null;
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
      return { id: m.id, name: translate(m.name, ctx) ?? '', price: fromMinor(price, currency.precision).toFixed(currency.precision), expected_delivery_date: expected };
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
