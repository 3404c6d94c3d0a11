import type { EntityManager } from 'typeorm';
import { AppError } from '../../common/http/app-error.js';
import { Page } from '../../common/paging/page.js';
import type { PageRequest, Pager, SortValue } from '../../common/paging/pager.service.js';
import { collectionScopesOf } from '../../collections/index.js';
import { currencyRecordsOf, type TenantSettings } from '../../tenancy/index.js';
import type { AdminProductFilters } from '../admin-product-filters.js';
import { AdminProductRow, CurrencyRow, mapAdminProductRow, mapCollectionRef } from '../admin-product.mapper.js';
import { collectionClause } from './catalogue-query.js';
import type { AdminProductRowDto, CollectionRefDto } from '../dto/admin-product.dto.js';

/** The admin catalogue's read queries: the cursored list with its filters, and the facts the detail adds. */

/** Positional parameters for one statement (the shape `collectionClause` takes). */
class Params {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

export async function listAdminProducts(
  m: EntityManager,
  pager: Pager,
  tenantId: string,
  page: PageRequest,
  f: AdminProductFilters,
  settings: TenantSettings,
): Promise<Page<AdminProductRowDto>> {
  const params = new Params();
  const t = params.add(tenantId);
  const where = [`p.tenant_id = ${t}`, f.archived ? 'p.archived_at IS NOT NULL' : 'p.archived_at IS NULL'];
  if (f.published !== undefined) where.push(`p.published = ${params.add(f.published)}`);
  if (f.vendor) where.push(`p.manufacturer_id = ANY(${params.add(f.vendor)}::uuid[])`);
  if (f.categoryIds) {
    where.push(
      `EXISTS (SELECT 1 FROM categories c WHERE c.tenant_id = p.tenant_id AND c.id = ANY(p.category_ids) AND c.path && ${params.add(f.categoryIds)}::uuid[])`,
    );
  }
  if (f.collectionIds) where.push(await collectionFilter(m, tenantId, f.collectionIds, params, t));
  if (f.q) {
    const like = params.add(`%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`(EXISTS (SELECT 1 FROM jsonb_each_text(p.title) tt WHERE tt.value ILIKE ${like}) OR p.handle ILIKE ${like} OR p.key ILIKE ${like}
      OR EXISTS (SELECT 1 FROM variants v WHERE v.tenant_id = p.tenant_id AND v.product_id = p.id AND v.sku ILIKE ${like}))`);
  }
  if (f.updatedAtMin) where.push(`coalesce(p.updated_at, p.created_at) >= ${params.add(f.updatedAtMin)}::timestamptz`);
  if (f.createdAtMin) where.push(`p.created_at >= ${params.add(f.createdAtMin)}::timestamptz`);
  const keys: Array<{ expr: string; dir: 'ASC' | 'DESC' }> =
    f.order === 'title asc'
      ? [
          { expr: `coalesce(lower(p.title->>${params.add(settings.default_language)}), '')`, dir: 'ASC' },
          { expr: 'p.id', dir: 'ASC' },
        ]
      : f.order === 'updated desc'
        ? [
            { expr: 'coalesce(p.updated_at, p.created_at)', dir: 'DESC' },
            { expr: 'p.id', dir: 'DESC' },
          ]
        : [
            { expr: 'p.created_at', dir: 'DESC' },
            { expr: 'p.id', dir: 'DESC' },
          ];
  if (page.after) {
    if (page.after.length !== keys.length) throw AppError.unprocessable('page_info does not match this list');
    const casts = [f.order === 'title asc' ? 'text' : 'timestamptz', 'uuid'];
    const ors = keys.map((k, i) => {
      const ands = keys.slice(0, i).map((e, j) => `${e.expr} = ${params.add(page.after![j])}::${casts[j]}`);
      ands.push(`${k.expr} ${k.dir === 'ASC' ? '>' : '<'} ${params.add(page.after![i])}::${casts[i]}`);
      return `(${ands.join(' AND ')})`;
    });
    where.push(`(${ors.join(' OR ')})`);
  }
  const rows: Array<{ id: string; sort0: Date | string }> = await m.query(
    `SELECT p.id, ${keys[0].expr} AS sort0 FROM products p WHERE ${where.join(' AND ')}
     ORDER BY ${keys.map((k) => `${k.expr} ${k.dir}`).join(', ')} LIMIT ${page.limit + 1}`,
    params.values,
  );
  const position = (r: { id: string; sort0: Date | string }): SortValue[] => [r.sort0 instanceof Date ? r.sort0.toISOString() : r.sort0, r.id];
  const ids = pager.page(rows, page, position);
  const summaries = await productRows(
    m,
    tenantId,
    ids.items.map((r) => r.id),
  );
  return new Page(
    ids.items.map((r) => summaries.get(r.id)!),
    ids.limit,
    ids.nextPageInfo,
  );
}

/** The shop's currencies, the default first. */
export function shopCurrencies(m: EntityManager, tenantId: string): Promise<CurrencyRow[]> {
  return currencyRecordsOf(m, tenantId);
}

/** Manual collections that pick the product, and smart ones whose rules it matches now. */
export async function collectionsOfProduct(m: EntityManager, tenantId: string, productId: string): Promise<CollectionRefDto[]> {
  const all = await collectionScopesOf(m, tenantId);
  const pickedRows: Array<{ collection_id: string }> = await m.query(`SELECT collection_id FROM collection_products WHERE tenant_id = $1 AND product_id = $2`, [
    tenantId,
    productId,
  ]);
  const picked = new Set(pickedRows.map((r) => r.collection_id));
  // every smart collection's rules against the product's search row, in one statement (one boolean column each)
  const smart = all.filter((c) => c.collection_type === 'smart');
  const matches = new Set<string>();
  if (smart.length > 0) {
    const params = new Params();
    const t = params.add(tenantId);
    const pid = params.add(productId);
    const cols = smart.map((c, i) => `(${collectionClause(params, t, { id: c.id, type: 'smart', rulesJson: c.rules_json }, 'ps')}) AS s${i}`);
    const [row]: Array<Record<string, boolean>> = await m.query(
      `SELECT ${cols.join(', ')} FROM product_search ps WHERE ps.tenant_id = ${t} AND ps.product_id = ${pid}`,
      params.values,
    );
    if (row)
      smart.forEach((c, i) => {
        if (row[`s${i}`]) matches.add(c.id);
      });
  }
  const out: CollectionRefDto[] = [];
  for (const c of all) if (c.collection_type === 'smart' ? matches.has(c.id) : picked.has(c.id)) out.push(mapCollectionRef(c));
  return out;
}

async function collectionFilter(m: EntityManager, tenantId: string, ids: string[], params: Params, t: string): Promise<string> {
  const rows = await collectionScopesOf(m, tenantId, ids);
  const parts = rows.map((c) =>
    c.collection_type === 'manual'
      ? `p.id IN (SELECT cp.product_id FROM collection_products cp WHERE cp.tenant_id = ${t} AND cp.collection_id = ${params.add(c.id)}::uuid)`
      : `p.id IN (SELECT ps.product_id FROM product_search ps WHERE ps.tenant_id = ${t} AND ${collectionClause(params, t, { id: c.id, type: 'smart', rulesJson: c.rules_json }, 'ps')})`,
  );
  return parts.length ? `(${parts.join(' OR ')})` : 'false';
}

/** List rows: the page's products with their aggregates, in two statements. */
async function productRows(m: EntityManager, tenantId: string, ids: string[]): Promise<Map<string, AdminProductRowDto>> {
  if (ids.length === 0) return new Map();
  const currency = (await currencyRecordsOf(m, tenantId)).find((c) => c.is_default);
  const rows: AdminProductRow[] = await m.query(
    `SELECT p.id, p.key, p.handle, p.title, p.published, p.archived_at, mf.name AS vendor,
       coalesce((SELECT json_agg(json_build_object('id', c.id, 'key', c.key) ORDER BY u.n) FROM unnest(p.category_ids) WITH ORDINALITY AS u(id, n)
                 JOIN categories c ON c.tenant_id = p.tenant_id AND c.id = u.id), '[]') AS categories,
       v.variants_count, v.min_price, v.max_price,
       (SELECT sum(sm.delta) FROM stock_movements sm WHERE sm.tenant_id = p.tenant_id AND sm.variant_id IN (SELECT x.id FROM variants x WHERE x.tenant_id = p.tenant_id AND x.product_id = p.id AND x.archived_at IS NULL)) AS total_stock,
       p.created_at, p.updated_at
     FROM products p
     LEFT JOIN manufacturers mf ON mf.tenant_id = p.tenant_id AND mf.id = p.manufacturer_id
     CROSS JOIN LATERAL (SELECT count(*)::int AS variants_count, min(x.price) AS min_price, max(x.price) AS max_price
                         FROM variants x WHERE x.tenant_id = p.tenant_id AND x.product_id = p.id AND x.archived_at IS NULL) v
     WHERE p.tenant_id = $1 AND p.id = ANY($2::uuid[])`,
    [tenantId, ids],
  );
  return new Map(rows.map((r) => [r.id, mapAdminProductRow(r, currency?.code ?? '')]));
}
