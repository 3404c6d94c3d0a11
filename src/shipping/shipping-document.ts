import type { EntityManager } from 'typeorm';
import { destinationRulesOf, shippingMethodRecordsOf } from './shipping.repository.js';

/**
 * The export's `shipping_methods` and `destination_rules` (CONTRACT 6 members, README "Shipping"): what the import
 * reads back. Issue 31's members appear only on methods that use them, so a shop without them exports as before.
 */
export async function shippingMethodsDocument(m: EntityManager, tenantId: string): Promise<Array<Record<string, unknown>>> {
  const rows = await shippingMethodRecordsOf(m, tenantId);
  return rows.map((r) => ({
    key: r.key,
    name: r.name,
    price: Number(r.price),
    tax_rate: Number(r.tax_rate),
    countries: r.countries,
    free_over: r.free_over === null ? null : Number(r.free_over),
    delivery_days: r.delivery_days,
    ...(r.rate_table !== null ? { rate_table: r.rate_table } : {}),
    ...(r.zones.length > 0 ? { zones: r.zones } : {}),
    ...(r.rate_provider !== null ? { rate_provider: r.rate_provider } : {}),
  }));
}

/** Every destination rule by zone; null when the shop has none (the member is then left out). */
export async function destinationRulesDocument(m: EntityManager, tenantId: string): Promise<Array<Record<string, unknown>> | null> {
  const rows = await destinationRulesOf(m, tenantId);
  if (rows.length === 0) return null;
  return rows.map((r) => ({
    zone: r.zone,
    alcohol_shipping: r.alcohol_shipping,
    max_litres_per_order: r.max_litres_per_order === null ? null : Number(r.max_litres_per_order),
    max_litres_per_year: r.max_litres_per_year === null ? null : Number(r.max_litres_per_year),
    min_age: r.min_age,
  }));
}
