import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * One owner per table (README "Module map and table owners"): an SQL statement that writes a table (INSERT INTO,
 * UPDATE, DELETE FROM) or reads it (FROM, JOIN), and a TypeORM call given its entity class (repository, manager,
 * query builder, `@InjectRepository`), appear only in the module owning it. Other modules use the owner's typed
 * functions (or a SQL fragment the owner names, placed in a statement that must stay single). The example extensions
 * (`examples/<name>/`) are modules too: they own their migrations' tables and read the service's through
 * `src/index.ts`. Migrations and tests are exempt. There is no exception list. Since SQL lives only in repository
 * files (the ESLint rule of issue 36), the import graph closes the check: no module imports another module's entity or
 * repository file but through that module's `index.ts` (`tableImports`); the SQL and entity-call scans stay as a
 * second net over every file (SQL fragments built outside repositories, such as the catalogue's filter clauses).
 */
const OWNERS: Record<string, string[]> = {
  tenancy: ['tenants', 'currencies', 'countries'],
  auth: ['staff_users', 'access_tokens'],
  catalogue: [
    'products',
    'variants',
    'product_images',
    'product_ratings',
    'categories',
    'manufacturers',
    'facet_values',
    'flags',
    'custom_fields',
    'custom_field_options',
    'stock_locations',
    'stock_movements',
    'payment_types',
    'variant_search',
    'product_search',
    'collection_products',
    'catalogue_changes',
    'catalogue_versions',
    'variant_sale_prices',
    'variant_price_history',
  ],
  shipping: ['shipping_methods', 'destination_rules'],
  collections: ['collections'],
  cart: ['carts', 'cart_items'],
  discounts: ['discount_codes'],
  customers: ['customers', 'customer_addresses', 'customer_tokens', 'customer_one_time_tokens'],
  checkout: [
    'checkouts',
    'checkout_lines',
    'orders',
    'order_lines',
    'order_refunds',
    'order_fulfillments',
    'order_transactions',
    'order_counters',
    'idempotency_keys',
  ],
  wishlist: ['wishlist_items'],
  promotions: ['promotions', 'promotion_usages', 'customer_groups', 'customer_group_members'],
  returns: ['order_returns', 'order_claims'],
  'gift-cards': ['balance_accounts', 'balance_transactions', 'checkout_balance_accounts'],
  'search-synonyms': ['search_synonyms'],
  tax: ['tax_zones', 'tax_categories', 'tax_rates', 'tax_settings', 'tax_variants'],
  content: ['content_pages', 'blog_articles'],
  themes: ['themes', 'theme_assets', 'theme_asset_blob_chunks'],
  events: ['outbox_events', 'event_handler_jobs'],
  webhooks: ['webhook_subscriptions', 'webhook_deliveries', 'webhook_delivery_attempts'],
  // the example extensions (examples/<name>/) own the tables of their own migrations
  'loyalty-points': ['loyalty_point_entries'],
  'wine-club': ['wine_club_prices', 'wine_club_members', 'wine_club_allocations'],
};
const ownerOf = new Map(Object.entries(OWNERS).flatMap(([m, tables]) => tables.map((t) => [t, m] as const)));
// SQL writes, and the keyed bulk writers of common/db/keyed-upsert.ts (`{ table: 'x', … }`, `insertMany(m, t, 'x', …)`)
const WRITE = /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+([a-z_]+)\b|\btable:\s*'([a-z_]+)'|\binsertMany\(\s*\w+,\s*\w+,\s*'([a-z_]+)'/g;
// SQL reads: a table after FROM or JOIN (upper case, as every statement of src/ is written; prose says "from")
const READ = /\b(?:FROM|JOIN)\s+"?([a-z_]+)"?/g;
/** TypeORM calls that take an entity class, and the injection of its repository: each reads or writes its table. */
const ENTITY_CALL =
  /(?:(?:@InjectRepository|\bgetRepository)\(|\bRepository<|\.(?:save|insert|update|upsert|delete|softDelete|remove|increment|decrement|create|merge|preload|find\w*|count\w*|exists\w*|sum|average|minimum|maximum|createQueryBuilder|from|innerJoin\w*|leftJoin\w*)\(|\b(?:repoOf|getOrThrow)\()\s*(?:[\w.!?]+\s*,\s*){0,2}([A-Z]\w*)\s*[,)>]/g;

/** Live source files: no migrations (`migrations/`, an example's `<timestamp>-name.ts`), no tests. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'migrations' || name === 'storefront' || name === 'openapi-client' ? [] : sources(path);
    return name.endsWith('.ts') && !/[.-]spec\.ts$/.test(name) && !/^\d{13}-/.test(name) ? [path] : [];
  });
}

interface Source {
  file: string;
  module: string;
  text: string;
}

/** The service's modules (`src/<module>/`) and the example extensions (`examples/<name>/`). */
function read(root: string): Source[] {
  return [...sources(join(root, 'src')), ...sources(join(root, 'examples'))].map((path) => {
    const file = relative(root, path).split('\\').join('/');
    return { file, module: file.split('/')[1], text: readFileSync(path, 'utf8') };
  });
}

/** Entity class → table, from the `@Entity('table')` decorators. */
function entityTables(src: Source[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const { text } of src) for (const m of text.matchAll(/@Entity\(\s*'([a-z_]+)'[^)]*\)\s*export\s+(?:abstract\s+)?class\s+(\w+)/g)) out.set(m[2], m[1]);
  return out;
}

/** `file: table` for every table a file touches (by `pattern`, the table in the group) outside the table's owner. */
function foreign(src: Source[], pattern: RegExp, tableOf: (m: RegExpMatchArray) => string | undefined): string[] {
  const out = new Set<string>();
  for (const { file, module, text } of src) {
    for (const m of text.matchAll(pattern)) {
      const table = tableOf(m);
      const owner = table === undefined ? undefined : ownerOf.get(table);
      if (owner && owner !== module) out.add(`${file}: ${table}`);
    }
  }
  return [...out].sort();
}

/** A file that reaches tables: an entity (`@Entity`), a repository (`*.repository.ts`, `repositories/`). */
const reachesTables = (s: Source) => /@Entity\(/.test(s.text) || /\.repository\.ts$|\/repositories\//.test(s.file);

/**
 * `importer -> imported` for every value import (or re-export) by which a module reaches another module's tables: a
 * file of another module's entities or repositories, imported directly instead of through that module's `index.ts`.
 * Type-only imports are left out (erased at compile time, they touch no table). The data source's entity registry
 * (`src/database/entities.ts`) and migrations are exempt: they list every table by design.
 */
function tableImports(all: Source[]): string[] {
  const byFile = new Map(all.map((s) => [s.file, s]));
  const out: string[] = [];
  for (const s of all) {
    if (s.file === 'src/database/entities.ts') continue;
    for (const m of s.text.matchAll(/^(?:import|export)\s+(type\s+)?([^;]*?)\s+from\s+'(\.{1,2}\/[^']+)'/gm)) {
      if (m[1]) continue; // import type / export type
      const names = /\{([^}]*)\}/.exec(m[2]);
      if (names && !/\*|^\s*\w/.test(m[2].replace(/\{[^}]*\}/, '').trim()) && names[1].split(',').every((n) => !n.trim() || /^type\s/.test(n.trim()))) continue;
      const target = join(dirname(s.file), m[3].replace(/\.js$/, '.ts')).split('\\').join('/');
      const t = byFile.get(target);
      if (t && t.module !== s.module && reachesTables(t)) out.push(`${s.file} -> ${t.file}`);
    }
  }
  return out.sort();
}

const src = read('.');
const entities = entityTables(src);

describe('table owners', () => {
  it('reads the service and the example extensions', () => {
    expect(new Set(src.map((s) => s.file.split('/')[0]))).toEqual(new Set(['src', 'examples']));
    expect(src.some((s) => s.file === 'examples/wine-club/wine-club.service.ts')).toBe(true);
  });

  it('every table written in src/ and examples/ is written only by its owning module', () => {
    expect(foreign(src, WRITE, (m) => m[1] ?? m[2] ?? m[3])).toEqual([]);
  });

  it('every table read in SQL (FROM, JOIN) is read only by its owning module', () => {
    expect(foreign(src, READ, (m) => m[1])).toEqual([]);
  });

  it('every entity handed to TypeORM (repositories, manager calls, query builders) belongs to the calling module', () => {
    expect(entities.size).toBeGreaterThan(30);
    expect(foreign(src, ENTITY_CALL, (m) => entities.get(m[1]))).toEqual([]);
  });

  it('sees the foreign reads and writes it is meant to see', () => {
    const probe = (text: string): Source[] => [{ file: 'src/cart/probe.ts', module: 'cart', text }];
    expect(foreign(probe('m.query(`SELECT 1 FROM orders o JOIN order_lines l ON true`)'), READ, (m) => m[1])).toEqual([
      'src/cart/probe.ts: order_lines',
      'src/cart/probe.ts: orders',
    ]);
    expect(foreign(probe('SELECT 1 FROM carts c JOIN cart_items i ON true'), READ, (m) => m[1])).toEqual([]);
    const calls = [
      '@InjectRepository(Order) private readonly orders: Repository<Order>',
      'await manager.save(CustomerAddress, { id })',
      'm.getRepository(Collection).find()',
      'await m.findOneOrFail(Tenant, { where: { id } })',
      'getOrThrow(ctx, this.dataSource, DiscountCode, id)',
      'qb.leftJoin(Variant, "v", "v.id = x")',
    ].join('\n');
    expect(foreign(probe(calls), ENTITY_CALL, (m) => entities.get(m[1]))).toEqual([
      'src/cart/probe.ts: collections',
      'src/cart/probe.ts: customer_addresses',
      'src/cart/probe.ts: discount_codes',
      'src/cart/probe.ts: orders',
      'src/cart/probe.ts: tenants',
      'src/cart/probe.ts: variants',
    ]);
  });

  it('no SQL statement text naming a table stands outside repository files (and the data-access kit) in src/', () => {
    // INSERT/UPDATE/DELETE and FROM/JOIN of an owned table; the keyed bulk writers of common/db (given a table name,
    // they write the statement) are the data-access kit's, not SQL text
    const outside = src.filter((x) => x.file.startsWith('src/') && !/\.repository\.ts$|\/repositories\/|^src\/common\/db\//.test(x.file));
    const found = new Set<string>();
    for (const x of outside)
      for (const re of [WRITE, READ]) for (const m of x.text.matchAll(re)) if (m[1] && ownerOf.has(m[1])) found.add(`${x.file}: ${m[1]}`);
    expect([...found].sort()).toEqual([]);
  });

  it("by the import graph: no module reaches another module's entities or repositories but through its index.ts", () => {
    expect(src.filter(reachesTables).length).toBeGreaterThan(60);
    expect(tableImports(src)).toEqual([]);
    // the probe: a deep value import of another module's repository or entity is seen; a type-only one, its own
    // module's and a public index.ts are not
    const probe: Source[] = [
      ...src.filter((x) => x.file === 'src/checkout/repositories/orders.repository.ts' || x.file === 'src/cart/index.ts'),
      {
        file: 'src/wishlist/probe.ts',
        module: 'wishlist',
        text: [
          "import { OrdersRepository } from '../checkout/repositories/orders.repository.js';",
          "import type { OrderRow } from '../checkout/repositories/orders.repository.js';",
          "import { type OrderRow as R } from '../checkout/repositories/orders.repository.js';",
          "import { CART_SWEEPS } from '../cart/index.js';",
        ].join('\n'),
      },
    ];
    expect(tableImports(probe)).toEqual(['src/wishlist/probe.ts -> src/checkout/repositories/orders.repository.ts']);
  });

  it('every table of the migrations has an owner', () => {
    const created = new Set<string>();
    const migrations = [
      ...readdirSync('src/database/migrations').map((name) => join('src/database/migrations', name)),
      ...['examples/loyalty-points', 'examples/wine-club'].flatMap((dir) =>
        readdirSync(dir)
          .filter((name) => /^\d{13}-.*\.ts$/.test(name))
          .map((name) => join(dir, name)),
      ),
    ];
    for (const path of migrations) {
      for (const m of readFileSync(path, 'utf8').matchAll(/CREATE TABLE (?:IF NOT EXISTS )?"?([a-z_]+)/g)) created.add(m[1]);
    }
    created.delete('tenant_keys_before'); // the tenant-keys migration's own record (for its down())
    expect([...created].filter((t) => !ownerOf.has(t)).sort()).toEqual([]);
  });
});
