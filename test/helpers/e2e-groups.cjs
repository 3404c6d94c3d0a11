// Grouped e2e files (README "Development and tests"): `npm test` runs the short e2e files a few at a time in one Jest
// test file each (test/e2e-groups/group-<n>.e2e-group.ts), so the app's module graph (about 2 CPU s to load into a fresh
// module registry) is loaded once per group instead of once per file. The spec files are not changed: a group file
// imports them one after another, each registering its own describe blocks (no e2e file has a hook or a test outside
// a describe, so none reaches into another's). `npm run test:e2e -- <file>` still runs one file alone.
//
// Which files go in which group is computed here, from the files on disk, for jest.config.cjs (which runs the groups
// instead of their files) and for the group files (which import them): a new e2e file joins a group by itself.
// Not grouped: the long files of test/helpers/sequencer.cjs (they start first, each alone). The browser files run in
// groups of their own (browserGroups: test/e2e-groups/browser-<n>.e2e-group.ts), which share one Chromium as well
// (test/e2e/storefront-browser.fixture.ts), each file in browser contexts of its own and on its own demo shop.
const { statSync } = require('node:fs');
const { join, relative } = require('node:path');
const { LONG_FIRST } = require('./sequencer.cjs');
const { balance, walk } = require('./spec-files.cjs');

/** How many group files exist in test/e2e-groups/ (group-1 … group-GROUPS). */
const GROUPS = 8;
/** How many browser group files exist in test/e2e-groups/ (browser-1 … browser-BROWSER_GROUPS). */
const BROWSER_GROUPS = 2;
const SPEC = /\.e2e-spec\.ts$/;

/** Whether a spec file (path from the repository root, `/`-separated) runs in a group. */
function groupable(file) {
  return !LONG_FIRST.includes(file) && !file.includes('.browser.');
}

/** Whether a spec file runs in a browser group: every browser file (the sequencer's order applies when one runs alone). */
function browserGroupable(file) {
  return file.includes('.browser.');
}

/**
 * The e2e files that `keep` accepts split into `count` groups of about the same size (bytes, a rough cost measure):
 * the largest first, each into the smallest group so far; each group's files in name order. Paths from the root.
 */
function split(root, keep, count) {
  const files = ['test', 'examples']
    .flatMap((dir) => walk(join(root, dir), SPEC))
    .map((path) => ({ file: relative(root, path).split('\\').join('/'), size: statSync(path).size }))
    .filter(({ file }) => keep(file));
  return balance(files, count);
}

/** The short e2e files in GROUPS groups (test/e2e-groups/group-<n>.e2e-group.ts). */
const groups = (root) => split(root, groupable, GROUPS);
/** The browser files in BROWSER_GROUPS groups (test/e2e-groups/browser-<n>.e2e-group.ts). */
const browserGroups = (root) => split(root, browserGroupable, BROWSER_GROUPS);

module.exports = { GROUPS, BROWSER_GROUPS, groups, groupable, browserGroups, browserGroupable };
