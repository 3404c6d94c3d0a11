import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { returning } from '../common/db/returning.js';
import type { SynonymKind } from './synonym-rules.js';

/** A stored rule as every read returns it. */
export interface SearchSynonymRow {
  id: string;
  key: string | null;
  kind: SynonymKind;
  terms: string[];
  synonyms: string[];
  created_at: Date;
  updated_at: Date | null;
}

/** What a write sets. */
export interface SearchSynonymValues {
  key: string | null;
  kind: SynonymKind;
  terms: string[];
  synonyms: string[];
}

const COLUMNS = 'id, key, kind, terms, synonyms, created_at, updated_at';

/**
 * The `search-synonyms` module owns `search_synonyms`: every statement on it is here, in the caller's transaction
 * when `ctx` carries one. Its trigger (migration SearchSynonyms1795709000000) notifies every instance of each write.
 */
@Injectable()
export class SearchSynonymsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private m(ctx: RequestContext): EntityManager {
    return managerOf(ctx, this.dataSource);
  }

  /** A page of the shop's rules, oldest first (ties by id), `limit + 1` rows when more exist. */
  page(ctx: RequestContext, after: [string, string] | null, limit: number): Promise<SearchSynonymRow[]> {
    return this.m(ctx).query(
      `SELECT ${COLUMNS} FROM search_synonyms WHERE tenant_id = $1
       ${after ? 'AND (created_at, id) > ($3::timestamptz, $4::uuid)' : ''} ORDER BY created_at, id LIMIT $2`,
      after ? [ctx.tenantId, limit + 1, ...after] : [ctx.tenantId, limit + 1],
    );
  }

  /** Every rule of the shop, oldest first (the engine's cache, the export). */
  all(ctx: RequestContext): Promise<SearchSynonymRow[]> {
    return this.m(ctx).query(`SELECT ${COLUMNS} FROM search_synonyms WHERE tenant_id = $1 ORDER BY created_at, id`, [ctx.tenantId]);
  }

  /** Every rule of a shop read outside any request (the engine's cache). */
  allOf(tenantId: string): Promise<SearchSynonymRow[]> {
    return this.dataSource.manager.query(`SELECT ${COLUMNS} FROM search_synonyms WHERE tenant_id = $1 ORDER BY created_at, id`, [tenantId]);
  }

  async byId(ctx: RequestContext, id: string, lock = false): Promise<SearchSynonymRow | null> {
    const rows: SearchSynonymRow[] = await this.m(ctx).query(
      `SELECT ${COLUMNS} FROM search_synonyms WHERE tenant_id = $1 AND id = $2 ${lock ? 'FOR UPDATE' : ''}`,
      [ctx.tenantId, id],
    );
    return rows[0] ?? null;
  }

  async byKey(ctx: RequestContext, key: string): Promise<SearchSynonymRow | null> {
    const rows: SearchSynonymRow[] = await this.m(ctx).query(`SELECT ${COLUMNS} FROM search_synonyms WHERE tenant_id = $1 AND key = $2`, [ctx.tenantId, key]);
    return rows[0] ?? null;
  }

  async count(ctx: RequestContext): Promise<number> {
    const rows: Array<{ n: number }> = await this.m(ctx).query(`SELECT count(*)::int AS n FROM search_synonyms WHERE tenant_id = $1`, [ctx.tenantId]);
    return rows[0]?.n ?? 0;
  }

  async insert(ctx: RequestContext, v: SearchSynonymValues): Promise<SearchSynonymRow> {
    const rows = await returning<SearchSynonymRow>(
      this.m(ctx),
      `INSERT INTO search_synonyms (tenant_id, key, kind, terms, synonyms) VALUES ($1, $2, $3, $4::text[], $5::text[]) RETURNING ${COLUMNS}`,
      [ctx.tenantId, v.key, v.kind, v.terms, v.synonyms],
    );
    return rows[0];
  }

  /** Inserts rules a millisecond apart (so they list in the given order); a key the shop already has is left as it is. */
  async insertMissing(ctx: RequestContext, rules: readonly SearchSynonymValues[]): Promise<number> {
    if (rules.length === 0) return 0;
    const rows = await returning<{ id: string }>(
      this.m(ctx),
      `INSERT INTO search_synonyms (tenant_id, key, kind, terms, synonyms, created_at)
       SELECT $1, r.key, r.kind, ARRAY(SELECT jsonb_array_elements_text(r.terms)), ARRAY(SELECT jsonb_array_elements_text(r.synonyms)),
              now() + (r.ord - 1) * interval '1 millisecond'
         FROM ROWS FROM (jsonb_to_recordset($2::jsonb) AS (key text, kind text, terms jsonb, synonyms jsonb)) WITH ORDINALITY AS r(key, kind, terms, synonyms, ord)
       ON CONFLICT (tenant_id, key) WHERE key IS NOT NULL DO NOTHING RETURNING id`,
      [ctx.tenantId, JSON.stringify(rules)],
    );
    return rows.length;
  }

  async update(ctx: RequestContext, id: string, v: SearchSynonymValues): Promise<SearchSynonymRow | null> {
    const rows = await returning<SearchSynonymRow>(
      this.m(ctx),
      `UPDATE search_synonyms SET key = $3, kind = $4, terms = $5::text[], synonyms = $6::text[], updated_at = now()
        WHERE tenant_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [ctx.tenantId, id, v.key, v.kind, v.terms, v.synonyms],
    );
    return rows[0] ?? null;
  }

  /** True when a rule was deleted. */
  async delete(ctx: RequestContext, id: string): Promise<boolean> {
    const rows = await returning<{ id: string }>(this.m(ctx), `DELETE FROM search_synonyms WHERE tenant_id = $1 AND id = $2 RETURNING id`, [ctx.tenantId, id]);
    return rows.length > 0;
  }
}
