import type { EntityManager } from 'typeorm';
import type { Translations } from '../common/db/base.entity.js';

/**
 * The tenancy module owns `tenants`, `currencies` and `countries`: other modules read a shop's countries through
 * the typed functions here (each runs in the caller's transaction through its `EntityManager`).
 */

/** A country of a shop: ISO code and translated name. */
export interface CountryRow {
  code: string;
  name: Translations;
}

/** Every country of the shop (order unspecified). */
export function countriesOf(m: EntityManager, tenantId: string): Promise<CountryRow[]> {
  return m.query(`SELECT code, name FROM countries WHERE tenant_id = $1`, [tenantId]);
}

/** The countries the shop ships to, by code. */
export function shippingCountriesOf(m: EntityManager, tenantId: string): Promise<CountryRow[]> {
  return m.query(`SELECT code, name FROM countries WHERE tenant_id = $1 AND shipping ORDER BY code`, [tenantId]);
}

/** The id of the shop's country with this ISO code, or null. */
export async function countryIdByCode(m: EntityManager, tenantId: string, code: string): Promise<string | null> {
  const rows: Array<{ id: string }> = await m.query(`SELECT id FROM countries WHERE tenant_id = $1 AND code = $2`, [tenantId, code]);
  return rows[0]?.id ?? null;
}

/** True when `countryId` is a country of the shop. */
export async function isCountryOf(m: EntityManager, tenantId: string, countryId: string): Promise<boolean> {
  const rows: unknown[] = await m.query(`SELECT 1 FROM countries WHERE id = $1 AND tenant_id = $2`, [countryId, tenantId]);
  return rows.length > 0;
}
