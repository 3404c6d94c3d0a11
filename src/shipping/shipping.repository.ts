import type { EntityManager } from 'typeorm';
import { upsert, type UpsertResult } from '../common/db/keyed-upsert.js';
import type { DestinationRuleRow } from './destination-rules.js';
import type { ShippingMethodRow } from './method-zones.js';

/**
 * The shipping module owns `shipping_methods` and `destination_rules`: every statement on them is here, each in the
 * caller's transaction through its `EntityManager`. Other modules (the checkout, the catalogue import and export)
 * use these typed functions through `index.ts`.
 */

const METHOD_COLUMNS = `id, key, name, price, tax_rate, countries, free_over, delivery_days, rate_table, zones, rate_provider`;
const RULE_COLUMNS = `id, key AS zone, alcohol_shipping, max_litres_per_order, max_litres_per_year, min_age`;

/** A stored row with its timestamps (admin reads). */
export type Timestamped<T> = T & { created_at: Date; updated_at: Date | null };

/** The shop's shipping methods, cheapest first (the checkout's option order). */
export function shippingMethodsOf(m: EntityManager, tenantId: string): Promise<ShippingMethodRow[]> {
  return m.query(`SELECT ${METHOD_COLUMNS} FROM shipping_methods WHERE tenant_id = $1 ORDER BY price, key`, [tenantId]);
}

/** A page of the shop's rows of `table`, newest first (ties by id), after the cursor's (created_at, id); `limit` + 1 rows. */
function newestFirst<T>(
  m: EntityManager,
  table: 'shipping_methods' | 'destination_rules',
  columns: string,
  tenantId: string,
  after: [string, string] | null,
  limit: number,
): Promise<T[]> {
  return m.query(
    `SELECT ${columns}, created_at, updated_at FROM ${table} WHERE tenant_id = $1
     ${after ? 'AND (created_at, id) < ($3::timestamptz, $4::uuid)' : ''} ORDER BY created_at DESC, id DESC LIMIT $2`,
    after ? [tenantId, limit + 1, ...after] : [tenantId, limit + 1],
  );
}

/** A page of the shop's methods, newest first. */
export function shippingMethodPage(
  m: EntityManager,
  tenantId: string,
  after: [string, string] | null,
  limit: number,
): Promise<Timestamped<ShippingMethodRow>[]> {
  return newestFirst(m, 'shipping_methods', METHOD_COLUMNS, tenantId, after, limit);
}

export async function shippingMethodById(m: EntityManager, tenantId: string, id: string, lock = false): Promise<Timestamped<ShippingMethodRow> | null> {
  const rows: Timestamped<ShippingMethodRow>[] = await m.query(
    `SELECT ${METHOD_COLUMNS}, created_at, updated_at FROM shipping_methods WHERE tenant_id = $1 AND id = $2 ${lock ? 'FOR UPDATE' : ''}`,
    [tenantId, id],
  );
  return rows[0] ?? null;
}

/** A method's writable columns: decimals as strings, JSON members as JSON text. */
export interface ShippingMethodValues {
  key: string;
  name: string;
  price: string;
  tax_rate: string;
  countries: string[];
  free_over: string | null;
  delivery_days: number | null;
  rate_table: string | null;
  zones: string;
  rate_provider: string | null;
}

const VALUE_COLUMNS = ['key', 'name', 'price', 'tax_rate', 'countries', 'free_over', 'delivery_days', 'rate_table', 'zones', 'rate_provider'] as const;
const valuesOf = (v: ShippingMethodValues) => VALUE_COLUMNS.map((c) => v[c]);

/** Inserts a method; null when its key is taken. */
export async function insertShippingMethod(m: EntityManager, tenantId: string, v: ShippingMethodValues): Promise<Timestamped<ShippingMethodRow> | null> {
  const rows: Timestamped<ShippingMethodRow>[] = await m.query(
    `INSERT INTO shipping_methods (tenant_id, ${VALUE_COLUMNS.join(', ')}) VALUES ($1, ${VALUE_COLUMNS.map((_, i) => `$${i + 2}`).join(', ')})
     ON CONFLICT (tenant_id, key) DO NOTHING RETURNING ${METHOD_COLUMNS}, created_at, updated_at`,
    [tenantId, ...valuesOf(v)],
  );
  return rows[0] ?? null;
}

/** Rewrites a method's columns (the import's hash is dropped: the next import writes it again). */
export async function updateShippingMethod(m: EntityManager, tenantId: string, id: string, v: ShippingMethodValues): Promise<Timestamped<ShippingMethodRow>> {
  // an UPDATE answers [rows, count]
  const [rows]: [Timestamped<ShippingMethodRow>[], number] = await m.query(
    `UPDATE shipping_methods SET ${VALUE_COLUMNS.map((c, i) => `${c} = $${i + 3}`).join(', ')}, import_hash = NULL, updated_at = now()
     WHERE tenant_id = $1 AND id = $2 RETURNING ${METHOD_COLUMNS}, created_at, updated_at`,
    [tenantId, id, ...valuesOf(v)],
  );
  return rows[0];
}

/** Whether another method of the shop has this key. */
export async function shippingMethodKeyTaken(m: EntityManager, tenantId: string, key: string, exceptId: string): Promise<boolean> {
  const rows: unknown[] = await m.query(`SELECT 1 FROM shipping_methods WHERE tenant_id = $1 AND key = $2 AND id <> $3`, [tenantId, key, exceptId]);
  return rows.length > 0;
}

/** Deletes a method (checkouts that chose it lose the choice); false when there is none. */
export async function deleteShippingMethod(m: EntityManager, tenantId: string, id: string): Promise<boolean> {
  const [, count]: [unknown[], number] = await m.query(`DELETE FROM shipping_methods WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
  return count > 0;
}

/** The import's columns of a method row (after `key`, before `import_hash`), in `shippingMethodImportRow` order. */
export const SHIPPING_METHOD_IMPORT_COLUMNS = ['name', 'price', 'tax_rate', 'countries', 'free_over', 'delivery_days', 'rate_table', 'zones', 'rate_provider'];

/** The import's upsert of methods by key (rows: key, `SHIPPING_METHOD_IMPORT_COLUMNS`, import_hash). */
export function upsertShippingMethods(m: EntityManager, tenantId: string, rows: unknown[][]): Promise<UpsertResult> {
  return upsert(m, tenantId, { table: 'shipping_methods', cols: ['key', ...SHIPPING_METHOD_IMPORT_COLUMNS, 'import_hash'] }, rows);
}

/** Every method as the export writes it, by key. */
export function shippingMethodRecordsOf(m: EntityManager, tenantId: string): Promise<ShippingMethodRow[]> {
  return m.query(`SELECT ${METHOD_COLUMNS} FROM shipping_methods WHERE tenant_id = $1 ORDER BY key`, [tenantId]);
}

// ------------------------------------------------------------------------------------------ destination rules

/** The shop's destination rules, by zone key. */
export function destinationRulesOf(m: EntityManager, tenantId: string): Promise<DestinationRuleRow[]> {
  return m.query(`SELECT ${RULE_COLUMNS} FROM destination_rules WHERE tenant_id = $1 ORDER BY key`, [tenantId]);
}

/** A page of the shop's rules, newest first. */
export function destinationRulePage(
  m: EntityManager,
  tenantId: string,
  after: [string, string] | null,
  limit: number,
): Promise<Timestamped<DestinationRuleRow>[]> {
  return newestFirst(m, 'destination_rules', RULE_COLUMNS, tenantId, after, limit);
}

export async function destinationRuleById(m: EntityManager, tenantId: string, id: string, lock = false): Promise<Timestamped<DestinationRuleRow> | null> {
  const rows: Timestamped<DestinationRuleRow>[] = await m.query(
    `SELECT ${RULE_COLUMNS}, created_at, updated_at FROM destination_rules WHERE tenant_id = $1 AND id = $2 ${lock ? 'FOR UPDATE' : ''}`,
    [tenantId, id],
  );
  return rows[0] ?? null;
}

/** A rule's writable columns (litres as decimal strings). */
export type DestinationRuleValues = [
  zone: string,
  alcoholShipping: boolean,
  maxLitresPerOrder: string | null,
  maxLitresPerYear: string | null,
  minAge: number | null,
];

/** Inserts a rule; null when the zone already has one. */
export async function insertDestinationRule(m: EntityManager, tenantId: string, v: DestinationRuleValues): Promise<Timestamped<DestinationRuleRow> | null> {
  const rows: Timestamped<DestinationRuleRow>[] = await m.query(
    `INSERT INTO destination_rules (tenant_id, key, alcohol_shipping, max_litres_per_order, max_litres_per_year, min_age) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (tenant_id, key) DO NOTHING RETURNING ${RULE_COLUMNS}, created_at, updated_at`,
    [tenantId, ...v],
  );
  return rows[0] ?? null;
}

/** Rewrites a rule; null when its new zone already has another rule. */
export async function updateDestinationRule(
  m: EntityManager,
  tenantId: string,
  id: string,
  v: DestinationRuleValues,
): Promise<Timestamped<DestinationRuleRow> | null> {
  const taken: unknown[] = await m.query(`SELECT 1 FROM destination_rules WHERE tenant_id = $1 AND key = $2 AND id <> $3`, [tenantId, v[0], id]);
  if (taken.length > 0) return null;
  const [rows]: [Timestamped<DestinationRuleRow>[], number] = await m.query(
    `UPDATE destination_rules SET key = $3, alcohol_shipping = $4, max_litres_per_order = $5, max_litres_per_year = $6, min_age = $7,
       import_hash = NULL, updated_at = now()
     WHERE tenant_id = $1 AND id = $2 RETURNING ${RULE_COLUMNS}, created_at, updated_at`,
    [tenantId, id, ...v],
  );
  return rows[0];
}

export async function deleteDestinationRule(m: EntityManager, tenantId: string, id: string): Promise<boolean> {
  const [, count]: [unknown[], number] = await m.query(`DELETE FROM destination_rules WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
  return count > 0;
}

/** The import's upsert of rules by zone key (rows: zone, alcohol_shipping, litres per order, per year, min_age, import_hash). */
export function upsertDestinationRules(m: EntityManager, tenantId: string, rows: unknown[][]): Promise<UpsertResult> {
  return upsert(
    m,
    tenantId,
    { table: 'destination_rules', cols: ['key', 'alcohol_shipping', 'max_litres_per_order', 'max_litres_per_year', 'min_age', 'import_hash'] },
    rows,
  );
}
