import type { EntityManager } from 'typeorm';
import { Page } from '../common/paging/page.js';
import type { PageRequest, Pager } from '../common/paging/pager.service.js';
import { TaxZone } from './entities/tax-zone.entity.js';
import { TaxCategory, TaxRate } from './entities/tax.entities.js';
import type { TaxCategoryRow, TaxRateRow, TaxSettings } from './tax-engine.js';
import type { ZonePostcode } from './zone-matcher.js';

/**
 * The tax module owns `tax_zones`, `tax_categories`, `tax_rates`, `tax_settings` and `tax_variants`: every statement on them is here, each in the caller's transaction through its
 * `EntityManager`. Other modules (shipping) read zones through `zonesOf`.
 */

/** A zone as the matcher and other modules read it. */
export interface ZoneRow {
  id: string;
  key: string | null;
  name: string;
  countries: string[];
  regions: string[];
  postcodes: ZonePostcode[];
  /** The currency of the zone's excise amounts (ISO 4217); null or absent: the shop's default currency. */
  excise_currency?: string | null;
  /** Whether the zone's VAT is charged on the excise too; absent: no. */
  excise_in_vat_base?: boolean;
}

/** What a write sets on a zone. */
export type ZoneValues = Omit<ZoneRow, 'id' | 'excise_currency' | 'excise_in_vat_base'> & { exciseCurrency: string | null; exciseInVatBase: boolean };

/** The shop's zones, oldest first (ties by id); all of them, or those of `ids`. */
export function zonesOf(m: EntityManager, tenantId: string, ids?: string[]): Promise<ZoneRow[]> {
  return m.query(
    `SELECT id, key, name, countries, regions, postcodes, excise_currency, excise_in_vat_base FROM tax_zones
      WHERE tenant_id = $1 ${ids ? 'AND id = ANY($2::uuid[])' : ''} ORDER BY created_at, id`,
    ids ? [tenantId, ids] : [tenantId],
  );
}

/** How many zones the shop has. */
export async function zoneCount(m: EntityManager, tenantId: string): Promise<number> {
  const rows: Array<{ n: number }> = await m.query(`SELECT count(*)::int AS n FROM tax_zones WHERE tenant_id = $1`, [tenantId]);
  return rows[0]?.n ?? 0;
}

/** A page of the shop's zones, oldest first. */
export function zonePage(m: EntityManager, tenantId: string, pager: Pager, req: PageRequest): Promise<Page<TaxZone>> {
  const qb = m.getRepository(TaxZone).createQueryBuilder('z').where('z.tenant_id = :tenant', { tenant: tenantId });
  return pager.paginateByCreated(qb, req, 'ASC');
}

/** One zone of the shop, or null (a malformed id is none). */
export function zoneById(m: EntityManager, tenantId: string, id: string): Promise<TaxZone | null> {
  return m.getRepository(TaxZone).findOne({ where: { tenantId, id } });
}

/** The id of the shop's zone with this key, or null. */
export async function zoneIdByKey(m: EntityManager, tenantId: string, key: string): Promise<string | null> {
  const rows: Array<{ id: string }> = await m.query(`SELECT id FROM tax_zones WHERE tenant_id = $1 AND key = $2`, [tenantId, key]);
  return rows[0]?.id ?? null;
}

export function insertZone(m: EntityManager, tenantId: string, values: ZoneValues): Promise<TaxZone> {
  const repo = m.getRepository(TaxZone);
  return repo.save(repo.create({ tenantId, ...values }));
}

export function saveZone(m: EntityManager, zone: TaxZone): Promise<TaxZone> {
  return m.getRepository(TaxZone).save(zone);
}

/** True when a zone was deleted. */
export async function deleteZone(m: EntityManager, tenantId: string, id: string): Promise<boolean> {
  const res = await m.getRepository(TaxZone).createQueryBuilder().delete().where('id = :id AND tenant_id = :tenant', { id, tenant: tenantId }).execute();
  return !!res.affected;
}

// ------------------------------------------------------------------ categories, rates, settings, variants

/** The shop's categories, oldest first. */
export function categoriesOf(m: EntityManager, tenantId: string): Promise<TaxCategoryRow[]> {
  return m.query(`SELECT id, key, name, excise_class FROM tax_categories WHERE tenant_id = $1 ORDER BY created_at, id`, [tenantId]);
}

export function categoryPage(m: EntityManager, tenantId: string, pager: Pager, req: PageRequest): Promise<Page<TaxCategory>> {
  const qb = m.getRepository(TaxCategory).createQueryBuilder('c').where('c.tenant_id = :tenant', { tenant: tenantId });
  return pager.paginateByCreated(qb, req, 'ASC');
}

export function categoryById(m: EntityManager, tenantId: string, id: string): Promise<TaxCategory | null> {
  return m.getRepository(TaxCategory).findOne({ where: { tenantId, id } });
}

export function saveCategory(m: EntityManager, c: TaxCategory): Promise<TaxCategory> {
  return m.getRepository(TaxCategory).save(c);
}

export function newCategory(m: EntityManager, values: Pick<TaxCategory, 'tenantId' | 'key' | 'name' | 'exciseClass'>): TaxCategory {
  return m.getRepository(TaxCategory).create(values);
}

/** The shop's rates, oldest first (all, or those of one category x zone). */
export function ratesOf(m: EntityManager, tenantId: string, pair?: { categoryId: string; zoneId: string }): Promise<TaxRateRow[]> {
  return m.query(
    `SELECT id, category_id, zone_id, rate::text AS rate, excise_per_hl::text AS excise_per_hl, to_char(valid_from, 'YYYY-MM-DD') AS valid_from,
            to_char(valid_to, 'YYYY-MM-DD') AS valid_to
       FROM tax_rates WHERE tenant_id = $1 ${pair ? 'AND category_id = $2 AND zone_id = $3' : ''} ORDER BY created_at, id`,
    pair ? [tenantId, pair.categoryId, pair.zoneId] : [tenantId],
  );
}

export function ratePage(m: EntityManager, tenantId: string, pager: Pager, req: PageRequest): Promise<Page<TaxRate>> {
  const qb = m.getRepository(TaxRate).createQueryBuilder('r').where('r.tenant_id = :tenant', { tenant: tenantId });
  return pager.paginateByCreated(qb, req, 'ASC');
}

export function rateById(m: EntityManager, tenantId: string, id: string): Promise<TaxRate | null> {
  return m.getRepository(TaxRate).findOne({ where: { tenantId, id } });
}

export function saveRate(m: EntityManager, r: TaxRate): Promise<TaxRate> {
  return m.getRepository(TaxRate).save(r);
}

export function newRate(
  m: EntityManager,
  values: Pick<TaxRate, 'tenantId' | 'categoryId' | 'zoneId' | 'rate' | 'excisePerHl' | 'validFrom' | 'validTo'>,
): TaxRate {
  return m.getRepository(TaxRate).create(values);
}

/** Deletes one row of a tax table (`tax_categories`, `tax_rates`); true when one was deleted. */
export async function deleteTaxRow(m: EntityManager, table: 'tax_categories' | 'tax_rates', tenantId: string, id: string): Promise<boolean> {
  const rows: unknown[] = await m.query(
    table === 'tax_categories'
      ? `DELETE FROM tax_categories WHERE tenant_id = $1 AND id = $2 RETURNING id`
      : `DELETE FROM tax_rates WHERE tenant_id = $1 AND id = $2 RETURNING id`,
    [tenantId, id],
  );
  return rows.length > 0;
}

/** The shop's tax settings, or null when it never set any (origin mode, today's behaviour). */
export async function taxSettingsOf(m: EntityManager, tenantId: string): Promise<TaxSettings | null> {
  const rows: TaxSettings[] = await m.query(`SELECT mode, gross_price_policy, excise_display FROM tax_settings WHERE tenant_id = $1`, [tenantId]);
  return rows[0] ?? null;
}

export async function upsertTaxSettings(m: EntityManager, tenantId: string, s: TaxSettings): Promise<void> {
  await m.query(
    `INSERT INTO tax_settings (tenant_id, mode, gross_price_policy, excise_display, updated_at) VALUES ($1, $2, $3, $4, now())
     ON CONFLICT (tenant_id) DO UPDATE SET mode = $2, gross_price_policy = $3, excise_display = $4, updated_at = now()`,
    [tenantId, s.mode, s.gross_price_policy, s.excise_display],
  );
}

/** A variant's tax facts as stored: its category and volume. */
export interface VariantTaxRow {
  variant_id: string;
  category_id: string | null;
  volume_ml: string | null;
}

export function variantTaxesOf(m: EntityManager, tenantId: string, variantIds: string[]): Promise<VariantTaxRow[]> {
  return m.query(`SELECT variant_id, category_id, volume_ml::text AS volume_ml FROM tax_variants WHERE tenant_id = $1 AND variant_id = ANY($2::uuid[])`, [
    tenantId,
    variantIds,
  ]);
}

/** Sets variants' category and volume (a null pair removes the row). */
export async function setVariantTaxes(
  m: EntityManager,
  tenantId: string,
  rows: Array<{ variantId: string; categoryId: string | null; volumeMl: number | null }>,
): Promise<void> {
  const keep = rows.filter((r) => r.categoryId !== null || r.volumeMl !== null);
  const drop = rows.filter((r) => r.categoryId === null && r.volumeMl === null).map((r) => r.variantId);
  if (drop.length) await m.query(`DELETE FROM tax_variants WHERE tenant_id = $1 AND variant_id = ANY($2::uuid[])`, [tenantId, drop]);
  if (!keep.length) return;
  await m.query(
    `INSERT INTO tax_variants (tenant_id, variant_id, category_id, volume_ml)
     SELECT $1, v, c, ml FROM unnest($2::uuid[], $3::uuid[], $4::numeric[]) AS x(v, c, ml)
     ON CONFLICT (tenant_id, variant_id) DO UPDATE SET category_id = excluded.category_id, volume_ml = excluded.volume_ml`,
    [tenantId, keep.map((r) => r.variantId), keep.map((r) => r.categoryId), keep.map((r) => r.volumeMl)],
  );
}

// ------------------------------------------------------------------ import (upserts by key)

/** Upserts a category by key; `created` tells an insert from an update, `changed` whether anything changed. */
export async function upsertCategoryByKey(
  m: EntityManager,
  tenantId: string,
  c: { key: string; name: string; excise_class: string | null },
): Promise<{ id: string; created: boolean; changed: boolean }> {
  const rows: Array<{ id: string; created: boolean }> = await m.query(
    `INSERT INTO tax_categories (tenant_id, key, name, excise_class) VALUES ($1, $2, $3, $4)
     ON CONFLICT (tenant_id, key) DO UPDATE SET name = excluded.name, excise_class = excluded.excise_class, updated_at = now()
       WHERE tax_categories.name IS DISTINCT FROM excluded.name OR tax_categories.excise_class IS DISTINCT FROM excluded.excise_class
     RETURNING id, (xmax = 0) AS created`,
    [tenantId, c.key, c.name, c.excise_class],
  );
  if (rows[0]) return { id: rows[0].id, created: rows[0].created, changed: true };
  const [same]: Array<{ id: string }> = await m.query(`SELECT id FROM tax_categories WHERE tenant_id = $1 AND key = $2`, [tenantId, c.key]);
  return { id: same.id, created: false, changed: false };
}

/** Upserts a zone by key (see `upsertCategoryByKey`). */
export async function upsertZoneByKey(
  m: EntityManager,
  tenantId: string,
  z: ZoneValues & { key: string },
): Promise<{ id: string; created: boolean; changed: boolean }> {
  const rows: Array<{ id: string; created: boolean }> = await m.query(
    `INSERT INTO tax_zones (tenant_id, key, name, countries, regions, postcodes, excise_currency, excise_in_vat_base) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)
     ON CONFLICT (tenant_id, key) WHERE key IS NOT NULL DO UPDATE
       SET name = excluded.name, countries = excluded.countries, regions = excluded.regions, postcodes = excluded.postcodes,
           excise_currency = excluded.excise_currency, excise_in_vat_base = excluded.excise_in_vat_base, updated_at = now()
       WHERE (tax_zones.name, tax_zones.countries, tax_zones.regions, tax_zones.postcodes, tax_zones.excise_currency, tax_zones.excise_in_vat_base)
             IS DISTINCT FROM (excluded.name, excluded.countries, excluded.regions, excluded.postcodes, excluded.excise_currency, excluded.excise_in_vat_base)
     RETURNING id, (xmax = 0) AS created`,
    [tenantId, z.key, z.name, z.countries, z.regions, JSON.stringify(z.postcodes), z.exciseCurrency, z.exciseInVatBase],
  );
  if (rows[0]) return { id: rows[0].id, created: rows[0].created, changed: true };
  const id = await zoneIdByKey(m, tenantId, z.key);
  return { id: id!, created: false, changed: false };
}

/** Inserts rates (already checked). */
export async function insertRates(
  m: EntityManager,
  tenantId: string,
  rates: Array<{ category_id: string; zone_id: string; rate: number; excise_per_hl: number; valid_from: string | null; valid_to: string | null }>,
): Promise<void> {
  if (!rates.length) return;
  await m.query(
    `INSERT INTO tax_rates (tenant_id, category_id, zone_id, rate, excise_per_hl, valid_from, valid_to)
     SELECT $1, c, z, r, e, f, t FROM unnest($2::uuid[], $3::uuid[], $4::numeric[], $5::numeric[], $6::date[], $7::date[]) AS x(c, z, r, e, f, t)`,
    [
      tenantId,
      rates.map((r) => r.category_id),
      rates.map((r) => r.zone_id),
      rates.map((r) => r.rate),
      rates.map((r) => r.excise_per_hl),
      rates.map((r) => r.valid_from),
      rates.map((r) => r.valid_to),
    ],
  );
}

/** Deletes the rates of the given category x zone pairs. */
export async function deleteRatesOfPairs(m: EntityManager, tenantId: string, pairs: Array<{ categoryId: string; zoneId: string }>): Promise<void> {
  if (!pairs.length) return;
  await m.query(`DELETE FROM tax_rates r USING unnest($2::uuid[], $3::uuid[]) AS p(c, z) WHERE r.tenant_id = $1 AND r.category_id = p.c AND r.zone_id = p.z`, [
    tenantId,
    pairs.map((p) => p.categoryId),
    pairs.map((p) => p.zoneId),
  ]);
}

/** A variant's category key and volume as stored. */
export interface VariantTaxRecord {
  variant_id: string;
  category: string | null;
  volume_ml: string | null;
}

/** The category key and volume of every variant (for the export), or of the variants named, by variant id. */
export function variantTaxRecordsOf(m: EntityManager, tenantId: string, variantIds?: readonly string[]): Promise<VariantTaxRecord[]> {
  return m.query(
    `SELECT tv.variant_id, c.key AS category, tv.volume_ml::text AS volume_ml
       FROM tax_variants tv LEFT JOIN tax_categories c ON c.tenant_id = tv.tenant_id AND c.id = tv.category_id
      WHERE tv.tenant_id = $1 ${variantIds ? 'AND tv.variant_id = ANY($2::uuid[])' : ''}`,
    variantIds ? [tenantId, variantIds] : [tenantId],
  );
}
