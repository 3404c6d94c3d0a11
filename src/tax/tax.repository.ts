import type { EntityManager } from 'typeorm';
import { Page } from '../common/paging/page.js';
import type { PageRequest, Pager } from '../common/paging/pager.service.js';
import { TaxZone } from './entities/tax-zone.entity.js';
import type { ZonePostcode } from './zone-matcher.js';

/**
 * The tax module owns `tax_zones`: every statement on them is here, each in the caller's transaction through its
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
}

/** What a write sets on a zone. */
export type ZoneValues = Omit<ZoneRow, 'id'>;

/** The shop's zones, oldest first (ties by id); all of them, or those of `ids`. */
export function zonesOf(m: EntityManager, tenantId: string, ids?: string[]): Promise<ZoneRow[]> {
  return m.query(
    `SELECT id, key, name, countries, regions, postcodes FROM tax_zones
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
