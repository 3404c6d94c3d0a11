import { parseCollectionRules } from '../../collections/index.js';
import type { CurrencyInfo } from '../../common/context/request-context.js';
import type { SortKey } from '../../common/paging/pager.service.js';
import { FACET_KEYS, type CatalogueFilters, type CollectionScope, type FacetKey, type OrderSpec } from '../catalogue-filters.js';

export * from '../catalogue-filters.js';

/** The variant_search column of each single-valued dimension. */
const DIM_COLUMN: Partial<Record<FacetKey, string>> = {
  manufacturers: 'manufacturer_id',
  colors: 'color_id',
  sizes: 'size_id',
  years: 'year_id',
  countries: 'country_id',
  regions: 'region_id',
};

/** Positional parameters for one SQL statement. */
export class Params {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

/** The gross price of `vs` in the active currency, rounded to its precision (same rounding as the money helpers). */
export function priceExpr(currency: CurrencyInfo, alias = 'vs', column = 'gross'): string {
  const rate = /^\d+(\.\d+)?$/.test(currency.rate) ? currency.rate : '1';
  const precision = Math.max(0, Math.min(4, Math.trunc(currency.precision)));
  return Number(rate) === 1 ? `round(${alias}.${column}, ${precision})` : `round(${alias}.${column} * ${rate}::numeric, ${precision})`;
}

/**
 * The WHERE clauses of a catalogue query over `variant_search vs`, grouped so a facet can leave out its own
 * dimension and the price range its bounds. Every clause is about one variant row, so variant-level filters
 * hold for one variant together (CONTRACT 7).
 */
export class CatalogueWhere {
  readonly base: string[] = [];
  readonly dim = new Map<FacetKey, string>();
  price: string[] = [];
  readonly price_: string;

  constructor(
    readonly params: Params,
    tenantId: string,
    readonly f: CatalogueFilters,
    currency: CurrencyInfo,
    scope: CollectionScope | null,
  ) {
    const p = (v: unknown) => params.add(v);
    const t = p(tenantId);
    this.price_ = priceExpr(currency);
    this.base.push(`vs.tenant_id = ${t}`);
    if (f.ids) this.base.push(`vs.product_id = ANY(${p(f.ids)}::uuid[])`);
    if (scope) this.base.push(collectionClause(params, t, scope));
    if (f.available) this.base.push('vs.available');
    if (f.onSale) this.base.push('vs.on_sale');
    if (f.textMatches) this.base.push(`vs.variant_id = ANY(${p(f.textMatches)}::uuid[])`);
    else for (const w of f.words) this.base.push(textClause(params, w));
    for (const k of FACET_KEYS) {
      const ids = f.dims[k];
      if (ids.length === 0) continue;
      if (k === 'categories') this.dim.set(k, `vs.category_ids @> ${p(ids)}::uuid[]`);
      else if (k === 'custom_fields') this.dim.set(k, `vs.option_ids && ${p(ids)}::uuid[]`);
      else this.dim.set(k, `vs.${DIM_COLUMN[k]} = ANY(${p(ids)}::uuid[])`);
    }
    if (f.priceMin !== null) this.price.push(`${this.price_} >= ${p(f.priceMin)}::numeric`);
    if (f.priceMax !== null) this.price.push(`${this.price_} <= ${p(f.priceMax)}::numeric`);
  }

  /** Every clause except those of `without` (a dimension, or `price`). */
  sql(without?: FacetKey | 'price'): string {
    const parts = [...this.base];
    for (const [k, c] of this.dim) if (k !== without) parts.push(c);
    if (without !== 'price') parts.push(...this.price);
    return parts.join(' AND ');
  }

  /** Relevance of a variant to the search words. */
  relevance(): string {
    if (this.f.words.length === 0) return '0';
    return this.f.words.map((w) => `word_similarity(${this.params.add(w)}, vs.search_text)`).join(' + ');
  }
}

/** Dimensions whose values are properties of a variant (CONTRACT 7: they hold on one variant together). */
export const VARIANT_DIMS: readonly FacetKey[] = ['colors', 'sizes', 'years', 'countries', 'regions', 'custom_fields'];

/**
 * Whether the filters, leaving out `without` (a dimension, or `price`), constrain variants: a search, a variant
 * dimension, price bounds, `available` or `on_sale`. When they do not, a product matches exactly when its
 * `product_search` rollup row does, and its facet ids and min/max gross are those of all its visible variants.
 */
export function constrainsVariants(f: CatalogueFilters, without?: FacetKey | 'price'): boolean {
  if (f.words.length > 0 || f.available || f.onSale) return true;
  if (without !== 'price' && (f.priceMin !== null || f.priceMax !== null)) return true;
  return VARIANT_DIMS.some((k) => k !== without && f.dims[k].length > 0);
}

/**
 * The WHERE clauses over the rollup `product_search ps` for filters that do not constrain variants: product ids,
 * the collection, categories (AND, the ancestors are in `facet_ids`) and manufacturers (OR).
 */
export class ProductWhere {
  readonly base: string[] = [];
  readonly dim = new Map<FacetKey, string>();

  constructor(
    readonly params: Params,
    tenantId: string,
    f: CatalogueFilters,
    scope: CollectionScope | null,
  ) {
    const p = (v: unknown) => params.add(v);
    const t = p(tenantId);
    this.base.push(`ps.tenant_id = ${t}`);
    if (f.ids) this.base.push(`ps.product_id = ANY(${p(f.ids)}::uuid[])`);
    if (scope) this.base.push(collectionClause(params, t, scope, 'ps'));
    if (f.dims.categories.length > 0) this.dim.set('categories', `ps.facet_ids @> ${p(f.dims.categories)}::uuid[]`);
    if (f.dims.manufacturers.length > 0) this.dim.set('manufacturers', `ps.manufacturer_id = ANY(${p(f.dims.manufacturers)}::uuid[])`);
  }

  sql(without?: FacetKey | 'price'): string {
    const parts = [...this.base];
    for (const [k, c] of this.dim) if (k !== without) parts.push(c);
    return parts.join(' AND ');
  }
}

/** A stable text key of the filters (and scope) for the result cache. */
export function filterKey(f: CatalogueFilters, scope: CollectionScope | null, currency: CurrencyInfo): string {
  const dims = FACET_KEYS.map((k) => `${k}=${[...f.dims[k]].sort().join(',')}`).join('&');
  const sc = scope ? `${scope.type}:${scope.id}:${scope.rulesJson ?? ''}` : '';
  const ids = f.ids ? [...f.ids].sort().join(',') : '-';
  return [
    dims,
    `w=${f.words.join(' ')}`,
    `p=${f.priceMin ?? ''}..${f.priceMax ?? ''}`,
    `a=${f.available}`,
    `s=${f.onSale}`,
    `ids=${ids}`,
    `sc=${sc}`,
    `cur=${currency.rate}/${currency.precision}`,
  ].join('|');
}

/** One search word: a prefix match on the tsvector, or trigram word similarity (typos, partial words). */
export function textClause(params: Params, word: string): string {
  return `(vs.search_tsv @@ to_tsquery('simple', ${params.add(`${word}:*`)}) OR ${params.add(word)} <% vs.search_text)`;
}

/** Keyset sort keys over the grouped rows `g` of a list query. */
export function sortKeys(order: OrderSpec): SortKey[] {
  switch (order) {
    case 'price asc':
      return [
        { expr: 'g.price', dir: 'ASC' },
        { expr: 'g.id', dir: 'ASC' },
      ];
    case 'price desc':
      return [
        { expr: 'g.price', dir: 'DESC' },
        { expr: 'g.id', dir: 'DESC' },
      ];
    case 'created asc':
      return [
        { expr: 'g.created', dir: 'ASC' },
        { expr: 'g.id', dir: 'ASC' },
      ];
    case 'created desc':
      return [
        { expr: 'g.created', dir: 'DESC' },
        { expr: 'g.id', dir: 'DESC' },
      ];
    case 'title asc':
      return [
        { expr: 'g.title', dir: 'ASC' },
        { expr: 'g.id', dir: 'ASC' },
      ];
    case 'title desc':
      return [
        { expr: 'g.title', dir: 'DESC' },
        { expr: 'g.id', dir: 'DESC' },
      ];
    case 'rating desc':
      return [
        { expr: 'g.rating', dir: 'DESC' },
        { expr: 'g.id', dir: 'DESC' },
      ];
    case 'relevance':
      return [
        { expr: 'g.rel', dir: 'DESC' },
        { expr: 'g.id', dir: 'DESC' },
      ];
    case 'manual':
      return [
        { expr: 'g.pos', dir: 'ASC' },
        { expr: 'g.id', dir: 'ASC' },
      ];
  }
}

/** A collection's `sort_order` as a list order. */
export function collectionOrder(sortOrder: string | null, type: 'manual' | 'smart'): OrderSpec {
  switch ((sortOrder ?? '').toLowerCase()) {
    case 'manual':
      return type === 'manual' ? 'manual' : 'created desc';
    case 'alpha-asc':
      return 'title asc';
    case 'alpha-desc':
      return 'title desc';
    case 'price-asc':
      return 'price asc';
    case 'price-desc':
      return 'price desc';
    case 'created-asc':
      return 'created asc';
    default:
      return type === 'manual' && !sortOrder ? 'manual' : 'created desc';
  }
}

/** Products of a collection as a condition on `<alias>.product_id` (`vs`: variant_search, `ps`: product_search). */
export function collectionClause(params: Params, tenantParam: string, scope: CollectionScope, alias = 'vs'): string {
  if (scope.type === 'manual') {
    return `${alias}.product_id IN (SELECT cp.product_id FROM collection_products cp WHERE cp.tenant_id = ${tenantParam} AND cp.collection_id = ${params.add(scope.id)}::uuid)`;
  }
  let rules;
  try {
    rules = parseCollectionRules(scope.rulesJson ?? '');
  } catch {
    return 'false';
  }
  if (rules.conditions.length === 0) return rules.mode === 'all' ? 'true' : 'false';
  const t = tenantParam;
  const parts = rules.conditions.map((c) => {
    if (c.field === 'price') {
      const n = Number(c.value);
      const num = Number.isFinite(n) ? `${params.add(n)}::numeric` : 'NULL';
      const cond = c.op === 'lt' ? `r.gross < ${num}` : c.op === 'gt' ? `r.gross > ${num}` : c.op === 'contains' ? 'false' : `r.gross = ${num}`;
      const sub = `SELECT r.product_id FROM variant_search r WHERE r.tenant_id = ${t} AND ${cond}`;
      return c.op === 'neq' ? `${alias}.product_id NOT IN (${sub})` : `${alias}.product_id IN (${sub})`;
    }
    const v = params.add(String(c.value));
    const like = `'%' || lower(unaccent(${v})) || '%'`;
    const byKey = (table: string, extra = '') => `(SELECT x.id FROM ${table} x WHERE x.tenant_id = ${t} ${extra} AND (x.key = ${v} OR x.id::text = ${v}))`;
    const facet = (dim: string, column: string) => {
      if (c.op === 'contains')
        return `r.${column} IN (SELECT x.id FROM facet_values x WHERE x.tenant_id = ${t} AND x.dimension = '${dim}' AND (lower(x.key) LIKE ${like} OR lower(unaccent(x.name::text)) LIKE ${like}))`;
      if (c.op === 'lt' || c.op === 'gt')
        return `r.${column} IN (SELECT x.id FROM facet_values x WHERE x.tenant_id = ${t} AND x.dimension = '${dim}' AND x.key ~ '^[0-9]+(\\.[0-9]+)?$' AND x.key::numeric ${c.op === 'lt' ? '<' : '>'} (CASE WHEN ${v} ~ '^[0-9]+(\\.[0-9]+)?$' THEN ${v}::numeric END))`;
      return `r.${column} IN ${byKey('facet_values', `AND x.dimension = '${dim}'`)}`;
    };
    let cond: string;
    switch (c.field) {
      case 'category':
        cond =
          c.op === 'contains'
            ? `r.category_ids && ARRAY(SELECT x.id FROM categories x WHERE x.tenant_id = ${t} AND lower(unaccent(x.name::text)) LIKE ${like})`
            : `r.category_ids && ARRAY${byKey('categories')}`;
        break;
      case 'manufacturer':
        cond =
          c.op === 'contains'
            ? `r.manufacturer_id IN (SELECT x.id FROM manufacturers x WHERE x.tenant_id = ${t} AND lower(unaccent(coalesce(x.name, ''))) LIKE ${like})`
            : `r.manufacturer_id IN (SELECT x.id FROM manufacturers x WHERE x.tenant_id = ${t} AND (x.key = ${v} OR x.id::text = ${v} OR lower(x.name) = lower(${v})))`;
        break;
      case 'color':
        cond = facet('colors', 'color_id');
        break;
      case 'region':
        cond = facet('regions', 'region_id');
        break;
      case 'year':
        cond = facet('years', 'year_id');
        break;
      case 'size':
        cond = facet('sizes', 'size_id');
        break;
      case 'country':
        cond = facet('countries', 'country_id');
        break;
      case 'custom_field':
        cond =
          c.op === 'contains'
            ? `r.option_ids && ARRAY(SELECT x.id FROM custom_field_options x WHERE x.tenant_id = ${t} AND (lower(coalesce(x.value, '')) LIKE ${like} OR lower(unaccent(x.name::text)) LIKE ${like}))`
            : `r.option_ids && ARRAY${byKey('custom_field_options')}`;
        break;
      case 'title':
        cond =
          c.op === 'contains'
            ? `r.title_sort LIKE ${like}`
            : c.op === 'lt'
              ? `r.title_sort < lower(unaccent(${v}))`
              : c.op === 'gt'
                ? `r.title_sort > lower(unaccent(${v}))`
                : `r.title_sort = lower(unaccent(${v}))`;
        break;
      case 'tag':
        cond = c.op === 'contains' ? `lower(array_to_string(r.tags, ' ')) LIKE '%' || lower(${v}) || '%'` : `${v} = ANY(r.tags)`;
        break;
      default:
        cond = 'false';
    }
    const sub = `SELECT r.product_id FROM variant_search r WHERE r.tenant_id = ${t} AND ${cond}`;
    return c.op === 'neq' ? `${alias}.product_id NOT IN (${sub})` : `${alias}.product_id IN (${sub})`;
  });
  return `(${parts.join(rules.mode === 'all' ? ' AND ' : ' OR ')})`;
}
