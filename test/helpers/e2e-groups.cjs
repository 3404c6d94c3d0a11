// Grouped e2e files (README "Development and tests"): `npm test` runs the short e2e files a few at a time in one Jest
// test file each (test/e2e-groups/group-<n>.e2e-group.ts), so the app's module graph (about 2 CPU s to load into a fresh
// module registry) is loaded once per group instead of once per file. The spec files are not changed: a group file
// imports them one after another, each registering its own describe blocks (no e2e file has a hook or a test outside
// a describe, so none reaches into another's). `npm run test:e2e -- <file>` still runs one file alone.
//
// Which files go in which group is computed here, from the files on disk, for jest.config.cjs (which runs the groups
// instead of their files) and for the group files (which import them): a new e2e file joins a group by itself.
// Not grouped: the long files of test/helpers/sequencer.cjs (they start first, each alone) and the browser files.
const { readdirSync, statSync } = require('node:fs');
const { join, relative } = require('node:path');
const { LONG_FIRST } = require('./sequencer.cjs');

/** How many group files exist in test/e2e-groups/ (group-1 … group-GROUPS). */
const GROUPS = 8;
const SPEC = /\.e2e-spec\.ts$/;

function walk(dir, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (SPEC.test(entry.name)) out.push(path);
  }
  return out;
}

/** Whether a spec file (path from the repository root, `/`-separated) runs in a group. */
function groupable(file) {
  return !LONG_FIRST.includes(file) && !file.includes('.browser.');
}

/**
 * The groupable e2e files split into GROUPS groups of about the same size (bytes, a rough cost measure): the largest
 * first, each into the smallest group so far; each group's files in name order. Paths from the repository root.
 */
function groups(root) {
  const files = ['test', 'examples']
    .flatMap((dir) => walk(join(root, dir), []))
    .map((path) => ({ file: relative(root, path).split('\\').join('/'), size: statSync(path).size }))
    .filter(({ file }) => groupable(file))
    .sort((a, b) => b.size - a.size || (a.file < b.file ? -1 : 1));
  const out = Array.from({ length: GROUPS }, () => ({ size: 0, files: [] }));
  for (const f of files) {
    const smallest = out.reduce((min, g) => (g.size < min.size ? g : min));
    smallest.size += f.size;
    smallest.files.push(f.file);
  }
  return out.map((g) => g.files.sort());
}

module.exports = { GROUPS, groups, groupable };
