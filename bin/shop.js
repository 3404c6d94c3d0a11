#!/usr/bin/env node
// `npm run shop -- <command>` / `npx shop`: runs the compiled CLI, building it first when the sources are newer.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'dist/src/cli/main.js');

function newest(dir) {
  let latest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = statSync(path);
    latest = Math.max(latest, st.isDirectory() ? newest(path) : st.mtimeMs);
  }
  return latest;
}

const src = join(root, 'src');
if (existsSync(src) && (!existsSync(entry) || newest(src) > statSync(entry).mtimeMs)) {
  execSync('npx nest build', { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}
await import(entry);
