import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * One owner per table (README "Module map and table owners"): an SQL statement that writes a table (INSERT INTO,
 * UPDATE, DELETE FROM) appears only in the module owning it. Migrations are exempt; so is the one known exception
 * listed below.
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
    'shipping_methods',
    'payment_types',
    'variant_search',
    'product_search',
    'collection_products',
    'catalogue_changes',
    'catalogue_versions',
  ],
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
  content: ['content_pages', 'blog_articles'],
  themes: ['themes', 'theme_assets', 'theme_asset_blob_chunks'],
  events: ['outbox_events', 'event_handler_jobs'],
  webhooks: ['webhook_subscriptions', 'webhook_deliveries', 'webhook_delivery_attempts'],
};
/** Known exceptions, `file: table` (none: the import writes currencies and countries through tenancy's functions). */
const EXCEPTIONS = new Set<string>([]);

const ownerOf = new Map(Object.entries(OWNERS).flatMap(([m, tables]) => tables.map((t) => [t, m] as const)));
// SQL writes, and the keyed bulk writers of common/db/keyed-upsert.ts (`{ table: 'x', … }`, `insertMany(m, t, 'x', …)`)
const WRITE = /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+([a-z_]+)\b|\btable:\s*'([a-z_]+)'|\binsertMany\(\s*\w+,\s*\w+,\s*'([a-z_]+)'/g;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'migrations' ? [] : sources(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** `file: table` of every write outside the table's owner. */
function foreignWrites(root: string): string[] {
  const out = new Set<string>();
  for (const path of sources(join(root, 'src'))) {
    const file = relative(root, path).split('\\').join('/');
    const module = file.split('/')[1];
    for (const m of readFileSync(path, 'utf8').matchAll(WRITE)) {
      const table = m[1] ?? m[2] ?? m[3];
      const owner = ownerOf.get(table);
      if (owner && owner !== module && !EXCEPTIONS.has(`${file}: ${table}`)) out.add(`${file}: ${table}`);
    }
  }
  return [...out].sort();
}

describe('table owners', () => {
  it('every table written in src/ is written only by its owning module', () => {
    expect(foreignWrites('.')).toEqual([]);
  });

  it('every table of the migrations has an owner', () => {
    const created = new Set<string>();
    for (const name of readdirSync('src/database/migrations')) {
      for (const m of readFileSync(join('src/database/migrations', name), 'utf8').matchAll(/CREATE TABLE (?:IF NOT EXISTS )?"?([a-z_]+)/g)) created.add(m[1]);
    }
    created.delete('tenant_keys_before'); // the tenant-keys migration's own record (for its down())
    expect([...created].filter((t) => !ownerOf.has(t)).sort()).toEqual([]);
  });
});
