#!/usr/bin/env node
/**
 * `npm run bench`: the storefront catalogue benchmark of issue 5 ("Speed").
 *
 * 1. A throwaway database: `DATABASE_URL`'s server when given (database `shop_bench_g<version>_<count>` is created
 *    there), otherwise an embedded PostgreSQL under ./data/bench. Generated once, reused while the generator
 *    version and product count match (the `bench_meta` row marks a complete import).
 * 2. The catalogue: `generateDemoCatalogue(count, seed)` imported through `CatalogueImportService` in batches.
 * 3. The server (built dist) with RATE_LIMIT=off, then autocannon per case: a warm-up, then the measured run.
 * 4. req/s, p50, p99 per case on stdout and in bench/results.json.
 *
 * 5. (f) 2,000+ distinct filter combinations, each URL once; (g) the category rotation alone, then with guest orders
 *    completing at 5 per second (every order's stock change checked in the next read); (h) a cold start: a fresh
 *    server's first catalogue read of the tenant (the index build), and the server's resident memory.
 *
 * Options (after `npm run bench --`): --products N (100000), --duration S (15), --warmup S (5), --connections C (10),
 * --cases a,b,c,d,e,f,g,h, --orders-per-second N (5), --selling (cases a–e measured while guest orders complete at
 * that rate, as in (g)), --no-build, --regenerate, --promotions N (0: N catalogue promotions active during the cases,
 * half on two products each, half on a producer each, priced into the catalogue once before the server starts; with
 * N > 0 case p measures a promotion starting: the time from its starts_at until a product it reduces shows the
 * sale price).
 * Not part of `npm test` or CI.
 * Issue 35's cases `search-two-words` and `search-typo` (`--cases search-two-words,search-typo`) rotate over 500 searches each,
 * `suggest` (`--cases suggest`) over the distinct 3-letter prefixes of the catalogue's words (GET /search/suggest).
 * Issue 34's cases `checkout`, `checkout-browsing` and `workers` are in bench/checkout.mjs, issue 32's `promotions-cart`
 * (GET /cart of 100 lines with 1,000 promotions and without) in bench/promotions-cart.mjs; every run prints its figures
 * next to the last ones recorded in bench/README.md (bench/recorded.mjs), `--record` appends them (`--note` text).
 * Issue 31's case `checkout-read` is in bench/checkout-read.mjs: `--server-dist <built tree>` compares with another
 * build (`--pairs N` alternating windows, `--read-products N`); it needs no 100k catalogue.
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { caseCheckout, caseCheckoutBrowsing, caseWorkers, checkoutLines } from './checkout.mjs';
import { casePromotionsCart, cpuMs, promotionsCartLines } from './promotions-cart.mjs';
import { caseCheckoutRead, checkoutReadLine } from './checkout-read.mjs';
import { casePromotionsCatalogue, promotionsCatalogueLines } from './promotions-catalogue.mjs';
import { compareWithRecorded, readRecorded, recordFigures } from './recorded.mjs';

/** Bump when the generated data (generator, seed, batching) changes: a new database is generated. */
const GENERATOR_VERSION = 1;
const SEED = 20260401;
const BATCH = 5000;

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    products: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    cases: { type: 'string', default: 'a,b,c,d,e,f,g,h' },
    'orders-per-second': { type: 'string', default: '5' },
    selling: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    regenerate: { type: 'boolean', default: false },
    record: { type: 'boolean', default: false },
    note: { type: 'string', default: '' },
    promotions: { type: 'string', default: '0' },
    // checkout-read (bench/checkout-read.mjs): another built tree to compare with, pairs, products of its shop
    'server-dist': { type: 'string', default: '' },
    pairs: { type: 'string', default: '3' },
    'read-products': { type: 'string', default: '3000' },
    // promotions-catalogue (bench/promotions-catalogue.mjs): rounds and window of the paired servers, and the control pair
    rounds: { type: 'string', default: '8' },
    window: { type: 'string', default: '4' },
    'pair-control': { type: 'boolean', default: false },
  },
});
const COUNT = Number(opts.products);
const DURATION = Number(opts.duration);
const WARMUP = Number(opts.warmup);
const CONNECTIONS = Number(opts.connections);
const log = (s) => process.stdout.write(`${s}\n`);
/** A module of a built tree's dist (this one unless `tree` names another, e.g. `--server-dist`). */
const dist = (p, tree = root) => import(resolve(tree, 'dist', p));

async function main() {
  if (!opts['no-build'] && process.env.BENCH_BUILD !== '0') {
    log('building (npm run build) ...');
    const b = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('npm run build failed');
  }
  // BENCH_DB_SUFFIX: a database of one's own on a shared DATABASE_URL server (parallel branches)
  const dbName = `shop_bench_g${GENERATOR_VERSION}_${COUNT}${process.env.BENCH_DB_SUFFIX ?? ''}`;
  const db = await openDatabase(dbName);
  let server = null;
  const wanted = opts.cases.split(',');
  try {
    const results = {};
    const b = { query, log, runPaths, figures, startServer, ensureCatalogue, freshDatabase: db.fresh, root, CONNECTIONS, WARMUP, DURATION, opts };
    // checkout-read runs on databases and servers of its own (fresh per run), before the catalogue of the other cases
    if (wanted.includes('checkout-read')) results['checkout-read'] = await caseCheckoutRead(b);
    if (wanted.every((c) => c === 'checkout-read')) return finish(results, null, {}, db.kind);
    const meta = await ensureCatalogue(db.url);
    log(`catalogue: ${meta.products} products, ${meta.variants} visible variants (tenant ${meta.tenant_id}, generator v${GENERATOR_VERSION})`);
    // promotions-catalogue runs its own pair of servers (one on a copy of the database) before this run's server
    if (wanted.includes('promotions-catalogue'))
      results['promotions-catalogue'] = await casePromotionsCatalogue(
        { ...b, run, buildCases, fPaths, ensurePromotions, copyDatabase: (url, suffix) => copyDatabase(url, `${dbName}${suffix}`) },
        db,
        meta,
      );
    if (wanted.every((c) => c === 'promotions-catalogue' || c === 'checkout-read')) return finish(results, meta, {}, db.kind);
    const promotions = await ensurePromotions(db.url, meta, Number(opts.promotions));
    // the server's warnings about its catalogue index (rebuilds, gaps) are part of the report
    // BENCH_SERVER_TREE: run the cases' server from another built tree (a paired base run), with this harness
    server = await startServer(db.url, {
      tree: process.env.BENCH_SERVER_TREE ? resolve(process.env.BENCH_SERVER_TREE) : root,
      onLine: (line) => (/CatalogueIndex|catalogue index/.test(line) ? log(`  server: ${line.slice(0, 300)}`) : undefined),
    });
    casesPid = server.pid;
    await indexReady(server.base, meta);
    // (a)–(e) need the 100k catalogue's deep lists: only built when one of them runs
    const cases = wanted.some((id) => ['a', 'b', 'c', 'd', 'e'].includes(id)) ? await buildCases(db.url, server.base, meta) : [];
    for (const c of cases) {
      if (!wanted.includes(c.id)) continue;
      if (!opts.selling) {
        results[c.id] = await measure(c, meta.storefront_token);
        continue;
      }
      // --selling: the same case while guest orders complete (the order loop of (g)), its stock checks included
      const orders = await startOrders(db.url, server.base, meta);
      try {
        if (WARMUP > 0) log(`case ${c.id}: warm-up ${WARMUP} s while guest orders complete at ${orders.perSecond}/s`);
        if (WARMUP > 0) await run(c.url, WARMUP, meta.storefront_token);
        orders.reset();
        results[c.id] = await measure({ ...c, name: `${c.name}, while guest orders complete at ${orders.perSecond}/s` }, meta.storefront_token, 0);
      } finally {
        Object.assign(results[c.id] ?? {}, await orders.stop());
      }
    }
    if (wanted.includes('f')) results.f = await caseF(db.url, server.base, meta);
    if (promotions.count > 0 && wanted.includes('p')) results.p = await caseP(db.url, server.base, meta);
    if (wanted.includes('g')) Object.assign(results, await caseG(db.url, server.base, meta));
    for (const id of ['search-two-words', 'search-typo', 'suggest']) if (wanted.includes(id)) results[id] = await caseSearch(id, db.url, server.base, meta);
    if (wanted.includes('checkout')) results.checkout = await caseCheckout(b, db.url, server.base, meta, 'checkout', server.pid);
    if (wanted.includes('checkout-browsing')) results['checkout-browsing'] = await caseCheckoutBrowsing(b, db.url, server.base, meta);
    if (wanted.includes('promotions-cart')) results['promotions-cart'] = await casePromotionsCart(b, db.url, server.base, meta, server.pid);
    const memory = { rss_mb_after_cases: rssMb(server.pid) };
    log(`server resident memory with the 100k tenant loaded: ${memory.rss_mb_after_cases} MB`);
    if (wanted.includes('workers')) {
      await server.stop();
      server = null;
      results.workers = await caseWorkers(b, db.url, meta);
    }
    if (wanted.includes('h')) {
      await server?.stop();
      server = null;
      results.h = await caseH(db.url, meta);
      memory.rss_mb_cold_start = results.h.rss_mb;
      memory.index = results.h.index;
    }
    finish(results, meta, memory, db.kind, promotions);
  } finally {
    await server?.stop();
    await db.stop();
  }
}

/** The table, bench/results.json and the comparison with the recorded figures. */
function finish(results, meta, memory, kind, promotions = null) {
  {
    printTable(results);
    const out = {
      at: new Date().toISOString(),
      machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memory_gb: Math.round(totalmem() / 2 ** 30), node: process.version },
      database: kind,
      catalogue: meta ? { products: meta.products, variants: meta.variants, generator_version: GENERATOR_VERSION, seed: SEED } : null,
      settings: {
        connections: CONNECTIONS,
        duration_s: DURATION,
        warmup_s: WARMUP,
        rate_limit: 'off',
        selling: opts.selling,
        orders_per_second: Number(opts['orders-per-second']),
      },
      targets: { p99_ms_below: 100, a_rps_above: 300 },
      promotions,
      cases: results,
      memory,
      load_average: loadavg(),
    };
    mkdirSync(resolve(root, 'bench'), { recursive: true });
    writeFileSync(resolve(root, 'bench/results.json'), `${JSON.stringify(out, null, 2)}\n`);
    log('written bench/results.json');
    const readme = resolve(root, 'bench/README.md');
    const { lines, drops } = compareWithRecorded(results, readRecorded(readme));
    log(`against the last recorded figures (bench/README.md, "Recorded figures"; a drop over 15 % is flagged):`);
    for (const line of lines) log(`  ${line}`);
    if (drops > 0) log(`${drops} figure(s) DROPPED by more than 15 % since the last record`);
    if (opts.record) log(`recorded ${recordFigures(readme, results, opts.note, root)} figures in bench/README.md`);
  }
}

// ------------------------------------------------------------------ database

async function openDatabase(name) {
  if (process.env.DATABASE_URL) {
    const admin = new URL(process.env.DATABASE_URL);
    admin.pathname = '/postgres';
    const c = new pg.Client({ connectionString: admin.toString() });
    await c.connect();
    try {
      if (opts.regenerate) await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      const found = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount === 0) await c.query(`CREATE DATABASE "${name}"`);
    } finally {
      await c.end();
    }
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    log(`database: ${name} on DATABASE_URL's server`);
    return { url: url.toString(), kind: 'DATABASE_URL server', fresh: (n) => recreate(admin.toString(), n), stop: async () => undefined };
  }
  const { startEmbeddedPostgres } = await dist('src/database/embedded-postgres.js');
  const port = Number(process.env.BENCH_PG_PORT ?? 54339);
  const embedded = await startEmbeddedPostgres({ dataDir: resolve(root, 'data/bench'), port, database: name, quiet: true });
  if (opts.regenerate) {
    const admin = embedded.url.replace(/\/[^/]+$/, '/postgres');
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${name}"`);
    await c.end();
  }
  log(`database: ${name} on the embedded PostgreSQL under ./data/bench (port ${port})`);
  const admin = embedded.url.replace(/\/[^/]+$/, '/postgres');
  return { url: embedded.url, kind: 'embedded PostgreSQL', fresh: (n) => recreate(admin, n), stop: () => embedded.stop() };
}

/** A copy of the database at `url` named `name` (dropped first when there), made as its template; returns its URL. */
async function copyDatabase(url, name) {
  const admin = new URL(url);
  const source = admin.pathname.slice(1);
  admin.pathname = '/postgres';
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  try {
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${name}" TEMPLATE "${source}"`);
  } finally {
    await c.end();
  }
  const copy = new URL(url);
  copy.pathname = `/${name}`;
  return copy.toString();
}

/** An empty database `name` on the admin URL's server (dropped first when there); returns its URL. */
async function recreate(adminUrl, name) {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${name}"`);
  } finally {
    await c.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function query(url, sql, params = []) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql, params)).rows;
  } finally {
    await c.end();
  }
}

/**
 * Generates and imports the catalogue unless a complete one of this generator version is there. `count` products
 * (`--products`), with the migrations, services and generator of `tree`'s dist (this tree unless given).
 */
async function ensureCatalogue(url, { count = COUNT, tree = root } = {}) {
  const dist = (p) => import(resolve(tree, 'dist', p));
  const COUNT = count;
  const { runMigrations } = await dist('src/database/data-source.js');
  await runMigrations(url);
  await query(
    url,
    `CREATE TABLE IF NOT EXISTS bench_meta (generator_version int PRIMARY KEY, tenant_id uuid NOT NULL, storefront_token text NOT NULL,
    products int NOT NULL, variants int NOT NULL, generated_at timestamptz NOT NULL DEFAULT now())`,
  );
  const [done] = await query(url, `SELECT * FROM bench_meta WHERE generator_version = $1`, [GENERATOR_VERSION]);
  if (done) return done;

  log(`generating ${COUNT} products (seed ${SEED}) and importing them in batches of ${BATCH} ...`);
  const started = Date.now();
  const { loadConfig } = await dist('src/config/app-config.js');
  const { createShopContext } = await dist('src/app.js');
  const { ProvisioningService } = await dist('src/auth/provisioning.service.js');
  const { AuthService } = await dist('src/auth/auth.service.js');
  const { TenancyService } = await dist('src/tenancy/tenancy.service.js');
  const { RequestContext } = await dist('src/common/context/request-context.js');
  const { CatalogueImportService } = await dist('src/catalogue/import/catalogue-import.service.js');
  const { generateDemoCatalogue } = await dist('src/catalogue/import/demo-catalogue.js');
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: url });
  const app = await createShopContext({ config, databaseUrl: url });
  try {
    const existing = await app.get(TenancyService).findByHandle('bench');
    let tenantId;
    let token;
    if (existing) {
      // an interrupted earlier generation: the import is an idempotent upsert, so it simply resumes
      tenantId = existing.id;
      const ctx = RequestContext.forTenant(tenantId, 'bench');
      const auth = app.get(AuthService);
      const staff = await auth.findStaff(ctx, 'owner@bench.shop.local');
      token = (await auth.mint(ctx, staff.id, { label: 'Bench storefront token', tier: 'storefront', scopes: auth.allStorefrontScopes() })).token;
    } else {
      const shop = await app.get(ProvisioningService).createShop({ name: 'Bench Wine Shop', handle: 'bench' });
      tenantId = shop.tenant.id;
      token = shop.storefront_token;
    }
    const ctx = RequestContext.forTenant(tenantId, 'bench');
    const importer = app.get(CatalogueImportService);
    let catalogue = generateDemoCatalogue(COUNT, SEED);
    const { products, collections, ...reference } = catalogue;
    catalogue = null;
    for (let start = 0; start < products.length; start += BATCH) {
      const t0 = Date.now();
      const slice = products.slice(start, start + BATCH);
      await importer.import(ctx, start === 0 ? { ...reference, products: slice } : { products: slice });
      log(`  imported ${Math.min(start + BATCH, products.length)}/${products.length} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    }
    // collections last: a manual collection names products of its own import, so those ride along (unchanged)
    const picked = new Set(collections.flatMap((c) => c.products ?? []));
    await importer.import(ctx, { collections, products: products.filter((p) => picked.has(p.key)) });
    await query(url, 'VACUUM ANALYZE');
    const [{ p, v }] = await query(url, `SELECT count(DISTINCT product_id)::int AS p, count(*)::int AS v FROM variant_search WHERE tenant_id = $1`, [tenantId]);
    await query(url, `INSERT INTO bench_meta (generator_version, tenant_id, storefront_token, products, variants) VALUES ($1, $2, $3, $4, $5)`, [
      GENERATOR_VERSION,
      tenantId,
      token,
      p,
      v,
    ]);
    log(`generated in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await app.close();
  }
  const [meta] = await query(url, `SELECT * FROM bench_meta WHERE generator_version = $1`, [GENERATOR_VERSION]);
  return meta;
}

// ------------------------------------------------------------------ catalogue promotions (issue 32)

/**
 * Makes the bench shop hold exactly `count` catalogue promotions (rows named `bench catalogue N`, no time window),
 * then prices them into the catalogue once (`SearchIndexService.reprice`, as a promotion write does), timed.
 */
async function ensurePromotions(url, meta, count) {
  const tenant = meta.tenant_id;
  await query(url, `DELETE FROM promotions WHERE tenant_id = $1 AND name LIKE 'bench %'`, [tenant]);
  const products = (await query(url, `SELECT DISTINCT product_id AS id FROM variant_search WHERE tenant_id = $1 ORDER BY 1 LIMIT 20000`, [tenant])).map(
    (r) => r.id,
  );
  const makers = (await query(url, `SELECT id FROM manufacturers WHERE tenant_id = $1 ORDER BY id`, [tenant])).map((r) => r.id);
  let seed = 32;
  const pick = (list) => list[(seed = (seed * 1103515245 + 12345) % 2147483648) % list.length];
  const rows = [];
  for (let i = 0; i < count; i++) {
    const selector = i % 2 === 0 ? [{ type: 'product', ids: [pick(products), pick(products)] }] : [{ type: 'manufacturer', ids: [pick(makers)] }];
    const action = i % 3 === 0 ? { type: 'fixed_off_lines', amount: 1 + (i % 5) } : { type: 'percent_off_lines', percent: 5 + (i % 26) };
    rows.push({ name: `bench catalogue ${i}`, priority: i % 6, conditions: [{ type: 'lines', selector }], actions: [action] });
  }
  await query(
    url,
    `INSERT INTO promotions (tenant_id, name, priority, combines_with, conditions, actions)
     SELECT $1, x.name, x.priority, '{"product": false, "order": true, "shipping": true, "discount_codes": true}', x.conditions, x.actions
       FROM jsonb_to_recordset($2::jsonb) AS x(name text, priority int, conditions jsonb, actions jsonb)`,
    [tenant, JSON.stringify(rows)],
  );
  const { loadConfig } = await dist('src/config/app-config.js');
  const { createShopContext } = await dist('src/app.js');
  const { SearchIndexService } = await dist('src/catalogue/search-index.service.js');
  const { RequestContext } = await dist('src/common/context/request-context.js');
  const app = await createShopContext({ config: loadConfig({ ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: url }), databaseUrl: url });
  try {
    const t0 = Date.now();
    const repriced = await app.get(SearchIndexService).reprice(RequestContext.forTenant(tenant, 'bench'));
    const [{ n }] = await query(url, `SELECT count(*)::int AS n FROM variant_sale_prices WHERE tenant_id = $1`, [tenant]);
    const out = { count, repriced_products: repriced, variants_on_sale_by_promotion: n, reprice_ms: Date.now() - t0 };
    log(`catalogue promotions: ${JSON.stringify(out)}`);
    return out;
  } finally {
    await app.close();
  }
}

/**
 * (p) A catalogue promotion starting while the server runs: a row with `starts_at` 3 s ahead on one product (the
 * cache-bus message a promotion write sends re-arms the server's timer), then the product is read every 20 ms until
 * it shows the sale price: the time from `starts_at` to that read (target: at most 1 s). The row is deleted after.
 */
async function caseP(url, base, meta) {
  const tenant = meta.tenant_id;
  const [{ product_id: productId }] = await query(url, `SELECT product_id FROM variant_search WHERE tenant_id = $1 ORDER BY product_id DESC LIMIT 1`, [tenant]);
  const read = async () => {
    const r = await fetch(`${base}/api/2026-04-01/products/${productId}`, { headers: { authorization: `Bearer ${meta.storefront_token}` } });
    return (await r.json()).product.variants[0].price;
  };
  const regular = await read();
  const startsAt = new Date(Date.now() + 3000);
  const [{ id }] = await query(
    url,
    `INSERT INTO promotions (tenant_id, name, starts_at, combines_with, conditions, actions) VALUES ($1, 'bench starting', $2, $3, $4, $5) RETURNING id`,
    [
      tenant,
      startsAt,
      { product: false, order: false, shipping: false, discount_codes: false },
      JSON.stringify([{ type: 'lines', selector: [{ type: 'product', ids: [productId] }] }]),
      JSON.stringify([{ type: 'percent_off_lines', percent: 50 }]),
    ],
  );
  try {
    await query(url, `SELECT pg_notify('vinoshop_cache', $1)`, [JSON.stringify({ t: 'promotions.timers', id: tenant, o: 'bench' })]);
    let price = regular;
    while (price === regular && Date.now() < startsAt.getTime() + 10_000) {
      await new Promise((r) => setTimeout(r, 20));
      price = await read();
    }
    const ms = Date.now() - startsAt.getTime();
    log(`case p (a catalogue promotion starting): sale price visible ${ms} ms after starts_at (${regular} -> ${price})`);
    return { start_to_visible_ms: ms, regular, sale: price };
  } finally {
    await query(url, `DELETE FROM promotions WHERE tenant_id = $1 AND id = $2`, [tenant, id]);
  }
}

// ------------------------------------------------------------------ server

/** The server of `tree`'s dist (this tree unless given, e.g. `--server-dist`). */
async function startServer(url, { logLevel = 'warn', onLine, env = {}, tree = root, port = Number(process.env.BENCH_PORT ?? 3999) } = {}) {
  // BENCH_NODE_ARGS: extra node flags for the server (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile a case)
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // BENCH_SERVER_STDOUT: a file the server's standard output is appended to (e.g. with `--trace-gc` in BENCH_NODE_ARGS)
  const serverStdout = process.env.BENCH_SERVER_STDOUT;
  const child = spawn(process.execPath, [...nodeArgs, resolve(tree, 'dist/src/main.js')], {
    cwd: tree,
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(port),
      HOST: '127.0.0.1',
      RATE_LIMIT: 'off',
      LOG_LEVEL: logLevel,
      NODE_ENV: 'development',
      PAYMENT_TEST_PROVIDER: 'on',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let exited = false;
  child.on('exit', () => (exited = true));
  let pending = '';
  let listening = 0;
  child.stdout.on('data', (chunk) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop();
    for (const line of lines) {
      if (line.startsWith('commerce service listening')) listening += 1;
      if (serverStdout) appendFileSync(serverStdout, `${line}\n`);
      onLine?.(line);
    }
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (exited) throw new Error('the server exited during start-up');
    try {
      const r = await fetch(`${base}/health`);
      // WORKERS > 1: every worker listening
      if (r.ok && listening >= Number(env.WORKERS ?? 1)) break;
    } catch {
      /* not yet listening */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  log(`server: ${base} (RATE_LIMIT=off, pid ${child.pid})`);
  return {
    base,
    pid: child.pid,
    stop: () =>
      new Promise((done) => {
        if (exited) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

// ------------------------------------------------------------------ cases

async function buildCases(url, base, meta) {
  const api = `${base}/api/2026-04-01`;
  const t = meta.tenant_id;
  const cat = async (key) => (await query(url, `SELECT id FROM categories WHERE tenant_id = $1 AND key = $2`, [t, key]))[0].id;
  const facet = async (dim, key) => (await query(url, `SELECT id FROM facet_values WHERE tenant_id = $1 AND dimension = $2 AND key = $3`, [t, dim, key]))[0].id;
  const red = await cat('red-wine');
  const white = await cat('white-wine');
  const france = await facet('countries', 'FR');
  const bottle = await facet('sizes', '75cl');
  const headers = { authorization: `Bearer ${meta.storefront_token}` };
  const get = async (u) => {
    const r = await fetch(u, { headers });
    if (!r.ok) throw new Error(`GET ${u}: ${r.status} ${await r.text()}`);
    return { body: await r.json(), link: r.headers.get('link') };
  };
  // (d): follow the Link header to page 20 of a filtered list
  let deep = `${api}/products?limit=24&category_id=${white}`;
  for (let page = 1; page < 20; page++) {
    const { link } = await get(deep);
    const next = /<([^>]+)>;\s*rel="?next"?/.exec(link ?? '');
    if (!next) throw new Error(`no next page after page ${page} of ${deep}`);
    deep = new URL(next[1], api).toString();
  }
  const [{ id: productId }] = await query(url, `SELECT product_id AS id FROM variant_search WHERE tenant_id = $1 ORDER BY product_id LIMIT 1 OFFSET 4321`, [t]);
  const cases = [
    { id: 'a', name: 'category + facets', url: `${api}/products?limit=24&include=facets&category_id=${red}` },
    {
      id: 'b',
      name: 'category + country + size + price range + facets',
      url: `${api}/products?limit=24&include=facets&category_id=${red}&country_id=${france}&size_id=${bottle}&price_min=20&price_max=60`,
    },
    { id: 'c', name: 'q (two words) + facets', url: `${api}/products?limit=24&include=facets&q=${encodeURIComponent('chateau margaux')}` },
    { id: 'd', name: 'cursor page 20 of a filtered list', url: deep },
    { id: 'e', name: 'product detail', url: `${api}/products/${productId}` },
  ];
  for (const c of cases) {
    const { body } = await get(c.url);
    const n = Array.isArray(body.products) ? body.products.length : body.product ? 1 : 0;
    if (n === 0) throw new Error(`case ${c.id} returns nothing: ${c.url}`);
    c.items = n;
    c.facets = Array.isArray(body.facets) ? body.facets.length : undefined;
  }
  return cases;
}

function run(url, duration, token) {
  return new Promise((done, fail) => {
    const inst = autocannon({ url, connections: CONNECTIONS, duration, headers: { authorization: `Bearer ${token}` } }, (err, res) =>
      err ? fail(err) : done(res),
    );
    autocannon.track(inst, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

/** The cases' server (its CPU time per request is reported beside req/s: other processes blur it less). */
let casesPid = null;

/** The server's CPU milliseconds per request over `work` (user + system, /proc), null where unreadable. */
async function withServerCpu(work, requestsOf) {
  const cpu0 = casesPid === null ? null : cpuMs(casesPid);
  const r = await work();
  const cpu1 = casesPid === null ? null : cpuMs(casesPid);
  const n = requestsOf(r);
  return { r, cpuPerRequest: cpu0 === null || cpu1 === null || !n ? null : Math.round(((cpu1 - cpu0) / n) * 100) / 100 };
}

/**
 * Before any case: one catalogue search, waited for however long the tenant's index build takes (on a fresh database or a
 * loaded machine it took 20–40 s, longer than a warm-up, and every request of the first case timed out). The layout by
 * category that follows the build (about a second) falls in the first case's warm-up. The cases then measure the engine
 * as it serves, not its cold start (that is case h's, on a server of its own).
 */
async function indexReady(base, meta) {
  const started = Date.now();
  // a search as well: the text matcher is made on the first one (its dictionary of every product's words)
  const url = `${base}/api/2026-04-01/products?limit=1&q=riesling`;
  for (;;) {
    const r = await fetch(url, { headers: { authorization: `Bearer ${meta.storefront_token}` }, signal: AbortSignal.timeout(180_000) });
    await r.arrayBuffer();
    if (r.ok) break;
    if (Date.now() - started > 180_000) throw new Error(`the catalogue read answered ${r.status} for 180 s`);
    await new Promise((res) => setTimeout(res, 500));
  }
  log(`catalogue index and text matcher ready in ${Date.now() - started} ms (the first search)`);
}

async function measure(c, token, warmup = WARMUP) {
  log(`case ${c.id} (${c.name}): ${warmup > 0 ? `warm-up ${warmup} s, then ` : ''}${DURATION} s at ${CONNECTIONS} connections`);
  if (warmup > 0) await run(c.url, warmup, token);
  const { r, cpuPerRequest } = await withServerCpu(
    () => run(c.url, DURATION, token),
    (x) => x.requests.total,
  );
  const out = {
    name: c.name,
    url: c.url.replace(/^https?:\/\/[^/]+/, ''),
    rps: Math.round(r.requests.average * 10) / 10,
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    max_ms: r.latency.max,
    requests: r.requests.total,
    non_2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    server_cpu_per_request_ms: cpuPerRequest,
  };
  if (out.non_2xx > 0 || out.errors > 0) log(`  WARNING: ${out.non_2xx} non-2xx responses, ${out.errors} errors`);
  return out;
}

function printTable(results) {
  log('');
  log('case  req/s     p50 ms  p99 ms  target');
  for (const line of checkoutLines(results)) log(line);
  for (const line of promotionsCartLines(results)) log(line);
  for (const line of checkoutReadLine(results['checkout-read'])) log(line);
  for (const line of promotionsCatalogueLines(results)) log(line);
  for (const [id, r] of Object.entries(results)) {
    if (['checkout', 'checkout-browsing', 'workers', 'promotions-cart', 'checkout-read', 'promotions-catalogue'].includes(id)) continue;
    if (id === 'h') {
      log(
        `h     first read ${r.first_ms} ms (target <= 5000: ${r.first_ms <= 5000 ? 'met' : 'MISSED'}), then ${r.second_ms} ms; rss ${r.rss_mb} MB   ${r.name}`,
      );
      continue;
    }
    if (id === 'p') {
      log(`p     sale price visible ${r.start_to_visible_ms} ms after starts_at (target <= 1000: ${r.start_to_visible_ms <= 1000 ? 'met' : 'MISSED'})`);
      continue;
    }
    let ok = r.requests > 0 && r.p99_ms < 100 && (id !== 'a' || r.rps > 300) && r.non_2xx === 0 && r.errors === 0;
    if (id === 'f') ok = ok && r.rps >= 400 && r.p99_ms <= 50;
    // a case with its own target (issue 35's search cases) is met only at that target
    if (r.target) ok = ok && r.rps >= r.target.rps && r.p99_ms <= r.target.p99_ms;
    if (id === 'g') ok = ok && r.ratio >= 0.7 && r.orders_failed === 0 && r.stale_reads === 0;
    if (id !== 'g' && r.orders !== undefined) ok = ok && r.orders_failed === 0 && r.stale_reads === 0;
    const orders = r.orders === undefined ? '' : `${r.orders} orders, ${r.stale_reads} stale reads, ${r.orders_failed} failed`;
    const cpu = r.server_cpu_per_request_ms != null ? `; server CPU ${r.server_cpu_per_request_ms} ms per request` : '';
    const extra = (id === 'g' ? ` (${Math.round(r.ratio * 100)} % of g0; ${orders})` : orders ? ` (${orders})` : '') + cpu;
    log(
      `${id.padEnd(5)} ${String(r.rps).padStart(7)}  ${String(r.p50_ms).padStart(6)}  ${String(r.p99_ms).padStart(6)}  ${ok ? 'met' : 'MISSED'}   ${r.name}${extra}`,
    );
  }
  log('');
}

function rssMb(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return null;
  }
}

/** autocannon over a list of paths: each connection takes the next path, `amount` requests in all. */
function runPaths(base, paths, { amount, duration, token, headers = {} }) {
  let i = 0;
  const started = performance.now();
  let last = started;
  return new Promise((done, fail) => {
    const inst = autocannon(
      {
        url: base,
        connections: CONNECTIONS,
        ...(amount ? { amount } : { duration }),
        headers: { authorization: `Bearer ${token}`, ...headers },
        requests: [{ setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }],
      },
      (err, res) => {
        if (err) return fail(err);
        // a run of a fixed amount ends on autocannon's next one-second tick, and its req/s is the mean of per-second
        // counts (so 3,520 requests done in 5.2 s read as 3,520 / 6): the rate is the requests over the time to the
        // last response instead
        if (amount) res.requests.average = Math.round((res.requests.total / ((last - started) / 1000)) * 10) / 10;
        done(res);
      },
    );
    inst.on('response', () => (last = performance.now()));
    autocannon.track(inst, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

function figures(name, r, extra = {}) {
  return {
    name,
    rps: Math.round(r.requests.average * 10) / 10,
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    max_ms: r.latency.max,
    requests: r.requests.total,
    non_2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    ...extra,
  };
}

function shuffle(list, seed = 7) {
  let a = seed;
  const rnd = () => (a = (a * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

/** (f) every category × colour × country × size combination (with facets), shuffled, each URL once. */
/** (f)'s URLs: every category × colour × country × size combination, with and without available=true, shuffled. */
async function fPaths(url, meta) {
  const t = meta.tenant_id;
  const ids = async (sql) => (await query(url, sql, [t])).map((r) => r.id);
  const cats = await ids(`SELECT id FROM categories WHERE tenant_id = $1`);
  const colors = await ids(`SELECT id FROM facet_values WHERE tenant_id = $1 AND dimension = 'colors'`);
  const countries = await ids(`SELECT id FROM facet_values WHERE tenant_id = $1 AND dimension = 'countries'`);
  const sizes = await ids(`SELECT id FROM facet_values WHERE tenant_id = $1 AND dimension = 'sizes'`);
  const paths = [];
  // with and without available=true, so that the generated catalogue's 8 categories give 2,000+ combinations
  for (const c of cats)
    for (const k of colors)
      for (const n of countries)
        for (const s of sizes)
          for (const a of ['', '&available=true'])
            paths.push(`/api/2026-04-01/products?limit=24&include=facets&category_id=${c}&color_id=${k}&country_id=${n}&size_id=${s}${a}`);
  shuffle(paths);
  log(
    `case f (distinct filter combinations): ${paths.length} URLs (${cats.length} categories x ${colors.length} colours x ${countries.length} countries x ${sizes.length} sizes x available or not), each once, ${CONNECTIONS} connections`,
  );
  return paths;
}

async function caseF(url, base, meta) {
  const paths = await fPaths(url, meta);
  const { r, cpuPerRequest } = await withServerCpu(
    () => runPaths(base, paths, { amount: paths.length, token: meta.storefront_token }),
    (x) => x.requests.total,
  );
  return figures(`${paths.length} distinct category x colour x country x size combinations, each once`, r, {
    urls: paths.length,
    server_cpu_per_request_ms: cpuPerRequest,
  });
}

/**
 * Issue 35's search cases, each a rotation (warm-up, then DURATION s): `search-two-words`, a grape and a region drawn
 * from 500 combinations the bench catalogue really has, with facets (target >= 1,000 req/s, p99 <= 30 ms);
 * `search-typo`, 500 distinct one-word misspellings of grape, region and producer words (target >= 1,000 req/s,
 * p99 <= 30 ms); `suggest`, GET /search/suggest for every distinct 3-letter prefix of the words of the catalogue's
 * product titles, producers, grapes, regions and categories (target >= 3,000 req/s, p99 <= 10 ms).
 */
async function caseSearch(id, url, base, meta) {
  const t = meta.tenant_id;
  const token = meta.storefront_token;
  const name = (col) => `lower(coalesce(${col}->>'en', ${col} #>> '{}', ''))`;
  let paths;
  if (id === 'search-two-words') {
    // every grape x region pair the catalogue has (a variant of that region with that grape), with the region's names
    const rows = await query(
      url,
      `SELECT DISTINCT ${name('o.name')} AS grape, ${name('r.name')} AS region, lower(coalesce(r.name->>'de', '')) AS region_de
         FROM variant_search vs JOIN facet_values r ON r.id = vs.region_id CROSS JOIN LATERAL unnest(vs.option_ids) AS x(option_id)
         JOIN custom_field_options o ON o.id = x.option_id JOIN custom_fields f ON f.id = o.field_id AND f.key = 'grape'
        WHERE vs.tenant_id = $1 ORDER BY 1, 2`,
      [t],
    );
    paths = twoWordSearches(rows).map((q) => `/api/2026-04-01/products?limit=24&include=facets&q=${encodeURIComponent(q)}`);
  } else if (id === 'suggest') {
    const rows = await query(
      url,
      `SELECT ${name('title')} AS w FROM products WHERE tenant_id = $1 AND published
       UNION SELECT lower(name) FROM manufacturers WHERE tenant_id = $1
       UNION SELECT ${name('name')} FROM custom_field_options WHERE tenant_id = $1
       UNION SELECT ${name('name')} FROM facet_values WHERE tenant_id = $1 AND dimension = 'regions'
       UNION SELECT ${name('name')} FROM categories WHERE tenant_id = $1`,
      [t],
    );
    const prefixes = new Set();
    for (const r of rows)
      for (const w of String(r.w)
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .split(/[^a-z]+/))
        if (w.length >= 3) prefixes.add(w.slice(0, 3));
    paths = [...prefixes].map((w) => `/api/2026-04-01/search/suggest?limit=8&q=${encodeURIComponent(w)}`);
  } else {
    const words = new Set();
    const rows = await query(
      url,
      `SELECT ${name('name')} AS w FROM custom_field_options WHERE tenant_id = $1 UNION SELECT ${name('name')} FROM facet_values WHERE tenant_id = $1 AND dimension = 'regions'
       UNION SELECT lower(name) FROM manufacturers WHERE tenant_id = $1`,
      [t],
    );
    const pool = rows.flatMap((r) => String(r.w).split(/[^a-z]+/)).filter((w) => w.length >= 6);
    for (let i = 0; words.size < 500 && i < pool.length * 12; i++) {
      const w = pool[i % pool.length];
      const at = 1 + ((i * 7) % (w.length - 2));
      const typo =
        i % 3 === 0
          ? w.slice(0, at) + w.slice(at + 1)
          : i % 3 === 1
            ? `${w.slice(0, at)}x${w.slice(at + 1)}`
            : w.slice(0, at) + w[at + 1] + w[at] + w.slice(at + 2);
      words.add(typo);
    }
    paths = [...words].map((w) => `/api/2026-04-01/products?limit=24&q=${encodeURIComponent(w)}`);
  }
  if (paths.length === 0) throw new Error(`case ${id}: no queries from the bench catalogue`);
  shuffle(paths);
  log(`case ${id} (${paths.length} distinct searches): warm-up ${WARMUP} s, then ${DURATION} s at ${CONNECTIONS} connections`);
  if (WARMUP > 0) await runPaths(base, paths, { duration: WARMUP, token });
  const { r, cpuPerRequest } = await withServerCpu(
    () => runPaths(base, paths, { duration: DURATION, token }),
    (x) => x.requests.total,
  );
  const target = id === 'suggest' ? { rps: 3000, p99_ms: 10 } : { rps: 1000, p99_ms: 30 };
  return figures(`${id}: ${paths.length} distinct ${id === 'suggest' ? 'prefixes' : 'searches'}, rotated`, r, {
    urls: paths.length,
    target,
    server_cpu_per_request_ms: cpuPerRequest,
  });
}

/**
 * 500 distinct two-word searches (`search-two-words`) over the real grape x region pairs `rows` (the bench catalogue
 * has about 50): each pair typed the ways shoppers type it — full names or their words cut short (at least 4
 * letters), grape first or region first, the region's English or German name — taken round-robin over the pairs, so
 * every pair is asked about equally and every search finds that pair's wines.
 */
function twoWordSearches(rows, wanted = 500) {
  const cut = (text, keep) =>
    text
      .split(/\s+/)
      .map((w) => (w.length > 4 ? w.slice(0, Math.max(4, Math.ceil(w.length * keep))) : w))
      .join(' ');
  const forms = (text) => [...new Set([text, cut(text, 0.75), cut(text, 0.5)])];
  const perPair = rows.map((r) => {
    const out = new Set();
    const regions = [...new Set([r.region, r.region_de].filter(Boolean))].flatMap(forms);
    for (const g of forms(r.grape)) for (const reg of regions) out.add(`${g} ${reg}`).add(`${reg} ${g}`);
    return [...out];
  });
  const searches = new Set();
  for (let i = 0; searches.size < wanted && perPair.some((p) => p.length > i); i++)
    for (const p of perPair) if (i < p.length && searches.size < wanted) searches.add(p[i]);
  return [...searches];
}

/** (g) (a) rotating over every category: alone (g0), then while guest orders complete at N per second (g). */
async function caseG(url, base, meta) {
  const t = meta.tenant_id;
  const cats = (await query(url, `SELECT id FROM categories WHERE tenant_id = $1 ORDER BY key`, [t])).map((r) => r.id);
  const paths = cats.map((c) => `/api/2026-04-01/products?limit=24&include=facets&category_id=${c}`);
  const token = meta.storefront_token;
  log(`case g0 (rotation over ${cats.length} categories, no orders): warm-up ${WARMUP} s, then ${DURATION} s`);
  if (WARMUP > 0) await runPaths(base, paths, { duration: WARMUP, token });
  const alone = figures(`(a) rotating over ${cats.length} categories, no orders`, await runPaths(base, paths, { duration: DURATION, token }));
  const orders = await startOrders(url, base, meta);
  log(`case g (the same rotation while guest orders complete at ${orders.perSecond}/s): warm-up ${WARMUP} s, then ${DURATION} s`);
  try {
    if (WARMUP > 0) await runPaths(base, paths, { duration: WARMUP, token });
    orders.reset();
    const r = await runPaths(base, paths, { duration: DURATION, token });
    const stats = await orders.stop();
    const during = figures(`(a) rotating over ${cats.length} categories while guest orders complete at ${orders.perSecond}/s`, r, {
      ...stats,
      ratio: Math.round((r.requests.average / alone.rps) * 100) / 100,
    });
    return { g0: alone, g: during };
  } finally {
    await orders.stop();
  }
}

/**
 * Guest orders completing at `--orders-per-second` (cart → checkout → address and shipping → complete, on tracked
 * in-stock red wines) until `stop()`, which waits for the orders in flight and returns what happened since `reset()`:
 * orders, failures and stale reads (the next read of an ordered variant not showing its on-hand one lower).
 */
async function startOrders(url, base, meta) {
  const t = meta.tenant_id;
  const token = meta.storefront_token;
  // tracked, in-stock variants of red wine (the rotation's largest category), one order per variant at a time
  const variants = await query(
    url,
    `SELECT vs.variant_id AS id, vs.product_id FROM variant_search vs JOIN variants v ON v.id = vs.variant_id
     WHERE vs.tenant_id = $1 AND v.track_inventory AND NOT v.allow_backorder AND v.quantity_min = 1 AND v.quantity_increment = 1
       AND (SELECT sum(delta) FROM stock_movements sm WHERE sm.tenant_id = vs.tenant_id AND sm.variant_id = vs.variant_id) > 50
     ORDER BY vs.variant_id LIMIT 400`,
    [t],
  );
  const [{ id: invoice }] = await query(url, `SELECT id FROM payment_types WHERE tenant_id = $1 AND key = 'invoice'`, [t]);
  const [{ id: post }] = await query(url, `SELECT id FROM shipping_methods WHERE tenant_id = $1 AND key = 'post'`, [t]);
  const api = `${base}/api/2026-04-01`;
  const stats = { orders: 0, failed: 0, stale: 0, checked: 0, errors: [] };
  const order = async (variant) => {
    let cookie = '';
    const call = async (method, path, body) => {
      const r = await fetch(api + path, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const set = r.headers.get('set-cookie');
      if (set && !cookie) cookie = set.split(';')[0];
      const json = await r.json().catch(() => ({}));
      if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(json).slice(0, 200)}`);
      return json;
    };
    try {
      const before = (await call('GET', `/products/${variant.product_id}/variants`)).variants.find((v) => v.id === variant.id).inventory_quantity;
      await call('POST', '/cart/items', { article_id: variant.id, quantity: 1 });
      const { checkout } = await call('POST', '/checkouts');
      await call('PUT', `/checkouts/${checkout.id}`, {
        shipping_address: {
          first_name: 'Bench',
          last_name: 'Buyer',
          street: 'Bahnhofstrasse',
          house_number: '1',
          zip_code: '8001',
          location: 'Zürich',
          email: 'bench@example.ch',
          country_code: 'CH',
        },
        shipping_method_id: post,
      });
      await call('POST', `/checkouts/${checkout.id}/complete`, { payment_type_id: invoice, accepted_terms: true, age_confirmed: true });
      stats.orders += 1;
      // the next read shows the stock change
      const after = (await call('GET', `/products/${variant.product_id}/variants`)).variants.find((v) => v.id === variant.id).inventory_quantity;
      stats.checked += 1;
      if (after !== before - 1) stats.stale += 1;
    } catch (err) {
      stats.failed += 1;
      if (stats.errors.length < 3) stats.errors.push(String(err.message ?? err));
    }
  };
  const perSecond = Number(opts['orders-per-second']);
  let next = 0;
  let running = true;
  const inFlight = new Set();
  const timer = setInterval(() => {
    if (!running) return;
    const p = order(variants[next++ % variants.length]);
    inFlight.add(p);
    p.finally(() => inFlight.delete(p));
  }, 1000 / perSecond);
  let result = null;
  return {
    perSecond,
    reset() {
      stats.orders = 0;
      stats.failed = 0;
      stats.stale = 0;
      stats.checked = 0;
      stats.errors = [];
    },
    async stop() {
      if (result) return result;
      running = false;
      clearInterval(timer);
      await Promise.all([...inFlight]);
      if (stats.errors.length) log(`  order errors: ${stats.errors.join(' | ')}`);
      result = { orders: stats.orders, orders_failed: stats.failed, stale_reads: stats.stale, order_errors: stats.errors };
      return result;
    },
  };
}

/** (h) a fresh server: the first catalogue read of the tenant builds its index. */
async function caseH(url, meta) {
  let indexLine = null;
  let layoutLine = null;
  const server = await startServer(url, {
    logLevel: 'info',
    onLine: (line) => {
      if (/laid out by category/.test(line)) layoutLine = line;
      else if (/catalogue index of/.test(line)) indexLine = line;
    },
  });
  try {
    const t = meta.tenant_id;
    const [{ id: red }] = await query(url, `SELECT id FROM categories WHERE tenant_id = $1 AND key = 'red-wine'`, [t]);
    const u = `${server.base}/api/2026-04-01/products?limit=24&include=facets&category_id=${red}`;
    const headers = { authorization: `Bearer ${meta.storefront_token}` };
    const t0 = performance.now();
    const r1 = await fetch(u, { headers });
    await r1.arrayBuffer();
    const first = Math.round(performance.now() - t0);
    const t1 = performance.now();
    await (await fetch(u, { headers })).arrayBuffer();
    const second = Math.round(performance.now() - t1);
    await new Promise((r) => setTimeout(r, 300));
    const rss = rssMb(server.pid);
    let index = null;
    if (indexLine) {
      const m = /(\d+) products, (\d+) variants, (\d+) bytes \((\d+) per product\) in (\d+) ms/.exec(indexLine);
      if (m) index = { products: Number(m[1]), variants: Number(m[2]), bytes: Number(m[3]), bytes_per_product: Number(m[4]), build_ms: Number(m[5]) };
    }
    // the layout by category follows the build by about a second, off the reads' path (README, "Catalogue engine")
    for (let i = 0; i < 100 && !layoutLine; i++) await new Promise((r) => setTimeout(r, 100));
    const laid = layoutLine ? /laid out by category in (\d+) ms \((\d+) bytes\)/.exec(layoutLine) : null;
    if (index && laid) {
      index.layout_ms = Number(laid[1]);
      index.bytes_laid_out = Number(laid[2]);
      index.bytes_per_product_laid_out = Math.round(Number(laid[2]) / index.products);
    }
    log(`case h (cold start): first read ${first} ms (status ${r1.status}), second ${second} ms; rss ${rss} MB; index ${JSON.stringify(index)}`);
    return { name: 'first catalogue read of the tenant after the server starts (index build)', first_ms: first, second_ms: second, rss_mb: rss, index };
  } finally {
    await server.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err?.stack ?? err}\n`);
  process.exit(1);
});
