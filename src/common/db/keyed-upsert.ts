import type { EntityManager } from 'typeorm';

/**
 * Keyed bulk writes of tenant rows (`(tenant_id, key)` unique): the catalogue import's and the tenancy module's
 * upserts of the rows they own. Generic SQL over a table name; each module calls it only for its own tables.
 */

/** Parameters per statement (PostgreSQL allows 65,535). */
const MAX_PARAMS = 30_000;

export interface UpsertSpec {
  table: string;
  /** Columns after tenant_id; `key` and (unless `compareAll`) `import_hash` among them. */
  cols: string[];
  /** Conflict target, default `(tenant_id, key)`. */
  conflict?: string;
  /** Compare every column instead of `import_hash` (tables without one). */
  compareAll?: boolean;
  /** Extra condition for the id lookup of unchanged rows (e.g. `dimension = 'colors'`). */
  lookupWhere?: string;
  /** Columns never overwritten on update. */
  insertOnly?: string[];
}

export interface UpsertResult {
  ids: Map<string, string>;
  created: number;
  updated: number;
  /** Keys inserted or changed. */
  changed: Set<string>;
}

export async function upsert(m: EntityManager, tenantId: string, spec: UpsertSpec, rows: unknown[][], keyIndex = 0): Promise<UpsertResult> {
  const result: UpsertResult = { ids: new Map(), created: 0, updated: 0, changed: new Set() };
  if (rows.length === 0) return result;
  const conflict = spec.conflict ?? '(tenant_id, key)';
  const updatable = spec.cols.filter((c) => c !== 'key' && c !== 'dimension' && !(spec.insertOnly ?? []).includes(c));
  const t = spec.table;
  const distinct = spec.compareAll
    ? `(${updatable.map((c) => `${t}.${c}`).join(', ')}) IS DISTINCT FROM (${updatable.map((c) => `EXCLUDED.${c}`).join(', ')})`
    : `${t}.import_hash IS DISTINCT FROM EXCLUDED.import_hash`;
  const perChunk = Math.max(1, Math.floor(MAX_PARAMS / (spec.cols.length + 1)));
  for (const chunk of chunks(rows, perChunk)) {
    const params: unknown[] = [tenantId];
    const values = chunk.map((r) => `($1, ${r.map((v) => `$${params.push(v)}`).join(', ')})`);
    const returned: Array<{ id: string; key: string; inserted: boolean }> = await m.query(
      `INSERT INTO ${t} AS ${t} (tenant_id, ${spec.cols.join(', ')}) VALUES ${values.join(', ')}
       ON CONFLICT ${conflict} DO UPDATE SET ${updatable.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = now()
       WHERE ${distinct}
       RETURNING id, key, (xmax = 0) AS inserted`,
      params,
    );
    for (const r of returned) {
      result.ids.set(r.key, r.id);
      result.changed.add(r.key);
      if (r.inserted) result.created += 1;
      else result.updated += 1;
    }
    const missing = chunk.map((r) => r[keyIndex] as string).filter((k) => !result.ids.has(k));
    if (missing.length > 0) {
      const found: Array<{ id: string; key: string }> = await m.query(
        `SELECT id, key FROM ${t} WHERE tenant_id = $1 AND key = ANY($2::text[]) ${spec.lookupWhere ? `AND ${spec.lookupWhere}` : ''}`,
        [tenantId, missing],
      );
      for (const r of found) result.ids.set(r.key, r.id);
    }
  }
  return result;
}

export async function insertMany(m: EntityManager, tenantId: string, table: string, cols: string[], rows: unknown[][]): Promise<void> {
  const perChunk = Math.max(1, Math.floor(MAX_PARAMS / (cols.length + 1)));
  for (const chunk of chunks(rows, perChunk)) {
    const params: unknown[] = [tenantId];
    const values = chunk.map((r) => `($1, ${r.map((v) => `$${params.push(v)}`).join(', ')})`);
    await m.query(`INSERT INTO ${table} (tenant_id, ${cols.join(', ')}) VALUES ${values.join(', ')}`, params);
  }
}

export function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
