import { AppError } from '../common/http/app-error.js';

/** The query of `GET /admin/products`: parsed and checked here, so a malformed parameter is a 422 naming it. */
export const ADMIN_PRODUCT_ORDERS = ['created desc', 'title asc', 'updated desc'] as const;
export type AdminProductOrder = (typeof ADMIN_PRODUCT_ORDERS)[number];

export interface AdminProductFilters {
  published?: boolean;
  archived: boolean;
  vendor?: string[];
  categoryIds?: string[];
  collectionIds?: string[];
  q?: string;
  updatedAtMin?: string;
  createdAtMin?: string;
  order: AdminProductOrder;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (v: string): boolean => UUID.test(v);

/** The list's query parameters; a malformed one is 422 naming it. */
export function parseAdminProductFilters(query: Record<string, unknown>): AdminProductFilters {
  const one = (name: string): string | undefined => {
    const v = query[name];
    if (v === undefined || v === '') return undefined;
    if (typeof v !== 'string') throw AppError.unprocessable(`${name} must be given once`);
    return v;
  };
  const bool = (name: string): boolean | undefined => {
    const v = one(name);
    if (v === undefined) return undefined;
    if (v !== 'true' && v !== 'false') throw AppError.unprocessable(`${name} must be true or false`);
    return v === 'true';
  };
  const ids = (name: string): string[] | undefined => {
    const v = one(name);
    if (v === undefined) return undefined;
    const list = v
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
    if (list.length === 0 || list.length > 100 || list.some((x) => !UUID.test(x))) throw AppError.unprocessable(`${name} must be comma-separated ids`);
    return list;
  };
  const date = (name: string): string | undefined => {
    const v = one(name);
    if (v === undefined) return undefined;
    if (Number.isNaN(Date.parse(v))) throw AppError.unprocessable(`${name} must be an ISO 8601 date-time`);
    return new Date(v).toISOString();
  };
  const q = one('q');
  if (q !== undefined && q.length > 255) throw AppError.unprocessable('q must be at most 255 characters');
  const order = (one('order') ?? 'created desc').trim().replace(/\s+/g, ' ').toLowerCase();
  if (!(ADMIN_PRODUCT_ORDERS as readonly string[]).includes(order)) throw AppError.unprocessable(`order must be one of: ${ADMIN_PRODUCT_ORDERS.join(', ')}`);
  return {
    published: bool('published'),
    archived: bool('archived') ?? false,
    vendor: ids('vendor'),
    categoryIds: ids('category_id'),
    collectionIds: ids('collection_id'),
    q: q?.trim() || undefined,
    updatedAtMin: date('updated_at_min'),
    createdAtMin: date('created_at_min'),
    order: order as AdminProductOrder,
  };
}
