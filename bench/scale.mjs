#!/usr/bin/env node
/**
 * `npm run bench:scale`: bench case (a) against one instance and against two instances behind a round-robin proxy
 * (issue 10, bench/scale.md). Reuses the database of `npm run bench` (run that once first: it generates the catalogue).
 *
 * 1. The embedded PostgreSQL under ./data/bench (or `DATABASE_URL`'s server, database `shop_bench_g1_<count>`).
 * 2. N instances of dist (`--instances`, 2) on ports 4001.. (`BENCH_SCALE_PORT`), same database, RATE_LIMIT=off.
 * 3. A round-robin HTTP proxy in a child process of this script (node:http, keep-alive agents, streamed pipe) on
 *    port 4000 (`BENCH_PROXY_PORT`): its backend list is set per run, so one proxy serves "1 behind proxy" and "2".
 * 4. Checks (statelessness): the same body from every instance; a cursor minted by one instance followed on another.
 * 5. autocannon per setup: direct to instance 1; proxy -> instance 1; proxy -> instances 1..N. A warm-up, then the
 *    measured run, during which CPU time is read from /proc per process group (each instance, proxy, PostgreSQL,
 *    this process = autocannon) and for the whole machine.
 * 6. (Obsolete since issue 14: the catalogue index has no cache TTL to turn off; cold paths are `npm run bench`'s
 *    cases f and h.) `--cold` still runs the old mode, which now measures the same as the first.
 *
 * Options: --instances N (2), --duration S (15), --warmup S (5), --connections C (10), --cold-duration S (15),
 * --cold-warmup S (5), --no-cold, --no-build. Writes bench/.cache/scale-results.json (git-ignored) with every figure;
 * bench/scale.md is the written reading. Not part of `npm test` or CI.
 */
import { fork, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, totalmem } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const log = (s) => process.stdout.write(`${s}\n`);

if (process.argv[2] === '--proxy-child') proxyChild(Number(process.argv[3]));
else
  main().catch((err) => {
    process.stderr.write(`bench:scale failed: ${err?.stack ?? err}\n`);
    process.exit(1);
  });

// ------------------------------------------------------------------ proxy (child process)

/**
 * A round-robin reverse proxy: one keep-alive agent per backend, request and response streamed with pipe. The
 * parent sets the backend list with an IPC message ({ backends: [port, ...] }) and reads the per-backend counts.
 */
function proxyChild(port) {
  let backends = [];
  let next = 0;
  const agents = new Map();
  const counts = new Map();
  const agentOf = (p) => {
    if (!agents.has(p)) agents.set(p, new http.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 64 }));
    return agents.get(p);
  };
  const server = http.createServer((req, res) => {
    if (backends.length === 0) {
      res.writeHead(503).end();
      return;
    }
    const target = backends[next++ % backends.length];
    counts.set(target, (counts.get(target) ?? 0) + 1);
    const up = http.request(
      {
        host: '127.0.0.1',
        port: target,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress },
        agent: agentOf(target),
      },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
      },
    );
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  });
  server.keepAliveTimeout = 30_000;
  process.on('message', (m) => {
    if (m?.backends) {
      backends = m.backends;
      next = 0;
      counts.clear();
      process.send({ ok: true });
    } else if (m?.counts) process.send({ counts: Object.fromEntries(counts) });
  });
  server.listen(port, '127.0.0.1', () => process.send({ listening: port }));
}

function startProxy(port) {
  const child = fork(fileURLToPath(import.meta.url), ['--proxy-child', String(port)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = (msg, key) =>
    new Promise((done) => {
      const on = (m) => {
        if (m && key in m) {
          child.off('message', on);
          done(m);
        }
      };
      child.on('message', on);
      if (msg) child.send(msg);
    });
  return {
    pid: child.pid,
    ready: ask(null, 'listening'),
    setBackends: (ports) => ask({ backends: ports }, 'ok'),
    counts: async () => (await ask({ counts: true }, 'counts')).counts,
    stop: () => new Promise((done) => (child.exitCode !== null ? done() : (child.once('exit', () => done()), child.kill('SIGTERM')))),
  };
}

// ------------------------------------------------------------------ main

async function main() {
  const { values: opts } = parseArgs({
    options: {
      instances: { type: 'string', default: '2' },
      products: { type: 'string', default: '100000' },
      duration: { type: 'string', default: '15' },
      warmup: { type: 'string', default: '5' },
      connections: { type: 'string', default: '10' },
      'cold-duration': { type: 'string', default: '15' },
      'cold-warmup': { type: 'string', default: '5' },
      'no-cold': { type: 'boolean', default: true },
      cold: { type: 'boolean', default: false },
      'no-build': { type: 'boolean', default: false },
    },
  });
  const N = Number(opts.instances);
  const CONNECTIONS = Number(opts.connections);
  if (!opts['no-build'] && process.env.BENCH_BUILD !== '0') {
    log('building (npm run build) ...');
    const b = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('npm run build failed');
  }
  const { default: autocannon } = await import('autocannon');
  const { default: pg } = await import('pg');

  const dbName = `shop_bench_g1_${Number(opts.products)}`;
  const db = await openDatabase(dbName);
  const started = [];
  let proxy;
  const runs = [];
  try {
    const [meta] = await query(pg, db.url, `SELECT * FROM bench_meta WHERE generator_version = 1`).catch(() => []);
    if (!meta) throw new Error('no generated bench catalogue: run `npm run bench` once first');
    const [{ id: red }] = await query(pg, db.url, `SELECT id FROM categories WHERE tenant_id = $1 AND key = 'red-wine'`, [meta.tenant_id]);
    const path = `/api/2026-04-01/products?limit=24&include=facets&category_id=${red}`;
    const headers = { authorization: `Bearer ${meta.storefront_token}` };
    log(`catalogue: ${meta.products} products; case (a) ${path}`);

    const basePort = Number(process.env.BENCH_SCALE_PORT ?? 4001);
    const proxyPort = Number(process.env.BENCH_PROXY_PORT ?? 4000);
    proxy = startProxy(proxyPort);
    await proxy.ready;
    log(`proxy: 127.0.0.1:${proxyPort} (pid ${proxy.pid})`);
    const pgPid = postmasterPid();

    const modes = [{ label: 'cached (CATALOGUE_CACHE_TTL_MS default 10 s)', env: {}, warmup: Number(opts.warmup), duration: Number(opts.duration) }];
    if (opts.cold)
      modes.push({
        label: 'second run (formerly CATALOGUE_CACHE_TTL_MS=0)',
        env: {},
        warmup: Number(opts['cold-warmup']),
        duration: Number(opts['cold-duration']),
        cold: true,
      });

    for (const mode of modes) {
      log(`\n== ${mode.label}`);
      const servers = [];
      for (let i = 0; i < N; i++) servers.push(startServer(db.url, basePort + i, mode.env));
      for (const s of servers) started.push(s);
      await Promise.all(servers.map((s) => s.ready));
      log(`instances: ${servers.map((s) => `:${s.port} pid ${s.pid}`).join(', ')}`);

      const checks = await statelessness(servers, proxy, proxyPort, path, headers);
      log(`checks: ${JSON.stringify(checks)}`);

      const setups = [
        { id: 'direct-1', name: '1 instance, direct', url: `http://127.0.0.1:${servers[0].port}${path}`, backends: null },
        { id: 'proxy-1', name: '1 instance behind the proxy', url: `http://127.0.0.1:${proxyPort}${path}`, backends: [servers[0].port] },
        { id: `proxy-${N}`, name: `${N} instances behind the proxy`, url: `http://127.0.0.1:${proxyPort}${path}`, backends: servers.map((s) => s.port) },
      ];
      for (const setup of setups) {
        await settle(); // requests abandoned by the previous run may still be computing (cold path): let them drain
        if (setup.backends) await proxy.setBackends(setup.backends);
        log(`${setup.id}: warm-up ${mode.warmup} s, then ${mode.duration} s at ${CONNECTIONS} connections`);
        if (mode.warmup > 0) await cannon(autocannon, setup.url, mode.warmup, CONNECTIONS, headers);
        if (setup.backends) await proxy.setBackends(setup.backends); // reset the counts
        const groups = { proxy: [proxy.pid], postgres: pgPid ? familyOf(pgPid) : [], bench: [process.pid] };
        servers.forEach((s, i) => (groups[`instance${i + 1}`] = [s.pid]));
        const cpu0 = cpuSnapshot(groups);
        const sampler = psSampler([...servers.map((s) => s.pid), proxy.pid, ...(pgPid ? [pgPid] : [])]);
        const r = await cannon(autocannon, setup.url, mode.duration, CONNECTIONS, headers);
        const ps = sampler.stop();
        const cpu = cpuDelta(cpu0, cpuSnapshot(groups));
        const split = setup.backends ? await proxy.counts() : null;
        const row = {
          mode: mode.cold ? 'cold' : 'cached',
          setup: setup.id,
          name: setup.name,
          rps: Math.round(r.requests.average * 10) / 10,
          p50_ms: r.latency.p50,
          p99_ms: r.latency.p99,
          max_ms: r.latency.max,
          requests: r.requests.total,
          mb_per_s: Math.round((r.throughput.average / 2 ** 20) * 10) / 10,
          non_2xx: r.non2xx,
          errors: r.errors + r.timeouts,
          cpu_percent: cpu, // % of one core over the measured run, per group; machine = busy % of all cores
          ps_cpu_samples: ps,
          proxy_split: split,
        };
        runs.push(row);
        log(
          `  ${row.rps} req/s  p50 ${row.p50_ms} ms  p99 ${row.p99_ms} ms  ${row.mb_per_s} MB/s  cpu ${JSON.stringify(cpu)}${split ? `  split ${JSON.stringify(split)}` : ''}${row.non_2xx || row.errors ? `  WARNING ${row.non_2xx} non-2xx, ${row.errors} errors` : ''}`,
        );
      }
      runs.push({ mode: mode.cold ? 'cold' : 'cached', checks });
      await Promise.all(servers.map((s) => s.stop()));
      started.length = 0;
    }

    printTable(runs.filter((r) => r.setup));
    const out = {
      at: new Date().toISOString(),
      machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memory_gb: Math.round(totalmem() / 2 ** 30), node: process.version },
      database: db.kind,
      settings: { instances: N, connections: CONNECTIONS, rate_limit: 'off', path },
      runs,
    };
    mkdirSync(resolve(root, 'bench/.cache'), { recursive: true });
    writeFileSync(resolve(root, 'bench/.cache/scale-results.json'), `${JSON.stringify(out, null, 2)}\n`);
    log('written bench/.cache/scale-results.json');
  } finally {
    await Promise.all(started.map((s) => s.stop()));
    await proxy?.stop();
    await db.stop();
  }
}

// ------------------------------------------------------------------ checks

async function statelessness(servers, proxy, proxyPort, path, headers) {
  const sha = (b) => createHash('sha256').update(b).digest('hex').slice(0, 12);
  const get = async (url) => {
    const r = await fetch(url, { headers });
    if (!r.ok) throw new Error(`GET ${url}: ${r.status}`);
    return { body: await r.text(), link: r.headers.get('link') };
  };
  // 1. the same body from every instance (after each has answered once: its caches are warm)
  const bodies = [];
  for (const s of servers) bodies.push(await get(`http://127.0.0.1:${s.port}${path}`));
  const sameBody = new Set(bodies.map((b) => sha(b.body))).size === 1;
  // 2. a cursor minted by instance 1, followed on every other instance: the same page 2 (shared APP_SECRET)
  const next = /<([^>]+)>;\s*rel="?next"?/.exec(bodies[0].link ?? '');
  let cursorAcross = null;
  if (next) {
    const rel = new URL(next[1], `http://127.0.0.1:${servers[0].port}/api/2026-04-01/`);
    const page2 = [];
    for (const s of servers) page2.push(sha((await get(`http://127.0.0.1:${s.port}${rel.pathname}${rel.search}`)).body));
    cursorAcross = new Set(page2).size === 1;
  }
  // 3. through the proxy, round robin over every instance: 2 * N requests, all 200 with the same body
  await proxy.setBackends(servers.map((s) => s.port));
  const viaProxy = [];
  for (let i = 0; i < 2 * servers.length; i++) viaProxy.push(sha((await get(`http://127.0.0.1:${proxyPort}${path}`)).body));
  const split = await proxy.counts();
  return {
    same_body_every_instance: sameBody,
    body_bytes: bodies[0].body.length,
    cursor_from_1_valid_on_all: cursorAcross,
    proxy_same_body: new Set(viaProxy).size === 1 && viaProxy[0] === sha(bodies[0].body),
    proxy_split: split,
  };
}

// ------------------------------------------------------------------ load

function cannon(autocannon, url, duration, connections, headers) {
  return new Promise((done, fail) => {
    autocannon({ url, connections, duration, headers, timeout: 30 }, (err, res) => (err ? fail(err) : done(res)));
  });
}

// ------------------------------------------------------------------ CPU

const TICK = 100; // USER_HZ on Linux
function procTicks(pid, withReaped = false) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    // utime + stime, plus cutime + cstime (children it has reaped) for the postmaster: parallel workers are
    // short-lived children, gone before the end-of-run snapshot
    return Number(f[11]) + Number(f[12]) + (withReaped ? Number(f[13]) + Number(f[14]) : 0);
  } catch {
    return 0;
  }
}
function machineTicks() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = f[3] + f[4];
  return { total: f.reduce((a, b) => a + b, 0), idle };
}
/** Every pid whose parent chain leads to `pid` (PostgreSQL backends are children of the postmaster). */
function familyOf(pid) {
  const parent = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const s = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* gone */
    }
  }
  const out = [pid];
  for (const [p] of parent) {
    let q = parent.get(p);
    while (q && q !== pid && q !== 1) q = parent.get(q);
    if (q === pid) out.push(p);
  }
  return out;
}
function cpuSnapshot(groups) {
  const g = {};
  // PostgreSQL backends come and go with pool connections: re-read the family at each snapshot
  for (const [k, pids] of Object.entries(groups)) {
    const pg = k === 'postgres' && pids[0];
    g[k] = Object.fromEntries((pg ? familyOf(pids[0]) : pids).map((p) => [p, procTicks(p, pg && p === pids[0])]));
  }
  return { at: process.hrtime.bigint(), groups: g, machine: machineTicks() };
}
function cpuDelta(a, b) {
  const secs = Number(b.at - a.at) / 1e9;
  const out = {};
  for (const [k, pids] of Object.entries(b.groups)) {
    let ticks = 0;
    // over both snapshots' pids: a backend gone by the end lands whole in the postmaster's cutime, so its
    // before-the-run part is taken off again
    for (const p of new Set([...Object.keys(pids), ...Object.keys(a.groups[k] ?? {})])) ticks += (pids[p] ?? 0) - (a.groups[k]?.[p] ?? 0);
    out[k] = Math.round((ticks / TICK / secs) * 100);
  }
  const total = b.machine.total - a.machine.total;
  out.machine_busy = Math.round((1 - (b.machine.idle - a.machine.idle) / total) * 100);
  return out;
}
/** `ps -o %cpu` read every 3 s during a run (ps's %cpu is over each process's lifetime: kept as a cross-check only). */
function psSampler(pids) {
  const samples = [];
  const t = setInterval(() => {
    const r = spawnSync('ps', ['-o', 'pid=,%cpu=', '-p', pids.join(',')], { encoding: 'utf8' });
    samples.push(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => l.trim().split(/\s+/).join(':'))
        .join(' '),
    );
  }, 3000);
  return { stop: () => (clearInterval(t), samples) };
}
/** Waits (at most 60 s) until the machine is below 25 % busy over one second. */
async function settle() {
  for (let i = 0; i < 60; i++) {
    const a = machineTicks();
    await new Promise((r) => setTimeout(r, 1000));
    const b = machineTicks();
    if (1 - (b.idle - a.idle) / (b.total - a.total) < 0.25) return;
  }
}
function postmasterPid() {
  const f = resolve(root, 'data/bench/pg/postmaster.pid');
  return existsSync(f) ? Number(readFileSync(f, 'utf8').split('\n')[0]) : null;
}

// ------------------------------------------------------------------ database and servers

async function openDatabase(name) {
  if (process.env.DATABASE_URL) {
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    log(`database: ${name} on DATABASE_URL's server (its CPU is not sampled)`);
    return { url: url.toString(), kind: 'DATABASE_URL server', stop: async () => undefined };
  }
  const { startEmbeddedPostgres } = await import(resolve(root, 'dist/src/database/embedded-postgres.js'));
  const port = Number(process.env.BENCH_PG_PORT ?? 54339);
  const embedded = await startEmbeddedPostgres({ dataDir: resolve(root, 'data/bench'), port, database: name, quiet: true });
  log(`database: ${name} on the embedded PostgreSQL under ./data/bench (port ${port}, postmaster pid ${postmasterPid()})`);
  return { url: embedded.url, kind: 'embedded PostgreSQL', stop: () => embedded.stop() };
}

async function query(pg, url, sql, params = []) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql, params)).rows;
  } finally {
    await c.end();
  }
}

function startServer(url, port, extraEnv) {
  const child = spawn(process.execPath, [resolve(root, 'dist/src/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      ...extraEnv,
      DATABASE_URL: url,
      PORT: String(port),
      HOST: '127.0.0.1',
      RATE_LIMIT: 'off',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let exited = false;
  child.on('exit', () => (exited = true));
  child.stdout.on('data', () => undefined);
  const ready = (async () => {
    for (let i = 0; i < 600; i++) {
      if (exited) throw new Error(`the server on port ${port} exited during start-up`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return;
      } catch {
        /* not yet listening */
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`the server on port ${port} did not answer /health`);
  })();
  return {
    port,
    pid: child.pid,
    ready,
    stop: () =>
      new Promise((done) => {
        if (exited) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

function printTable(rows) {
  log('');
  log('mode    setup     req/s    p50 ms  p99 ms  MB/s   cpu % of one core');
  for (const r of rows)
    log(
      `${r.mode.padEnd(7)} ${r.setup.padEnd(8)} ${String(r.rps).padStart(7)}  ${String(r.p50_ms).padStart(6)}  ${String(r.p99_ms).padStart(6)}  ${String(r.mb_per_s).padStart(5)}  ${JSON.stringify(r.cpu_percent)}`,
    );
  log('');
}
