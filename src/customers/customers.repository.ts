import { Injectable } from '@nestjs/common';
import { DataSource, In, type DeepPartial, type EntityManager } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { returning } from '../common/db/returning.js';
import { olderThan, type CleanupSweep } from '../common/db/sweep.js';
import { getOrThrow, inTransaction, managerOf, repoOf } from '../common/db/tenant-scope.js';
import type { Page } from '../common/paging/page.js';
import { Pager, type PageRequest } from '../common/paging/pager.service.js';
import { countryIdByCode, isCountryOf } from '../tenancy/index.js';
import { CustomerAddress } from './entities/customer-address.entity.js';
import { Customer } from './entities/customer.entity.js';

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

/**
 * The statements of the admin customers and of the customer tier (`CustomersService`, `CustomerAccountService`):
 * accounts and saved addresses, always filtered by the shop (and the shopper where it applies). Each method runs in
 * the context's transaction when one is open. The credentials' statements are `CustomerAuthRepository`'s.
 */
@Injectable()
export class CustomersRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pager: Pager,
  ) {}

  /** Runs `work` in one transaction (reusing an open one) with the context bound to it. */
  transaction<R>(ctx: RequestContext, work: (tx: RequestContext) => Promise<R>): Promise<R> {
    return inTransaction(ctx, this.dataSource, work);
  }

  /** A page of the shop's customers, oldest first. */
  page(ctx: RequestContext, page: PageRequest): Promise<Page<Customer>> {
    const qb = repoOf(ctx, this.dataSource, Customer).createQueryBuilder('c').where('c.tenant_id = :tenant', { tenant: ctx.tenantId });
    return this.pager.paginateByCreated(qb, page, 'ASC');
  }

  /** The shop's customer `id`, or 404 `customer`. */
  getOrThrow(ctx: RequestContext, id: string): Promise<Customer> {
    return getOrThrow(ctx, this.dataSource, Customer, id, 'customer');
  }

  /** True when a customer of the shop has this e-mail address (compared without case). */
  emailTaken(ctx: RequestContext, email: string): Promise<boolean> {
    return repoOf(ctx, this.dataSource, Customer)
      .createQueryBuilder('c')
      .where('c.tenant_id = :tenant AND lower(c.email) = lower(:email)', { tenant: ctx.tenantId, email })
      .getExists();
  }

  /** A new (unsaved) customer entity. */
  build(ctx: RequestContext, fields: DeepPartial<Customer>): Customer {
    return repoOf(ctx, this.dataSource, Customer).create(fields);
  }

  /** Inserts or updates the customer; a taken e-mail address fails with a unique violation. */
  save(ctx: RequestContext, c: Customer): Promise<Customer> {
    return repoOf(ctx, this.dataSource, Customer).save(c);
  }

  /** Deletes the shop's customer `id` with its addresses; false when there is none. */
  async delete(ctx: RequestContext, id: string): Promise<boolean> {
    const res = await repoOf(ctx, this.dataSource, Customer)
      .createQueryBuilder()
      .delete()
      .where('id = :id AND tenant_id = :tenant', { id, tenant: ctx.tenantId })
      .execute();
    return Boolean(res.affected);
  }

  /** The shop's addresses of these ids, by id. */
  async addressesByIds(ctx: RequestContext, ids: string[]): Promise<Map<string, CustomerAddress>> {
    if (ids.length === 0) return new Map();
    const rows = await repoOf(ctx, this.dataSource, CustomerAddress).find({ where: { tenantId: ctx.tenantId, id: In(ids) } });
    return new Map(rows.map((a) => [a.id, a]));
  }

  /** The shopper's saved addresses, oldest first. */
  addressesOf(ctx: RequestContext, customerId: string): Promise<CustomerAddress[]> {
    return repoOf(ctx, this.dataSource, CustomerAddress).find({ where: { tenantId: ctx.tenantId, customerId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The shopper's address `id` (a uuid), or null when it is unknown or another shopper's. */
  ownAddress(ctx: RequestContext, customerId: string, id: string): Promise<CustomerAddress | null> {
    return repoOf(ctx, this.dataSource, CustomerAddress).findOne({ where: { id, tenantId: ctx.tenantId, customerId } });
  }

  /**
   * Locks the shopper's row (serialising a shopper's concurrent address creates) and answers its default address id
   * and how many addresses it keeps; null for an unknown shopper.
   */
  async lockForNewAddress(ctx: RequestContext, customerId: string): Promise<{ defaultAddressId: string | null; addresses: number } | null> {
    const m = managerOf(ctx, this.dataSource);
    const [me]: Array<{ default_address_id: string | null }> = await m.query(
      `SELECT default_address_id FROM customers WHERE id = $1 AND tenant_id = $2 FOR UPDATE`,
      [customerId, ctx.tenantId],
    );
    if (!me) return null;
    const [{ n }]: Array<{ n: number }> = await m.query(`SELECT count(*)::int AS n FROM customer_addresses WHERE tenant_id = $1 AND customer_id = $2`, [
      ctx.tenantId,
      customerId,
    ]);
    return { defaultAddressId: me.default_address_id, addresses: n };
  }

  /** A new (unsaved) address entity. */
  buildAddress(ctx: RequestContext, fields: DeepPartial<CustomerAddress>): CustomerAddress {
    return repoOf(ctx, this.dataSource, CustomerAddress).create(fields);
  }

  saveAddress(ctx: RequestContext, address: CustomerAddress): Promise<CustomerAddress> {
    return repoOf(ctx, this.dataSource, CustomerAddress).save(address);
  }

  /** Makes the address the shopper's default (billing) address. */
  async setDefaultAddress(ctx: RequestContext, customerId: string, addressId: string): Promise<void> {
    await managerOf(ctx, this.dataSource).query(`UPDATE customers SET default_address_id = $3, updated_at = now() WHERE id = $1 AND tenant_id = $2`, [
      customerId,
      ctx.tenantId,
      addressId,
    ]);
  }

  /** Deletes the shopper's address `id`; false when it is unknown or another shopper's. */
  async deleteAddress(ctx: RequestContext, customerId: string, id: string): Promise<boolean> {
    const rows = await returning<{ id: string }>(
      managerOf(ctx, this.dataSource),
      `DELETE FROM customer_addresses WHERE id = $1 AND tenant_id = $2 AND customer_id = $3 RETURNING id`,
      [id, ctx.tenantId, customerId],
    );
    return rows.length > 0;
  }

  /** Whether the shop's customer is active; null for an unknown one. */
  async isActive(ctx: RequestContext, customerId: string): Promise<boolean | null> {
    const rows: Array<{ is_active: boolean }> = await managerOf(ctx, this.dataSource).query(
      `SELECT is_active FROM customers WHERE id = $1 AND tenant_id = $2`,
      [customerId, ctx.tenantId],
    );
    return rows.length === 0 ? null : rows[0].is_active;
  }

  /** True when `countryId` is a country of the shop (the tenancy module's table). */
  isCountryOfShop(ctx: RequestContext, countryId: string): Promise<boolean> {
    return isCountryOf(managerOf(ctx, this.dataSource), ctx.tenantId, countryId);
  }
}
