/**
 * Issue 31's bench case `checkout-read` (imported by bench.mjs, which passes its helpers in `b`): the checkout read,
 * `GET /checkouts/{token}`, against today's build and, with `--server-dist <dir>`, against another built tree (e.g. a
 * worktree of an older commit after `npx nest build`), alternately, `--pairs N` (3) pairs back to back.
 *
 * Each tree gets a fresh database (dropped and created again on the bench's PostgreSQL) migrated, provisioned and
 * filled by the tree itself (its migrations, its `ProvisioningService`, its demo generator with the same
 * seed: `--read-products` (3000) products) and a fresh server started from that tree's `dist/src/main.js`. Then
 * `--connections` (10) guest checkouts, each of 10 lines with a CH shipping address and the `post` shipping method
 * chosen, one per connection; each connection reads its own checkout for the warm-up, then `--duration` s: req/s,
 * p50, p99 (over every response). The ratio is current / other per pair (req/s) and its spread over the pairs.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';

const ADDRESS = {
  first_name: 'Bench',
  last_name: 'Reader',
  street: 'Bahnhofstrasse',
  house_number: '1',
  zip_code: '8001',
  location: 'Zürich',
  email: 'reader@example.ch',
  country_code: 'CH',
};
const LINES = 10;
const API = '/api/2026-04-01';

const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null);
const r1 = (x) => (x === null ? null : Math.round(x * 10) / 10);

/** `connections` checkouts of 10 lines each, address and shipping method chosen; returns their tokens. */
async function makeCheckouts(b, url, base, meta, connections) {
  const t = meta.tenant_id;
  const variants = await b.query(
    url,
    `SELECT vs.variant_id AS id FROM variant_search vs JOIN variants v ON v.id = vs.variant_id
     WHERE vs.tenant_id = $1 AND v.quantity_min = 1 AND v.quantity_increment = 1
       AND (NOT v.track_inventory OR v.allow_backorder
            OR (SELECT sum(delta) FROM stock_movements sm WHERE sm.tenant_id = vs.tenant_id AND sm.variant_id = vs.variant_id) > 20)
     ORDER BY md5(vs.variant_id::text) LIMIT $2`,
    [t, connections * LINES],
  );
  if (variants.length < connections * LINES) throw new Error(`only ${variants.length} orderable variants`);
  const [{ id: post }] = await b.query(url, `SELECT id FROM shipping_methods WHERE tenant_id = $1 AND key = 'post'`, [t]);
  const tokens = [];
  for (let i = 0; i < connections; i++) {
    let cookie = '';
    const call = async (method, path, body) => {
      const r = await fetch(base + API + path, {
        method,
        headers: { authorization: `Bearer ${meta.storefront_token}`, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const set = r.headers.get('set-cookie');
      if (set && !cookie) cookie = set.split(';')[0];
      const json = await r.json().catch(() => ({}));
      if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(json).slice(0, 300)}`);
      return json;
    };
    for (let l = 0; l < LINES; l++) await call('POST', '/cart/items', { article_id: variants[i * LINES + l].id, quantity: 1 + (l % 3) });
    const { checkout } = await call('POST', '/checkouts');
    await call('PUT', `/checkouts/${checkout.id}`, { shipping_address: ADDRESS, shipping_method_id: post });
    const { checkout: read } = await call('GET', `/checkouts/${checkout.id}`);
    if (read.line_items?.length !== LINES || read.selected_shipping_method_id !== post || read.shipping_address?.country_code !== 'CH')
      throw new Error(`checkout ${checkout.id} is not ${LINES} lines with a CH address and post: ${JSON.stringify(read).slice(0, 300)}`);
    tokens.push(checkout.id);
  }
  return tokens;
}

/** One autocannon client per checkout (1 connection each, all at once); every response's latency is kept. */
async function readAll(base, tokens, seconds, token) {
  const latencies = [];
  let non2xx = 0;
  let errors = 0;
  const runs = tokens.map(
    (id) =>
      new Promise((done, fail) => {
        const inst = autocannon(
          { url: `${base}${API}/checkouts/${id}`, connections: 1, duration: seconds, headers: { authorization: `Bearer ${token}` } },
          (err, res) => (err ? fail(err) : done(res)),
        );
        inst.on('response', (_client, status, _bytes, ms) => {
          if (status >= 200 && status < 300) latencies.push(ms);
          else non2xx += 1;
        });
        inst.on('reqError', () => (errors += 1));
      }),
  );
  await Promise.all(runs);
  latencies.sort((x, y) => x - y);
  return {
    rps: r1((latencies.length + non2xx) / seconds),
    p50_ms: r1(pct(latencies, 50)),
    p99_ms: r1(pct(latencies, 99)),
    requests: latencies.length + non2xx,
    non_2xx: non2xx,
    errors,
  };
}

/** The process's CPU time so far (user + system, ms), from /proc (Linux); null elsewhere. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

/**
 * Table accesses per read, less noisy than req/s on a loaded machine: `n` reads one after the other, then the change
 * of pg_stat_user_tables' seq_scan + idx_scan per table (an idle session flushes its statistics within 10 s: 11 s waits before each snapshot).
 */
async function scansPerRead(b, url, base, id, token, n = 100) {
  const snap = async () => {
    await new Promise((r) => setTimeout(r, 11000));
    const rows = await b.query(url, `SELECT relname, coalesce(seq_scan, 0) + coalesce(idx_scan, 0) AS scans FROM pg_stat_user_tables`);
    return new Map(rows.map((r) => [r.relname, Number(r.scans)]));
  };
  const before = await snap();
  for (let i = 0; i < n; i++) await (await fetch(`${base}${API}/checkouts/${id}`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer();
  const after = await snap();
  const tables = {};
  let total = 0;
  for (const [t, v] of after) {
    const d = (v - (before.get(t) ?? 0)) / n;
    if (d > 0) tables[t] = r1(d);
    total += d;
  }
  return { total: r1(total), tables };
}

/** One side: a fresh database filled by the tree itself, its server (on `port`), its checkouts. */
async function setUp(b, tree, label, port) {
  const url = await b.freshDatabase(`shop_bench_checkout_read_${label}`);
  const meta = await b.ensureCatalogue(url, { count: Number(b.opts['read-products']), tree });
  const server = await b.startServer(url, { tree, port });
  try {
    const tokens = await makeCheckouts(b, url, server.base, meta, b.CONNECTIONS);
    b.log(`  ${label} (${tree}): ${tokens.length} checkouts of ${LINES} lines on ${server.base}`);
    return { label, tree, url, server, tokens, token: meta.storefront_token };
  } catch (err) {
    await server.stop();
    throw err;
  }
}

/** One measured window of a side: req/s, p50, p99, the server's CPU per read. */
async function measureSide(b, side, tag) {
  const load = loadavg()[0];
  const cpu0 = cpuMs(side.server.pid);
  const r = await readAll(side.server.base, side.tokens, b.DURATION, side.token);
  const cpu1 = cpuMs(side.server.pid);
  r.server_cpu_ms_per_read = cpu0 === null || cpu1 === null ? null : Math.round(((cpu1 - cpu0) / r.requests) * 100) / 100;
  r.load_1m = r1(load);
  b.log(
    `  ${tag} ${side.label}: ${r.rps} req/s, p50 ${r.p50_ms} ms, p99 ${r.p99_ms} ms, server CPU ${r.server_cpu_ms_per_read} ms/read (${r.non_2xx} non-2xx, ${r.errors} errors; load ${load.toFixed(1)})`,
  );
  if (r.non_2xx > 0 || r.errors > 0) throw new Error(`${side.label}: ${r.non_2xx} non-2xx responses, ${r.errors} errors`);
  return r;
}

/**
 * Both sides are set up first (fresh databases, fresh servers on BENCH_PORT and BENCH_PORT + 1), warmed up, then
 * measured alternately, `--pairs` pairs of `--duration` s windows back to back (the first side alternating), so a
 * change of the machine's load falls on both; then the table scans per read of each.
 */
export async function caseCheckoutRead(b) {
  const other = b.opts['server-dist'] ? resolve(b.opts['server-dist']) : null;
  const pairs = other ? Number(b.opts.pairs) : 1;
  const port = Number(process.env.BENCH_PORT ?? 3999);
  b.log(
    `case checkout-read: GET /checkouts/{token}, ${b.CONNECTIONS} checkouts of ${LINES} lines (one per connection), ${b.opts['read-products']} products` +
      (other ? `; ${pairs} pairs of ${b.DURATION} s windows, ${other} and this tree alternately` : ''),
  );
  const sides = [];
  try {
    if (other) sides.push(await setUp(b, other, 'other', port + 1));
    sides.push(await setUp(b, b.root, 'current', port));
    for (const side of sides) if (b.WARMUP > 0) await readAll(side.server.base, side.tokens, b.WARMUP, side.token);
    const runs = [];
    for (let i = 0; i < pairs; i++) {
      const pair = { pair: i + 1 };
      const order = i % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) pair[side.label] = await measureSide(b, side, `pair ${i + 1}`);
      if (other) {
        pair.ratio = Math.round((pair.current.rps / pair.other.rps) * 1000) / 1000;
        if (pair.current.server_cpu_ms_per_read && pair.other.server_cpu_ms_per_read)
          pair.cpu_ratio = Math.round((pair.current.server_cpu_ms_per_read / pair.other.server_cpu_ms_per_read) * 1000) / 1000;
      }
      runs.push(pair);
    }
    const scans = {};
    for (const side of sides) {
      scans[side.label] = await scansPerRead(b, side.url, side.server.base, side.tokens[0], side.token);
      b.log(`  ${side.label}: ${scans[side.label].total} table scans per read: ${JSON.stringify(scans[side.label].tables)}`);
    }
    const mean = (f) => r1(runs.reduce((s, p) => s + p.current[f], 0) / runs.length);
    const out = {
      name: `GET /checkouts/{token}, ${LINES}-line checkouts with address and shipping method, ${b.CONNECTIONS} connections`,
      products: Number(b.opts['read-products']),
      rps: mean('rps'),
      p50_ms: mean('p50_ms'),
      p99_ms: mean('p99_ms'),
      table_scans_per_read: scans.current.total,
      runs,
      scans,
    };
    if (other) {
      const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
      out.other = other;
      out.other_rps = r1(runs.reduce((s, p) => s + p.other.rps, 0) / runs.length);
      out.other_table_scans_per_read = scans.other.total;
      out.ratio_median = median(runs.map((p) => p.ratio));
      out.ratio_min = Math.min(...runs.map((p) => p.ratio));
      out.ratio_max = Math.max(...runs.map((p) => p.ratio));
      const cpu = runs.map((p) => p.cpu_ratio).filter((x) => x !== undefined);
      if (cpu.length) out.cpu_ratio_median = median(cpu);
    }
    return out;
  } finally {
    for (const side of sides) await side.server.stop();
  }
}

/** The table line: with another tree, the target is current >= 90 % of its req/s (the median pair). */
export function checkoutReadLine(r) {
  if (!r) return [];
  const base = `checkout-read  ${r.rps} req/s, p50 ${r.p50_ms} / p99 ${r.p99_ms} ms (mean of ${r.runs.length} run(s))`;
  if (r.ratio_median === undefined) return [base];
  const ok = r.ratio_median >= 0.9;
  return [
    `${base}; other tree ${r.other_rps} req/s; current/other ${r.ratio_median} (median; pairs ${r.runs.map((p) => p.ratio).join(', ')}) (>= 0.9): ${ok ? 'met' : 'MISSED'}; server CPU per read current/other ${r.cpu_ratio_median ?? '?'} (pairs ${r.runs.map((p) => p.cpu_ratio).join(', ')})`,
  ];
}
