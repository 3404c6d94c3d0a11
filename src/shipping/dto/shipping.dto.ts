import { ApiProperty } from '@nestjs/swagger';
import type { DestinationRuleRow } from '../destination-rules.js';
import type { MethodZone, ShippingMethodRow } from '../method-zones.js';
import type { RateTable } from '../rate-table.js';
import type { Timestamped } from '../shipping.repository.js';

export class RateStepDto {
  /** Bottles or grams: whole numbers, inclusive; value: decimal, inclusive. */
  from: number;
  /** Bottles or grams: inclusive; value: exclusive; null only on the last step (open-ended). */
  to: number | null;
  price: number;
}

export class RateBeyondDto {
  /** Each started block of this many units above the last step adds `price`. */
  every: number;
  price: number;
}

export class RateTableDto {
  @ApiProperty({ enum: ['bottles', 'grams', 'value'] })
  basis: string;
  @ApiProperty({ type: () => [RateStepDto] })
  steps: RateStepDto[];
  @ApiProperty({ type: () => RateBeyondDto, nullable: true })
  beyond: RateBeyondDto | null;
}

export class MethodZoneDto {
  /** The key of a zone of the shop. */
  zone: string;
  /** Replaces the method's table in this zone; null: the method's. */
  @ApiProperty({ type: () => RateTableDto, nullable: true })
  rate_table: RateTableDto | null;
  /** Null: the method's. */
  free_over: number | null;
  /** Null: the method's. */
  delivery_days: number | null;
  /** Postcodes the method does not serve in this zone: exact, a prefix ending in an asterisk, or a range `A..B`. */
  @ApiProperty({ type: [String] })
  excluded_postcodes: string[];
}

/** A shipping method (admin): every member the import sets, in every language, plus id and timestamps. */
export class ShippingMethodDto {
  id: string;
  key: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  name: Record<string, string>;
  /** Flat price (default currency, shop price basis) when there is no rate table. */
  price: number;
  tax_rate: number;
  /** ISO country codes it ships to; empty: every country. */
  @ApiProperty({ type: [String] })
  countries: string[];
  free_over: number | null;
  delivery_days: number | null;
  @ApiProperty({ type: () => RateTableDto, nullable: true })
  rate_table: RateTableDto | null;
  @ApiProperty({ type: () => [MethodZoneDto] })
  zones: MethodZoneDto[];
  /** The `ShippingRateProvider` asked first for a carrier rate; null: none. */
  rate_provider: string | null;
  created_at: string;
  updated_at: string | null;
}

/** The destination rules of one zone of the shop (admin). */
export class DestinationRuleDto {
  id: string;
  /** The zone's key. */
  zone: string;
  /** False: no alcoholic product is shipped there (`destination_closed`). */
  alcohol_shipping: boolean;
  /** Litres of alcoholic products per order; null: no limit (`volume_limit_exceeded`). */
  max_litres_per_order: number | null;
  /** Litres per buyer (by email) per calendar year, past orders included; null: no limit. */
  max_litres_per_year: number | null;
  /** The buyer's minimum age for alcohol in this zone (`age_requirement`); null: the shop's age settings. */
  min_age: number | null;
  created_at: string;
  updated_at: string | null;
}

const n = (x: string | null) => (x === null ? null : Number(x));

function mapTable(t: RateTable | null): RateTableDto | null {
  return t === null ? null : { basis: t.basis, steps: t.steps.map((s) => ({ from: s.from, to: s.to, price: s.price })), beyond: t.beyond };
}

function mapZone(z: MethodZone): MethodZoneDto {
  return { zone: z.zone, rate_table: mapTable(z.rate_table), free_over: z.free_over, delivery_days: z.delivery_days, excluded_postcodes: z.excluded_postcodes };
}

export function mapShippingMethod(r: Timestamped<ShippingMethodRow>): ShippingMethodDto {
  return {
    id: r.id,
    key: r.key,
    name: r.name,
    price: Number(r.price),
    tax_rate: Number(r.tax_rate),
    countries: r.countries,
    free_over: n(r.free_over),
    delivery_days: r.delivery_days,
    rate_table: mapTable(r.rate_table),
    zones: r.zones.map(mapZone),
    rate_provider: r.rate_provider,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at ? r.updated_at.toISOString() : null,
  };
}

export function mapDestinationRule(r: Timestamped<DestinationRuleRow>): DestinationRuleDto {
  return {
    id: r.id,
    zone: r.zone,
    alcohol_shipping: r.alcohol_shipping,
    max_litres_per_order: n(r.max_litres_per_order),
    max_litres_per_year: n(r.max_litres_per_year),
    min_age: r.min_age,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at ? r.updated_at.toISOString() : null,
  };
}
