#!/usr/bin/env node
// `npm run shop -- <command>` / `npx shop`: runs the compiled CLI, building it first when the sources changed
// (bin/build.mjs, the same build `npm start` uses: safe while a server starts or runs from this checkout).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from './build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
try {
  await ensureBuilt({ root, log: () => undefined });
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
await import(join(root, 'dist/src/cli/main.js'));
