// Grouped unit specs (README "Development and tests"): `npm test` runs the unit specs a few dozen to a Jest test file
// (test/unit-groups/group-<n>.unit-group.ts), as it runs the short e2e files (test/helpers/e2e-groups.cjs). Each Jest
// test file gets a fresh module registry, and loading a spec's imports into it (Nest, TypeORM, the services and their
// DTOs) cost more CPU than most specs' tests: 98 files took about 63 CPU s, the same specs in two groups about 32.
// The spec files are not changed: a group file imports them one after another, each registering its describe blocks.
//
// Which files go in which group is computed here, from the files on disk, for jest.config.cjs (which runs the groups
// instead of their files) and for the group files (which import them): a new spec joins a group by itself.
// Not grouped (each runs alone, as without groups): a spec with a hook or a test outside any describe block, which in
// a group would apply to (or sit among) the other files' tests, such as an `afterEach(() => jest.restoreAllMocks())`.
const { readFileSync, statSync } = require('node:fs');
const { join, relative } = require('node:path');
const { balance, walk } = require('./spec-files.cjs');

/** How many group files exist in test/unit-groups/ (group-1 … group-GROUPS): one per Jest worker. */
const GROUPS = 2;
const SPEC = /\.spec\.ts$/;
const DIRS = ['src', 'examples', 'test/unit'];
/** A hook or test at the top level of a file: a line starting with its call. */
const TOP_LEVEL = /^(?:beforeAll|afterAll|beforeEach|afterEach|it|test)(?:\.\w+)*\(/m;

/** Whether a spec's source leaves it free to share a Jest test file: no hook or test outside a describe. */
function groupable(source) {
  return !TOP_LEVEL.test(source);
}

/** Every unit spec file, paths from the repository root (`/`-separated), in name order. */
function specs(root) {
  return DIRS.flatMap((dir) => walk(join(root, dir), SPEC))
    .map((path) => relative(root, path).split('\\').join('/'))
    .sort();
}

/**
 * The groupable unit specs split into GROUPS groups of about the same size (bytes): the largest first, each into the
 * smallest group so far; each group's files in name order. Paths from the repository root.
 */
function groups(root) {
  const files = specs(root)
    .map((file) => ({ file, source: readFileSync(join(root, file), 'utf8'), size: statSync(join(root, file)).size }))
    .filter(({ source }) => groupable(source));
  return balance(files, GROUPS);
}

module.exports = { GROUPS, groups, groupable, specs };
