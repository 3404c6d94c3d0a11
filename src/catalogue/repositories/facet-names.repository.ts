import type { DataSource } from 'typeorm';
import type { Translations } from '../../common/db/base.entity.js';
import type { FacetKey } from '../../extensions/index.js';

/** The rows of a tenant's facet-name snapshot (`FacetNameSnapshot`), each list in its rank order. */
export interface FacetNameRows {
  /** `dimension`: a facet key (`colors`, `sizes`, …; the column's check constraint). */
  facets: Array<{ id: string; dimension: FacetKey; key: string; name: Translations; position: number }>;
  makers: Array<{ id: string; key: string; name: string | null; logo_url: string | null }>;
  cats: Array<{ id: string; key: string; name: Translations; path: string[]; position: number }>;
  fieldRows: Array<{ id: string; key: string; label: Translations; type: string | null; position: number }>;
  options: Array<{ id: string; key: string; name: Translations; value: string | null; field_id: string; field_position: number; position: number }>;
}

/** Reads the five lists at once (five connections of the pool, outside any transaction). */
export async function facetNameRows(dataSource: DataSource, tenantId: string): Promise<FacetNameRows> {
  const q = <T>(sql: string): Promise<T[]> => dataSource.query(sql, [tenantId]);
  const [facets, makers, cats, fieldRows, options] = await Promise.all([
    q<FacetNameRows['facets'][number]>(`SELECT id, dimension, key, name, position FROM facet_values WHERE tenant_id = $1 ORDER BY position, key`),
    q<FacetNameRows['makers'][number]>(`SELECT id, key, name, logo_url FROM manufacturers WHERE tenant_id = $1 ORDER BY lower(name), key`),
    q<FacetNameRows['cats'][number]>(`SELECT id, key, name, path, position FROM categories WHERE tenant_id = $1 ORDER BY array_length(path, 1), position, key`),
    q<FacetNameRows['fieldRows'][number]>(`SELECT id, key, label, type, position FROM custom_fields WHERE tenant_id = $1 ORDER BY position, key`),
    q<
      FacetNameRows['options'][number]
    >(`SELECT o.id, o.key, o.name, o.value, o.field_id, f.position AS field_position, o.position FROM custom_field_options o JOIN custom_fields f ON f.id = o.field_id
         WHERE o.tenant_id = $1 ORDER BY f.position, f.key, o.position, o.key`),
  ]);
  return { facets, makers, cats, fieldRows, options };
}
