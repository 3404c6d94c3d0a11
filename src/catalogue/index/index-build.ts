import type { DataSource, QueryRunner } from 'typeorm';
import { parseLsn } from '../../database/lsn.js';
import { IndexRow, TenantIndex } from './tenant-index.js';

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
export const LSN_SQL = `pg_current_wal_insert_lsn()::text`;

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
 * Builds a tenant's index from `variant_search` on the primary: one REPEATABLE READ snapshot, exported to a second
 * connection, the product-id space read in `BUILD_RANGES` ordered ranges by `BUILD_STREAMS` connections at once
 * (so the database's join, sort and JSON run on two cores; memory holds one range per stream while building).
 * The snapshot's WAL position becomes the index's `buildLsn`.
 */
export async function buildIndex(dataSource: DataSource, tenantId: string): Promise<TenantIndex> {
  const idx = new TenantIndex(tenantId);
  const runners: QueryRunner[] = [];
  try {
    const lead = dataSource.createQueryRunner('master');
    runners.push(lead);
    await lead.connect();
    await lead.startTransaction('REPEATABLE READ');
    const [v] = await lead.query(
      `SELECT coalesce((SELECT version FROM catalogue_versions WHERE tenant_id = $1), 0) AS version, pg_export_snapshot() AS snapshot, ${LSN_SQL} AS lsn`,
      [tenantId],
    );
    idx.version = Number(v.version);
    idx.buildLsn = parseLsn(v.lsn);
    for (let i = 1; i < BUILD_STREAMS; i++) {
      const qr = dataSource.createQueryRunner('master');
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
      lead.query(`SELECT variant_id, sum(delta)::float8 AS n FROM stock_movements WHERE tenant_id = $1 GROUP BY variant_id`, [tenantId]),
      runners[runners.length - 1].query(`SELECT id, sku FROM variants WHERE tenant_id = $1 AND sku IS NOT NULL`, [tenantId]),
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
        const raw: Array<{ j: string }> = await qr.query(
          `SELECT ${ROW_JSON} FROM variant_search vs WHERE ${where} ORDER BY vs.product_id, vs.position, vs.variant_id`,
          params,
        );
        let current: string | null = null;
        let rows: IndexRow[] = [];
        for (const r of raw) {
          const row = jsonRow(r.j, onHand, skus);
          if (row.product_id !== current) {
            if (current !== null) idx.putProduct(current, rows, idx.buildLsn);
            current = row.product_id;
            rows = [];
          }
          rows.push(row);
        }
        if (current !== null) idx.putProduct(current, rows, idx.buildLsn);
      }
    };
    await Promise.all(runners.map(stream));
    for (const qr of runners) await qr.commitTransaction();
    return idx;
  } catch (err) {
    for (const qr of runners) if (qr.isTransactionActive) await qr.rollbackTransaction().catch(() => undefined);
    throw err;
  } finally {
    for (const qr of runners) await qr.release().catch(() => undefined);
  }
}

/** Re-reads products from the primary and replaces them in the index (absent rows: no longer visible), with the statement's WAL position. */
export async function reloadProducts(dataSource: DataSource, idx: TenantIndex, productIds: string[]): Promise<void> {
  if (productIds.length === 0) return;
  const [raw, [at]]: [Array<Record<string, unknown>>, Array<{ lsn: string }>] = await dataSource.transaction('REPEATABLE READ', async (m) => [
    await m.query(
      `SELECT ${ROW_COLUMNS}, ${ON_HAND} ${ROW_FROM} WHERE vs.tenant_id = $1 AND vs.product_id = ANY($2::uuid[]) ORDER BY vs.product_id, vs.position, vs.variant_id`,
      [idx.tenantId, productIds],
    ),
    await m.query(`SELECT ${LSN_SQL} AS lsn`),
  ]);
  const lsn = parseLsn(at?.lsn);
  const byProduct = new Map<string, IndexRow[]>(productIds.map((id) => [id, []]));
  for (const r of raw) byProduct.get(r.product_id as string)?.push(indexRow(r, Number(r.on_hand)));
  for (const [id, list] of byProduct) idx.putProduct(id, list, lsn);
}

/** What a tenant's index will hold, counted before it is built (for `estimateIndexBytes`). */
export interface IndexRowCounts {
  products: number;
  variants: number;
  /** Characters of the titles (one per variant row) and SKUs. */
  textChars: number;
}

/** Counts the rows a build of the tenant's index would read (one indexed scan of `variant_search`). */
export async function countIndexRows(dataSource: DataSource, tenantId: string): Promise<IndexRowCounts> {
  const [row]: Array<{ products: number; variants: number; text_chars: number }> = await dataSource.query(
    `SELECT count(DISTINCT vs.product_id)::int AS products, count(*)::int AS variants,
            coalesce(sum(length(vs.title_sort) + coalesce(length(v.sku), 0)), 0)::float8 AS text_chars
       ${ROW_FROM} WHERE vs.tenant_id = $1`,
    [tenantId],
  );
  return { products: row.products, variants: row.variants, textChars: row.text_chars };
}
