#!/usr/bin/env node
// The one build of the app, shared by `npm start` / `npm run build` (this file run directly) and bin/shop.js
// (ensureBuilt()). It builds only when the sources changed since the last build, and never leaves a half-written
// dist/ visible, so two starts from one checkout at once (two instances, a start while the CLI runs) are safe:
//
// - the sources (src/, test/helpers/ (the `./testing` entry is built too), the tsconfig files, nest-cli.json, ormconfig.ts, package.json, package-lock.json) are hashed;
// - each build is compiled aside into .builds/<hash>.tmp-<pid> and renamed to .builds/<hash> when complete;
// - dist is a symbolic link to the current .builds/<hash>, replaced by an atomic rename;
// - one build at a time (a lock file holding the builder's pid; a dead builder's lock is taken over); whoever waited
//   finds the build done and reuses it;
// - the 3 newest builds are kept, so a process still running an older one keeps its files.
// Without src/ (an image holding only dist/) there is nothing to build.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  closeSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const INPUTS = ['src', 'test/helpers', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json', 'ormconfig.ts', 'package.json', 'package-lock.json'];
const KEEP = 3;

function files(path, out = []) {
  const st = statSync(path);
  if (!st.isDirectory()) {
    out.push(path);
    return out;
  }
  for (const name of readdirSync(path).sort()) files(join(path, name), out);
  return out;
}

/** A hash of every build input's path and content. */
export function sourceHash(root = ROOT) {
  const h = createHash('sha256');
  for (const input of INPUTS) {
    const p = join(root, input);
    if (!existsSync(p)) continue;
    for (const f of files(p)) {
      h.update(relative(root, f));
      h.update('\0');
      h.update(readFileSync(f));
      h.update('\0');
    }
  }
  return h.digest('hex').slice(0, 16);
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Takes the build lock (waiting for a live holder, taking over a dead one's); returns its release. */
async function lock(builds) {
  const path = join(builds, 'build.lock');
  for (let waited = 0; ; waited += 200) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    let holder = NaN;
    try {
      holder = Number(readFileSync(path, 'utf8'));
    } catch {
      continue; // released meanwhile
    }
    if (Number.isInteger(holder) && holder > 0 && !alive(holder)) {
      // a builder that died: take its lock over (one of the waiters wins the unlink + create)
      try {
        if (Number(readFileSync(path, 'utf8')) === holder) unlinkSync(path);
      } catch {
        /* someone else took it over */
      }
      continue;
    }
    if (waited > 15 * 60_000) throw new Error(`build: ${path} is held by process ${holder} for 15 minutes`);
    await sleep(200);
  }
}

function current(root) {
  try {
    return lstatSync(join(root, 'dist')).isSymbolicLink() ? readlinkSync(join(root, 'dist')) : null;
  } catch {
    return null;
  }
}

/** Points dist at the build (an atomic rename of a new link over the old one). */
function link(root, target) {
  const dist = join(root, 'dist');
  const tmp = join(root, `.dist.${process.pid}`);
  rmSync(tmp, { force: true });
  symlinkSync(target, tmp);
  const st = existsSync(dist) || current(root) !== null ? lstatSync(dist) : null;
  if (st && !st.isSymbolicLink()) {
    // a dist/ directory from an older kind of build: set it aside (kept, not deleted under a running process)
    renameSync(dist, join(root, '.builds', `legacy-${Date.now().toString(36)}`));
  }
  renameSync(tmp, dist);
}

function prune(builds, keep) {
  const done = readdirSync(builds)
    .filter((n) => /^[0-9a-f]{16}$/.test(n) || n.startsWith('legacy-'))
    .map((n) => ({ n, t: statSync(join(builds, n)).mtimeMs }))
    .sort((a, b) => b.t - a.t);
  for (const { n } of done.slice(KEEP)) if (n !== keep) rmSync(join(builds, n), { recursive: true, force: true });
  // compiles aside left by builders that died
  for (const n of readdirSync(builds)) {
    const m = /\.tmp-(\d+)$/.exec(n) ?? /^(?:tsconfig|nest-cli)\.(\d+)\.json$/.exec(n);
    if (m && !alive(Number(m[1]))) rmSync(join(builds, n), { recursive: true, force: true });
  }
}

function compile(root, out) {
  const nestCli = JSON.parse(readFileSync(join(root, 'nest-cli.json'), 'utf8'));
  const tsconfig = join(root, '.builds', `tsconfig.${process.pid}.json`);
  const cliConfig = join(root, '.builds', `nest-cli.${process.pid}.json`);
  const rel = relative(root, out);
  writeFileSync(
    tsconfig,
    JSON.stringify({ extends: '../tsconfig.build.json', compilerOptions: { outDir: `../${rel}`, tsBuildInfoFile: `../${rel}/tsconfig.build.tsbuildinfo` } }),
  );
  const assets = (nestCli.compilerOptions?.assets ?? []).map((a) => (typeof a === 'object' && a.outDir === 'dist' ? { ...a, outDir: rel } : a));
  writeFileSync(
    cliConfig,
    JSON.stringify({ ...nestCli, compilerOptions: { ...nestCli.compilerOptions, tsConfigPath: relative(root, tsconfig), assets, deleteOutDir: true } }),
  );
  try {
    const nest = join(root, 'node_modules', '@nestjs', 'cli', 'bin', 'nest.js');
    const r = spawnSync(process.execPath, [nest, 'build', '--config', relative(root, cliConfig), '--path', relative(root, tsconfig)], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (r.status !== 0) throw new Error(`build failed (nest build exited with ${r.status ?? r.signal})`);
    if (!existsSync(join(out, 'src', 'main.js'))) throw new Error(`build failed: ${join(rel, 'src', 'main.js')} was not written`);
  } finally {
    rmSync(tsconfig, { force: true });
    rmSync(cliConfig, { force: true });
  }
}

/**
 * Builds when the sources changed since the last build; returns true when it compiled. `compile(root, outDir)`
 * replaces the Nest build (tests).
 */
export async function ensureBuilt({ root = ROOT, log = (line) => process.stderr.write(`${line}\n`), compile: compileInto = compile } = {}) {
  if (!existsSync(join(root, 'src'))) return false;
  const builds = join(root, '.builds');
  mkdirSync(builds, { recursive: true });
  const hash = sourceHash(root);
  const target = join('.builds', hash);
  if (current(root) === target && existsSync(join(root, target, 'src', 'main.js'))) return false;
  const release = await lock(builds);
  try {
    let compiled = false;
    if (!existsSync(join(root, target, 'src', 'main.js'))) {
      const aside = join(builds, `${hash}.tmp-${process.pid}`);
      rmSync(aside, { recursive: true, force: true });
      log(`building dist/ (sources changed: ${hash})`);
      await compileInto(root, aside);
      rmSync(join(root, target), { recursive: true, force: true });
      renameSync(aside, join(root, target));
      compiled = true;
    }
    if (current(root) !== target) link(root, target);
    prune(builds, hash);
    return compiled;
  } finally {
    release();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await ensureBuilt();
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}
