import type { EntityManager } from 'typeorm';
import { olderThan, type CleanupSweep } from '../common/db/sweep.js';
import { countryIdByCode } from '../tenancy/index.js';

/**
 * The customers module owns `customers`, `customer_addresses`, `customer_tokens` and `customer_one_time_tokens`: it
 * alone writes them. Other modules read a shopper, and the checkout saves a delivery address, through the typed
 * functions here (each runs in the caller's transaction through its `EntityManager`).
 */

/** At most this many saved addresses per shopper (422 beyond; the checkout then stops saving). */
export const MAX_SAVED_ADDRESSES = 100;

/** What a shopper's first and last name come from. */
export interface CustomerNameRow {
  first_name: string | null;
  last_name: string | null;
}

/** An address to save for a shopper, as plain members (null: absent); the country by its ISO code. */
export interface AddressToSave {
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  department: string | null;
  street: string | null;
  house_number: string | null;
  zip_code: string | null;
  location: string | null;
  country_code: string | null;
  phone_number: string | null;
  mobile_number: string | null;
  email: string | null;
}

/** The shopper's type (`private`, `corporate`, `reseller`), or null for an unknown shopper. */
/** True when `customerId` is a customer of the shop (a foreign one is as unknown as a missing one). */
export async function isCustomerOf(m: EntityManager, tenantId: string, customerId: string): Promise<boolean> {
  const rows: unknown[] = await m.query(`SELECT 1 FROM customers WHERE tenant_id = $1 AND id = $2`, [tenantId, customerId]);
  return rows.length > 0;
}

export async function customerType(m: EntityManager, tenantId: string, customerId: string): Promise<string | null> {
  const rows: Array<{ type: string }> = await m.query(`SELECT type FROM customers WHERE id = $1 AND tenant_id = $2`, [customerId, tenantId]);
  return rows[0]?.type ?? null;
}

/** The shop's customers with these e-mail addresses (compared without case): lower-cased address → id. */
export async function customerIdsByEmail(m: EntityManager, tenantId: string, emails: string[]): Promise<Map<string, string>> {
  if (emails.length === 0) return new Map();
  const rows: Array<{ id: string; email: string }> = await m.query(
    `SELECT id, lower(email) AS email FROM customers WHERE tenant_id = $1 AND lower(email) = ANY($2::text[])`,
    [tenantId, emails.map((e) => e.toLowerCase())],
  );
  return new Map(rows.map((r) => [r.email, r.id]));
}

/** The e-mail addresses of these customers of the shop: id → address (customers without one are left out). */
export async function customerEmails(m: EntityManager, tenantId: string, customerIds: string[]): Promise<Map<string, string>> {
  if (customerIds.length === 0) return new Map();
  const rows: Array<{ id: string; email: string | null }> = await m.query(`SELECT id, email FROM customers WHERE tenant_id = $1 AND id = ANY($2::uuid[])`, [
    tenantId,
    customerIds,
  ]);
  return new Map(rows.flatMap((r) => (r.email ? [[r.id, r.email] as const] : [])));
}

/** The shopper's e-mail address, or null. */
export async function customerEmail(m: EntityManager, tenantId: string, customerId: string): Promise<string | null> {
  const rows: Array<{ email: string | null }> = await m.query(`SELECT email FROM customers WHERE id = $1 AND tenant_id = $2`, [customerId, tenantId]);
  return rows[0]?.email ?? null;
}

/** The names on the shopper's default (billing) address, or null without one. */
export async function defaultAddressName(m: EntityManager, tenantId: string, customerId: string): Promise<CustomerNameRow | null> {
  const rows: CustomerNameRow[] = await m.query(
    `SELECT a.first_name, a.last_name FROM customers c JOIN customer_addresses a ON a.id = c.default_address_id AND a.tenant_id = c.tenant_id
     WHERE c.id = $1 AND c.tenant_id = $2`,
    [customerId, tenantId],
  );
  return rows[0] ?? null;
}

/**
 * Saves `a` as one of the shopper's addresses unless every member is empty, an identical address is saved already,
 * or the shopper has `MAX_SAVED_ADDRESSES` (one statement, so concurrent saves cannot pass the cap twice).
 */
export async function saveAddressUnlessKnown(m: EntityManager, tenantId: string, customerId: string, a: AddressToSave): Promise<void> {
  const countryId = a.country_code ? await countryIdByCode(m, tenantId, a.country_code) : null;
  const values = [
    a.first_name,
    a.last_name,
    a.company,
    a.department,
    a.street,
    a.house_number,
    a.zip_code,
    a.location,
    countryId,
    a.phone_number,
    a.mobile_number,
    a.email,
  ];
  if (values.every((v) => v === null)) return;
  await m.query(
    `INSERT INTO customer_addresses (tenant_id, customer_id, first_name, last_name, company, department, street, house_number, zip_code, location, country_id, phone_number, mobile_number, email)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::uuid, $12, $13, $14
     WHERE (SELECT count(*) FROM customer_addresses y WHERE y.tenant_id = $1 AND y.customer_id = $2) < ${MAX_SAVED_ADDRESSES}
       AND NOT EXISTS (SELECT 1 FROM customer_addresses x WHERE x.tenant_id = $1 AND x.customer_id = $2
       AND x.first_name IS NOT DISTINCT FROM $3 AND x.last_name IS NOT DISTINCT FROM $4 AND x.company IS NOT DISTINCT FROM $5
       AND x.department IS NOT DISTINCT FROM $6 AND x.street IS NOT DISTINCT FROM $7 AND x.house_number IS NOT DISTINCT FROM $8
       AND x.zip_code IS NOT DISTINCT FROM $9 AND x.location IS NOT DISTINCT FROM $10 AND x.country_id IS NOT DISTINCT FROM $11::uuid
       AND x.phone_number IS NOT DISTINCT FROM $12 AND x.mobile_number IS NOT DISTINCT FROM $13 AND x.email IS NOT DISTINCT FROM $14)`,
    [tenantId, customerId, ...values],
  );
}

/** Cleanup (maintenance job): expired or revoked shopper tokens and expired one-time codes. */
export const CUSTOMER_SWEEPS: CleanupSweep[] = [
  {
    name: 'customer_tokens',
    table: 'customer_tokens',
    key: 'id',
    age: (c) => c.CLEANUP_EXPIRED_TOKENS_AFTER_MS,
    select: `${olderThan('customer_tokens', 'expires_at')} OR revoked_at < now() - $2::interval`,
  },
  {
    name: 'customer_one_time_tokens',
    table: 'customer_one_time_tokens',
    key: 'id',
    age: (c) => c.CLEANUP_EXPIRED_TOKENS_AFTER_MS,
    select: olderThan('customer_one_time_tokens', 'expires_at'),
  },
];
