import { Injectable } from '@nestjs/common';
import { DataSource, QueryRunner } from 'typeorm';
import { CatalogueIndexSource, type IndexRow, type IndexRowCounts, type IndexRowSink } from '../../catalogue-search/index.js';
import { parseLsn } from '../../database/lsn.js';
import type { CollectionScope } from '../../extensions/index.js';
import { collectionClause, Params } from './catalogue-query.js';

/** Product-id ranges of the build (each one statement, ordered by product): the memory bound of a build is one range. */
const BUILD_RANGES = 16;
/** Connections reading ranges at once, in one exported snapshot (the database side of a build is most of it). */
const BUILD_STREAMS = 2;

/** The index's columns of `variant_search` (arrays as text: parsed faster than pg's array parser). */
const ROW_COLUMNS = `vs.variant_id, vs.product_id, vs.position, (extract(epoch FROM vs.product_created_at) * 1000)::float8 AS created,
    vs.title_sort, vs.rating::float8 AS rating, vs.gross::text AS gross, vs.on_sale, vs.available, v.sku,
    vs.manufacturer_id, vs.color_id, vs.region_id, vs.year_id, vs.size_id, vs.country_id,
    array_to_string(vs.option_ids, ',') AS option_ids, array_to_string(vs.category_ids, ',') AS category_ids,
    vs.search_text, (SELECT p.handle FROM products p WHERE p.id = vs.product_id AND p.tenant_id = vs.tenant_id) AS handle`;
const ROW_FROM = `FROM variant_search vs JOIN variants v ON v.id = vs.variant_id AND v.tenant_id = vs.tenant_id`;
const ON_HAND = `coalesce((SELECT sum(sm.delta) FROM stock_movements sm WHERE sm.tenant_id = vs.tenant_id AND sm.variant_id = vs.variant_id), 0)::float8 AS on_hand`;

/**
 * The same columns but the SKU as one JSON array per row: the build parses one text per row natively (JSON.parse),
 * not 18 fields. The SKUs come from one read of `variants` per build: joining them per range scanned the whole
 * `variants` table once per range (a hash join), four times the range's own cost.
 */
const ROW_JSON = `json_build_array(vs.variant_id, vs.product_id, vs.position, (extract(epoch FROM vs.product_created_at) * 1000)::float8,
    vs.title_sort, vs.rating::float8, vs.gross::text, vs.on_sale, vs.available,
    vs.manufacturer_id, vs.color_id, vs.region_id, vs.year_id, vs.size_id, vs.country_id, vs.option_ids, vs.category_ids,
    vs.search_text, (SELECT p.handle FROM products p WHERE p.id = vs.product_id AND p.tenant_id = vs.tenant_id))::text AS j`;

/**
 * The primary's WAL insert position as a number (`X/Y` hex halves): read in the statement that reads the rows, it is
 * at or after the commit of everything that statement saw.
 */
const LSN_SQL = `pg_current_wal_insert_lsn()::text`;

function jsonRow(j: string, onHand: Map<string, number>, skus: Map<string, string>): IndexRow {
  const a = JSON.parse(j) as unknown[];
  const id = a[0] as string;
  return {
    variant_id: id,
    product_id: a[1] as string,
    position: a[2] as number,
    created: a[3] as number,
    title_sort: a[4] as string,
    rating: a[5] as number,
    gross: a[6] as string,
    on_sale: a[7] as boolean,
    available: a[8] as boolean,
    sku: skus.get(id) ?? null,
    manufacturer_id: a[9] as string | null,
    color_id: a[10] as string | null,
    region_id: a[11] as string | null,
    year_id: a[12] as string | null,
    size_id: a[13] as string | null,
    country_id: a[14] as string | null,
    option_ids: (a[15] as string[] | null) ?? [],
    category_ids: (a[16] as string[] | null) ?? [],
    search_text: a[17] as string | null,
    handle: a[18] as string | null,
    on_hand: onHand.get(id) ?? 0,
  };
}

/** A raw row (arrays as comma-separated text) as an IndexRow. */
function indexRow(r: Record<string, unknown>, onHand: number): IndexRow {
  const list = (v: unknown) => (typeof v === 'string' && v !== '' ? v.split(',') : Array.isArray(v) ? (v as string[]) : []);
  return { ...(r as unknown as IndexRow), option_ids: list(r.option_ids), category_ids: list(r.category_ids), on_hand: onHand };
}

/** The i-th of n product-id ranges as `[from, to)` uuid bounds (null: open end). */
function range(i: number, n: number): [string | null, string | null] {
  const bound = (k: number) =>
    k <= 0 || k >= n
      ? null
      : `${Math.floor((k * 0x10000) / n)
          .toString(16)
          .padStart(4, '0')}0000-0000-0000-0000-000000000000`;
  return [bound(i), bound(i + 1)];
}

/**
 * The catalogue engine's reads of the catalogue's tables (`CatalogueIndexSource`, issue 36): `variant_search` rows
 * for a build and for a product delta, and the members of a collection.
 */
@Injectable()
export class CatalogueIndexRepository extends CatalogueIndexSource {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  /**
   * Reads a tenant's rows from `variant_search` on the primary: one REPEATABLE READ snapshot, exported to a second
   * connection, the product-id space read in `BUILD_RANGES` ordered ranges by `BUILD_STREAMS` connections at once
   * (so the database's join, sort and JSON run on two cores; memory holds one range per stream while building).
   * The snapshot's version and WAL position go to the sink first.
   */
  async readAll(tenantId: string, sink: IndexRowSink): Promise<void> {
    const runners: QueryRunner[] = [];
    try {
      const lead = this.dataSource.createQueryRunner('master');
      runners.push(lead);
      await lead.connect();
      await lead.startTransaction('REPEATABLE READ');
      const [v] = (await lead.query(
        `SELECT coalesce((SELECT version FROM catalogue_versions WHERE tenant_id = $1), 0) AS version, pg_export_snapshot() AS snapshot, ${LSN_SQL} AS lsn`,
        [tenantId],
      )) as Array<{ version: string | number; snapshot: string; lsn: string }>;
      sink.begin(Number(v.version), parseLsn(v.lsn));
      for (let i = 1; i < BUILD_STREAMS; i++) {
        const qr = this.dataSource.createQueryRunner('master');
        runners.push(qr);
        await qr.connect();
        await qr.startTransaction('REPEATABLE READ');
        await qr.query(`SET TRANSACTION SNAPSHOT '${String(v.snapshot).replace(/'/g, '')}'`);
      }
      for (const qr of runners) await qr.query(`SET LOCAL work_mem = '64MB'`);
      // on-hand of every stocked variant in one aggregate (not one sub-select per row), and every SKU in one read, at once
      const onHand = new Map<string, number>();
      const skus = new Map<string, string>();
      const [stock, skuRows]: [Array<{ variant_id: string; n: number }>, Array<{ id: string; sku: string }>] = await Promise.all([
        lead.query(`SELECT variant_id, sum(delta)::float8 AS n FROM stock_movements WHERE tenant_id = $1 GROUP BY variant_id`, [tenantId]) as Promise<
          Array<{ variant_id: string; n: number }>
        >,
        runners[runners.length - 1].query(`SELECT id, sku FROM variants WHERE tenant_id = $1 AND sku IS NOT NULL`, [tenantId]) as Promise<
          Array<{ id: string; sku: string }>
        >,
      ]);
      for (const r of stock) onHand.set(r.variant_id, r.n);
      for (const r of skuRows) skus.set(r.id, r.sku);
      let next = 0;
      const stream = async (qr: QueryRunner) => {
        for (let i = next++; i < BUILD_RANGES; i = next++) {
          const [from, to] = range(i, BUILD_RANGES);
          const params: unknown[] = [tenantId];
          let where = `vs.tenant_id = $1`;
          if (from) where += ` AND vs.product_id >= $${params.push(from)}::uuid`;
          if (to) where += ` AND vs.product_id < $${params.push(to)}::uuid`;
          const raw = (await qr.query(
            `SELECT ${ROW_JSON} FROM variant_search vs WHERE ${where} ORDER BY vs.product_id, vs.position, vs.variant_id`,
            params,
          )) as Array<{ j: string }>;
          let current: string | null = null;
          let rows: IndexRow[] = [];
          for (const r of raw) {
            const row = jsonRow(r.j, onHand, skus);
            if (row.product_id !== current) {
              if (current !== null) sink.product(current, rows);
              current = row.product_id;
              rows = [];
            }
            rows.push(row);
          }
          if (current !== null) sink.product(current, rows);
        }
      };
      await Promise.all(runners.map(stream));
      for (const qr of runners) await qr.commitTransaction();
    } catch (err) {
      for (const qr of runners) if (qr.isTransactionActive) await qr.rollbackTransaction().catch(() => undefined);
      throw err;
    } finally {
      for (const qr of runners) await qr.release().catch(() => undefined);
    }
  }

  /** Re-reads products from the primary (absent rows: no longer visible), with the statement's WAL position. */
  async readProducts(tenantId: string, productIds: string[]): Promise<{ rows: IndexRow[]; lsn: number }> {
    const [raw, [at]]: [Array<Record<string, unknown>>, Array<{ lsn: string }>] = await this.dataSource.transaction('REPEATABLE READ', async (m) => [
      await m.query(
        `SELECT ${ROW_COLUMNS}, ${ON_HAND} ${ROW_FROM} WHERE vs.tenant_id = $1 AND vs.product_id = ANY($2::uuid[]) ORDER BY vs.product_id, vs.position, vs.variant_id`,
        [tenantId, productIds],
      ),
      await m.query(`SELECT ${LSN_SQL} AS lsn`),
    ]);
    return { rows: raw.map((r) => indexRow(r, Number(r.on_hand))), lsn: parseLsn(at?.lsn) };
  }

  /** Counts the rows a build of the tenant's index would read (one indexed scan of `variant_search`). */
  async countRows(tenantId: string): Promise<IndexRowCounts> {
    const [row]: Array<{ products: number; variants: number; text_chars: number }> = await this.dataSource.query(
      `SELECT count(DISTINCT vs.product_id)::int AS products, count(*)::int AS variants,
            coalesce(sum(length(vs.title_sort) + coalesce(length(v.sku), 0)), 0)::float8 AS text_chars
       ${ROW_FROM} WHERE vs.tenant_id = $1`,
      [tenantId],
    );
    return { products: row.products, variants: row.variants, textChars: row.text_chars };
  }

  async manualPicks(tenantId: string, collectionId: string): Promise<Array<{ product_id: string; pos: number }>> {
    const rows: Array<{ product_id: string; pos: number }> = await this.dataSource.query(
      `SELECT product_id, min(position)::float8 AS pos FROM collection_products WHERE tenant_id = $1 AND collection_id = $2 GROUP BY product_id`,
      [tenantId, collectionId],
    );
    return rows;
  }

  async smartMembers(tenantId: string, scope: CollectionScope): Promise<string[]> {
    const params = new Params();
    const t = params.add(tenantId);
    const rows: Array<{ product_id: string }> = await this.dataSource.query(
      `SELECT ps.product_id FROM product_search ps WHERE ps.tenant_id = ${t} AND ${collectionClause(params, t, scope, 'ps')}`,
      params.values,
    );
    return rows.map((r) => r.product_id);
  }
}
