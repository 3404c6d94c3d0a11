#!/usr/bin/env node
// `npm test`: every check of the project, the long e2e run overlapped with the short ones (README "Development and tests").
//
// - `storefront:prepare` and `test:e2e` start together: the e2e files serving the storefront's real build wait for it
//   (a marker file written when the build is done, STOREFRONT_READY_FILE), the others do not;
// - `typecheck`, `lint`, `lint:deps` and `format:check` start at the same time, at a lower CPU priority (nice 10), and
//   `test:unit` likewise once `storefront:prepare` is done (the storefront's specs import its own dependencies): they
//   fill the CPU the e2e run leaves idle (its workers waiting on PostgreSQL, the server or timers) instead of adding
//   their minutes before it, and take little from its timing-sensitive tests;
// - the first phase that fails stops the others (their whole process groups) and the run exits 1 with its output;
// - the e2e run runs its short files several to a Jest test file (E2E_GROUPS=1, test/helpers/e2e-groups.cjs), the unit
//   run its specs in two (UNIT_GROUPS=1, test/helpers/unit-groups.cjs);
// - each short phase's output is printed in one block when it ends; the e2e run's output streams as it comes;
// - a summary gives each phase's wall time and, on Linux, its CPU time (children's user+system time).
//
// `node bin/test.mjs --serial` runs the phases one after another in the old order, at normal priority.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';

const SERIAL = process.argv.includes('--serial');
const CHECKS = ['typecheck', 'lint', 'lint:deps', 'format:check', 'test:unit'];
const NICE = 10;
// the e2e run streams its output and runs the short files in groups (test/helpers/e2e-groups.cjs), two files at once
// (JEST_WORKERS: with three, the throttled storefront budget of a browser group missed its 2.0 s under the contention;
// README "Development and tests")
const E2E = { stream: true, env: { E2E_GROUPS: '1', JEST_WORKERS: process.env.JEST_WORKERS ?? '2' } };
// the unit specs in two groups, one module registry each instead of one per spec (test/helpers/unit-groups.cjs)
const ENV = { 'test:unit': { UNIT_GROUPS: '1' } };

/** CPU seconds of the waited-for children of this process so far (Linux), else null. */
function childCpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): cutime and cstime are fields 16 and 17, in clock ticks (USER_HZ, 100 on Linux)
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

const running = new Map();
let cpuReaped = childCpuSeconds();
const results = [];
let failed = false;

function run(script, { nice = 0, stream = false, env = {} } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', script], {
      stdio: stream ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      detached: true,
      env: { ...process.env, ...env },
    });
    if (nice) {
      try {
        setPriority(child.pid, nice);
      } catch {
        // not allowed here: run at normal priority
      }
    }
    const out = [];
    child.stdout?.on('data', (d) => out.push(d));
    child.stderr?.on('data', (d) => out.push(d));
    running.set(script, child);
    child.on('close', (code, signal) => {
      running.delete(script);
      // the children's CPU time grows when one is reaped, by that one's whole tree: the growth since the last reap is its own
      const cpuNow = childCpuSeconds();
      const cpu = cpuNow === null || cpuReaped === null ? null : cpuNow - cpuReaped;
      cpuReaped = cpuNow;
      const result = {
        script,
        ok: code === 0,
        stopped: failed && signal !== null,
        wall: (Date.now() - started) / 1000,
        cpu,
      };
      results.push(result);
      if (!stream && !result.stopped) {
        process.stdout.write(`\n── npm run ${script} (${result.ok ? 'ok' : 'FAILED'}, ${result.wall.toFixed(1)} s)\n`);
        process.stdout.write(Buffer.concat(out));
      }
      if (!result.ok && !failed) stop(script);
      resolve(result);
    });
  });
}

/** The first failure: ends every other phase still running (its npm process and everything it started). */
function stop(script) {
  failed = true;
  process.stderr.write(`\nnpm run ${script} failed: stopping ${[...running.keys()].join(', ') || 'nothing else'}\n`);
  for (const child of running.values()) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

function summary() {
  const order = [...CHECKS, 'storefront:prepare', 'test:e2e'];
  const rows = results.sort((a, b) => order.indexOf(a.script) - order.indexOf(b.script));
  process.stdout.write('\nphase                 wall s   cpu s   result\n');
  for (const r of rows) {
    const cpu = r.cpu === null ? '-' : r.cpu.toFixed(1);
    process.stdout.write(`${r.script.padEnd(20)} ${r.wall.toFixed(1).padStart(7)} ${cpu.padStart(7)}   ${r.stopped ? 'stopped' : r.ok ? 'ok' : 'FAILED'}\n`);
  }
  process.stdout.write(`total wall ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    failed = true;
    for (const child of running.values()) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    }
    process.exit(130);
  });
}

const t0 = Date.now();
if (SERIAL) {
  for (const script of [...CHECKS, 'storefront:prepare', 'test:e2e']) {
    const r = await run(script, script === 'test:e2e' ? E2E : { env: ENV[script] ?? {} });
    if (!r.ok) break;
  }
} else {
  const checks = CHECKS.filter((script) => script !== 'test:unit').map((script) => run(script, { nice: NICE, env: ENV[script] ?? {} }));
  // the storefront's build beside the e2e run: only the files serving the real build wait for it (createTestApp with
  // STOREFRONT_DEMO and no STOREFRONT_DEMO_DIR, test/helpers/storefront-ready.ts), until this file exists
  const ready = join(mkdtempSync(join(tmpdir(), 'shop-storefront-')), 'built');
  const prepare = run('storefront:prepare').then((r) => {
    if (r.ok) writeFileSync(ready, '');
    return r;
  });
  // the unit specs of examples/storefront import its own dependencies (react, …), which storefront:prepare installs on a
  // fresh clone: the unit run starts once it is done (which group imports them when is a matter of the groups' sizes)
  const unit = prepare.then((r) => (r.ok ? run('test:unit', { nice: NICE, env: ENV['test:unit'] }) : r));
  const e2e = run('test:e2e', { ...E2E, env: { ...E2E.env, STOREFRONT_READY_FILE: ready } });
  await Promise.all([...checks, prepare, unit, e2e]);
}
summary();
process.exit(failed || results.some((r) => !r.ok) ? 1 : 0);
