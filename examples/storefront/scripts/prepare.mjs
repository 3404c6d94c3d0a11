#!/usr/bin/env node
// Makes the storefront ready to serve and to test, doing only what is out of date:
//   1. installs its own dependencies (npm ci) when node_modules is missing or older than package-lock.json;
//   2. builds it (typecheck + vite build into dist/) when a source is newer than dist/index.html;
//   3. with --browser: installs Debian's chromium (apt-get, as root) when /usr/bin/chromium is missing.
// `npm run storefront:build` at the repository root runs 1-2; `npm test` runs all three.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = '/usr/bin/chromium';
const log = (msg) => process.stderr.write(`[storefront] ${msg}\n`);
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], ...opts });
const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : 0);
function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const installed = join(root, 'node_modules', '.package-lock.json');
if (mtime(installed) < mtime(join(root, 'package-lock.json'))) {
  log('installing dependencies (npm ci)');
  run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error']);
}

const built = join(root, 'dist', 'index.html');
const sources = Math.max(...['src', 'public', 'index.html', 'vite.config.ts', 'tsconfig.json', 'package-lock.json', '../openapi-client/schema.d.ts'].map((p) => newest(join(root, p))));
if (mtime(built) < sources) {
  log('building (npm run build)');
  // a production build even when called from the tests (NODE_ENV=test would give React's development build)
  run('npm', ['run', 'build', '--silent'], { env: { ...process.env, NODE_ENV: 'production' } });
}

if (process.argv.includes('--browser') && !existsSync(CHROMIUM)) {
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    log(`${CHROMIUM} is missing: install it with \`sudo apt-get install -y chromium\``);
    process.exit(1);
  }
  log('installing chromium (apt-get install -y chromium)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], { env });
  run('apt-get', ['install', '-y', '-qq', 'chromium'], { env });
}
