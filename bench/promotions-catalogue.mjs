// Issue 32's "(a)–(f) within 10 % with catalogue promotions", measured as a pair on one machine at one time:
// `npm run bench -- --no-build --cases promotions-catalogue [--promotions 900] [--rounds 8] [--window 4] [--pair-control]`.
//
// Two servers run side by side: one on the bench catalogue without promotions, one on a copy of that database
// (`CREATE DATABASE … TEMPLATE`, the same products, variants and stock) holding N catalogue promotions priced in
// (`ensurePromotions`, 900 unless `--promotions` says otherwise). Each of (a)–(e) is warmed on both, then measured in
// `--rounds` short windows (`--window` s each), alternating which server goes first in each round; (f)'s 3,520
// distinct URLs are cut into `--rounds` slices, each slice asked once of each server in the same alternation. The
// machine's swings (other processes, this one's own GC and PostgreSQL) then fall on both servers alike instead of on
// one run of each, which is what sequential runs of the whole bench (`--promotions 0` then `900`) could not separate
// (bench/README.md, session 16: identical builds differ by ±20 % between two runs). `--pair-control` measures the
// same pair with two servers on the database without promotions first: the spread of that ratio is the noise floor
// the promotions' ratio is read against.
import { setPriority } from 'node:os';
import { cpuMs } from './promotions-cart.mjs';

/**
 * `b` is the bench's toolbox (query, log, run, runPaths, startServer, buildCases, fPaths, ensurePromotions,
 * copyDatabase, opts, CONNECTIONS); `db` the bench database; `meta` its catalogue. Returns the case's figures.
 */
export async function casePromotionsCatalogue(b, db, meta) {
  const count = Number(b.opts.promotions) > 0 ? Number(b.opts.promotions) : 900;
  const rounds = Math.max(2, Number(b.opts.rounds ?? 8));
  const window = Math.max(1, Number(b.opts.window ?? 4));
  // the base database holds none; the copy is made from it (no session may be connected to a template)
  await b.ensurePromotions(db.url, meta, 0);
  const copyUrl = await b.copyDatabase(db.url, '_promotions');
  const priced = await b.ensurePromotions(copyUrl, meta, count);
  const out = { promotions: priced, rounds, window_s: window, pairs: {} };
  const pairs = b.opts['pair-control']
    ? [
        ['control', db.url, db.url],
        ['promotions', db.url, copyUrl],
      ]
    : [['promotions', db.url, copyUrl]];
  for (const [label, urlA, urlB] of pairs) {
    b.log(
      `promotions-catalogue: ${label} pair (${label === 'control' ? 'both without promotions' : `without / with ${count} promotions`}), ${rounds} rounds of ${window} s per case`,
    );
    out.pairs[label] = await measurePair(b, meta, [urlA, urlB], rounds, window);
  }
  return out;
}

async function measurePair(b, meta, [urlA, urlB], rounds, window) {
  const port = Number(process.env.BENCH_PORT ?? 3999);
  const servers = [];
  try {
    servers.push(await b.startServer(urlA, { port }), await b.startServer(urlB, { port: port + 1 }));
    // the pair's own priority over other work on the machine, when allowed (a shared machine's other jobs then blur less)
    for (const s of servers) nice(s.pid);
    nice(0);
    const casesA = await b.buildCases(urlA, servers[0].base, meta);
    const casesB = await b.buildCases(urlB, servers[1].base, meta);
    const token = meta.storefront_token;
    const result = {};
    for (const [i, c] of casesA.entries()) {
      const urls = [c.url, casesB[i].url];
      for (const u of urls) await b.run(u, 2, token); // warm-up: the answer memo and the product JSON cache
      const sides = await alternate(servers, rounds, (k) => b.run(urls[k], window, token));
      result[c.id] = summary(c.name, sides);
      b.log(`  ${c.id}: ${line(result[c.id])}`);
    }
    // (f): each slice of the distinct URLs asked once of each server
    const paths = await b.fPaths(urlA, meta);
    const slice = Math.ceil(paths.length / rounds);
    const sides = await alternate(servers, rounds, (k, round) => {
      const part = paths.slice(round * slice, (round + 1) * slice);
      return b.runPaths(servers[k].base, part, { amount: part.length, token });
    });
    result.f = summary(`${paths.length} distinct category x colour x country x size combinations, each once per server`, sides);
    b.log(`  f: ${line(result.f)}`);
    return result;
  } finally {
    for (const s of servers) await s.stop();
  }
}

/** `rounds` rounds of `work(k, round)` on both servers, the first of each round alternating; per server its windows. */
async function alternate(servers, rounds, work) {
  const sides = servers.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const k of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const cpu0 = cpuMs(servers[k].pid);
      const r = await work(k, round);
      const cpu1 = cpuMs(servers[k].pid);
      sides[k].push({
        rps: r.requests.average,
        requests: r.requests.total,
        cpu: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0,
        p99: r.latency.p99,
        bad: r.non2xx + r.errors,
      });
    }
  }
  return sides;
}

function summary(name, [a, b]) {
  const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const side = (w) => ({
    rps: round1(mean(w.map((x) => x.rps))),
    cpu_ms_per_request: w.every((x) => x.cpu !== null) ? round3(w.reduce((s, x) => s + x.cpu, 0) / w.reduce((s, x) => s + x.requests, 0)) : null,
    p99_ms_worst: Math.max(...w.map((x) => x.p99)),
    failed: w.reduce((s, x) => s + x.bad, 0),
  });
  const without = side(a);
  const withP = side(b);
  const perRound = a.map((x, i) => round3(b[i].rps / x.rps)).sort((x, y) => x - y);
  return {
    name,
    without,
    with: withP,
    rps_ratio: round3(withP.rps / without.rps),
    cpu_ratio: without.cpu_ms_per_request && withP.cpu_ms_per_request ? round3(withP.cpu_ms_per_request / without.cpu_ms_per_request) : null,
    rps_ratio_median_of_rounds: perRound[perRound.length >> 1],
    rps_ratio_rounds: perRound,
  };
}

const line = (r) =>
  `req/s ${r.without.rps} → ${r.with.rps} (ratio ${r.rps_ratio}, median of rounds ${r.rps_ratio_median_of_rounds}), server CPU ms/request ${r.without.cpu_ms_per_request} → ${r.with.cpu_ms_per_request} (ratio ${r.cpu_ratio})${r.without.failed + r.with.failed > 0 ? `, ${r.without.failed + r.with.failed} FAILED` : ''}`;

/** The table lines of the case (printed with the others). */
export function promotionsCatalogueLines(results) {
  const r = results['promotions-catalogue'];
  if (!r) return [];
  const out = [];
  for (const [label, cases] of Object.entries(r.pairs)) {
    for (const [id, c] of Object.entries(cases)) {
      const met = label === 'promotions' ? (c.rps_ratio >= 0.9 ? 'met' : 'NOT met') : 'noise floor';
      out.push(`${`pc-${label === 'control' ? 'ctl-' : ''}${id}`.padEnd(10)}${line(c)}   ${met} (within 10 %)`);
    }
  }
  return out;
}

function nice(pid) {
  try {
    setPriority(pid, -10);
  } catch {
    // not allowed here: normal priority
  }
}

const round1 = (x) => Math.round(x * 10) / 10;
const round3 = (x) => Math.round(x * 1000) / 1000;
