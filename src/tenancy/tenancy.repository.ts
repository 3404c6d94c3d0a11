import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Translations } from '../common/db/base.entity.js';
import { upsert, type UpsertResult } from '../common/db/keyed-upsert.js';
import { Currency } from './entities/currency.entity.js';
import { DEFAULT_SETTINGS, Tenant, type TenantSettings } from './entities/tenant.entity.js';

/**
 * The tenancy module owns `tenants`, `currencies` and `countries`: other modules read and write them through the
 * typed functions here (the catalogue import's currencies and countries included) (each runs in the caller's transaction through its `EntityManager`).
 */

/** The shop's settings (the defaults under what it stored) in the caller's transaction; null for an unknown shop. */
export async function tenantSettingsOf(m: EntityManager, tenantId: string): Promise<TenantSettings | null> {
  const tenant = await m.findOne(Tenant, { where: { id: tenantId } });
  return tenant ? { ...DEFAULT_SETTINGS, ...tenant.settings } : null;
}

/** A currency of a shop as stored (`rate` as exact decimal text). */
export interface CurrencyRecord {
  key: string;
  code: string;
  name: string;
  symbol: string | null;
  rate: string;
  precision: number;
  published: boolean;
  is_default: boolean;
}

/** Every currency of the shop, published or not, the default first, then by code. */
export function currencyRecordsOf(m: EntityManager, tenantId: string): Promise<CurrencyRecord[]> {
  return m.query(
    `SELECT key, code, name, symbol, rate::text AS rate, precision, published, is_default FROM currencies WHERE tenant_id = $1 ORDER BY is_default DESC, code`,
    [tenantId],
  );
}

/** A country of a shop as stored: key, ISO code, translated name, shipping. */
export interface CountryRecord {
  key: string;
  code: string;
  name: Translations;
  shipping: boolean;
}

/** Every country of the shop, by code then key. */
export function countryRecordsOf(m: EntityManager, tenantId: string): Promise<CountryRecord[]> {
  return m.query(`SELECT key, code, name, shipping FROM countries WHERE tenant_id = $1 ORDER BY code, key`, [tenantId]);
}

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

/** A currency row as the catalogue import gives it (CONTRACT 6): key, code, name, symbol, rate, precision, published. */
export type CurrencyUpsertRow = [key: string, code: string, name: string, symbol: string | null, rate: string, precision: number, published: boolean];
/** A country row as the catalogue import gives it: key, ISO code, name (the translations as JSON text), shipping. */
export type CountryUpsertRow = [key: string, code: string, name: string, shipping: boolean];

/** Inserts or updates the shop's currencies by key (unchanged rows are left alone); ids by key and counts. */
export function upsertCurrencies(m: EntityManager, tenantId: string, rows: CurrencyUpsertRow[]): Promise<UpsertResult> {
  return upsert(m, tenantId, { table: 'currencies', cols: ['key', 'code', 'name', 'symbol', 'rate', 'precision', 'published'], compareAll: true }, rows);
}

/** Inserts or updates the shop's countries by key (unchanged rows are left alone); ids by key and counts. */
export function upsertCountries(m: EntityManager, tenantId: string, rows: CountryUpsertRow[]): Promise<UpsertResult> {
  return upsert(m, tenantId, { table: 'countries', cols: ['key', 'code', 'name', 'shipping'], compareAll: true }, rows);
}

/**
 * Makes the shop's currency with this ISO code its default (and published): `unknown` when the shop has no such
 * currency, `unchanged` when it already is the default, `changed` otherwise.
 */
export async function setDefaultCurrency(m: EntityManager, tenantId: string, code: string): Promise<'unknown' | 'unchanged' | 'changed'> {
  const [hit]: Array<{ id: string; is_default: boolean }> = await m.query(`SELECT id, is_default FROM currencies WHERE tenant_id = $1 AND code = $2`, [
    tenantId,
    code,
  ]);
  if (!hit) return 'unknown';
  if (hit.is_default) return 'unchanged';
  await m.query(`UPDATE currencies SET is_default = false, updated_at = now() WHERE tenant_id = $1 AND is_default`, [tenantId]);
  await m.query(`UPDATE currencies SET is_default = true, published = true, updated_at = now() WHERE id = $1`, [hit.id]);
  return 'changed';
}

/** What a new shop is made of: its handle, name, domain and the ISO code of its first (default) currency. */
export interface NewShop {
  handle: string;
  name: string;
  domain: string | null;
  currencyCode: string;
}

/** The statements of `TenancyService`: shops and their currencies (the functions above serve other modules). */
@Injectable()
export class TenancyRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Runs `work` in one new transaction. */
  transaction<R>(work: (m: EntityManager) => Promise<R>): Promise<R> {
    return this.dataSource.transaction(work);
  }

  /** Whether a shop already has this handle (compared without case). */
  async handleTaken(m: EntityManager, handle: string): Promise<boolean> {
    const rows: unknown[] = await m.query(`SELECT 1 FROM tenants WHERE lower(handle) = lower($1)`, [handle]);
    return rows.length > 0;
  }

  /** Inserts the shop with the default settings and its one currency (published, the default, rate 1). */
  async insertShop(m: EntityManager, shop: NewShop): Promise<Tenant> {
    const tenant = await m.save(m.create(Tenant, { handle: shop.handle, name: shop.name, domain: shop.domain, settings: { ...DEFAULT_SETTINGS } }));
    const code = shop.currencyCode;
    await m.save(
      m.create(Currency, { tenantId: tenant.id, key: code, code, name: code, symbol: code, rate: '1', precision: 2, published: true, isDefault: true }),
    );
    return tenant;
  }

  /** The shop with this handle (compared without case), or null. */
  findByHandle(handle: string): Promise<Tenant | null> {
    return this.dataSource.getRepository(Tenant).createQueryBuilder('t').where('lower(t.handle) = lower(:handle)', { handle }).getOne();
  }

  /** The shop with this id, or null. */
  findById(id: string): Promise<Tenant | null> {
    return this.dataSource.getRepository(Tenant).findOne({ where: { id } });
  }

  /** Ids of the shops whose domain is `domain` (lower case). */
  async idsByDomain(domain: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(`SELECT id FROM tenants WHERE lower(domain) = $1`, [domain]);
    return rows.map((r) => r.id);
  }

  /** Ids of at most `limit` shops (whether there is exactly one). */
  async someIds(limit: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(`SELECT id FROM tenants LIMIT $1`, [limit]);
    return rows.map((r) => r.id);
  }

  /** The shop's published currencies, the default first, then by code. */
  publishedCurrencies(tenantId: string): Promise<Currency[]> {
    return this.dataSource.getRepository(Currency).find({ where: { tenantId, published: true }, order: { isDefault: 'DESC', code: 'ASC' } });
  }

  /** Every currency of the shop, by code. */
  currencies(tenantId: string): Promise<Currency[]> {
    return this.dataSource.getRepository(Currency).find({ where: { tenantId }, order: { code: 'ASC' } });
  }

  /** Stores `patch` over the shop's settings in the caller's transaction (the shop must exist). */
  async mergeSettings(m: EntityManager, tenantId: string, patch: Partial<TenantSettings>): Promise<void> {
    const tenant = await m.findOneOrFail(Tenant, { where: { id: tenantId } });
    tenant.settings = { ...tenant.settings, ...patch };
    await m.save(tenant);
  }
}
