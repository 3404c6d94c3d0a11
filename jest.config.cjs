/**
 * Two Jest projects, native ESM like the app:
 * - unit: co-located `src/**\/*.spec.ts` for pure functions and `test/unit/*.spec.ts` (module rules, table owners); no database, no app, fast (`npm run test:unit`);
 * - e2e: through HTTP against a real PostgreSQL (DATABASE_URL, else an embedded one) (`npm run test:e2e`).
 * JEST_PROJECT=unit|e2e keeps one of them (the npm scripts set it; `--selectProjects` would swallow the file
 * arguments of `npm run test:e2e -- test/e2e/<file>`); without it both run.
 * E2E_GROUPS=1 (`npm test` sets it) runs the short e2e files in groups, several to a Jest test file, and the browser
 * files in two groups of their own (test/helpers/e2e-groups.cjs); without it each e2e file runs alone.
 * UNIT_GROUPS=1 (`npm test` sets it too) runs the unit specs in two groups (test/helpers/unit-groups.cjs); without it
 * each spec runs alone (`npm run test:unit -- <file>`).
 */
const { groups, browserGroups } = require('./test/helpers/e2e-groups.cjs');
const unitGroups = require('./test/helpers/unit-groups.cjs');

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const E2E_GROUPS = process.env.E2E_GROUPS === '1';
const UNIT_GROUPS = process.env.UNIT_GROUPS === '1';
/** Jest ignores these files: with groups, the files in them run inside them and not alone as well. */
const ignoreGrouped = (files) => files.map((f) => `<rootDir>/${escape(f)}$`);
// transpile-only (the types are `npm run typecheck`'s): SWC, and for the e2e project the files the @nestjs/swagger
// plugin rewrites through ts-jest with the plugin (test/helpers/ts-transform.cjs)
const transform = (plugins) => ({
  '^.+\\.ts$': [
    '<rootDir>/test/helpers/ts-transform.cjs',
    {
      swaggerPlugin: plugins,
      tsJest: {
        useESM: true,
        tsconfig: 'tsconfig.json',
        ...(plugins ? { astTransformers: { before: [{ path: '<rootDir>/test/helpers/swagger-plugin.cjs' }] } } : {}),
      },
    },
  ],
});

const common = {
  rootDir: '.',
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    '^(\\.{1,2}/.*)\\.js$': '$1',
    // the package by its own name (examples/ import it so, as an installed extension would): the sources, like the tsconfig paths
    '^vinoshop-commerce$': '<rootDir>/src/index.ts',
    '^vinoshop-commerce/testing$': '<rootDir>/test/helpers/testing.ts',
  },
};

const projects = [
  {
    ...common,
    displayName: 'unit',
    testRegex: UNIT_GROUPS
      ? ['(src|examples|test/unit)/.*\\.spec\\.ts$', 'test/unit-groups/group-\\d+\\.unit-group\\.ts$']
      : '(src|examples|test/unit)/.*\\.spec\\.ts$',
    testPathIgnorePatterns: ['/node_modules/', ...(UNIT_GROUPS ? ignoreGrouped(unitGroups.groups(__dirname).flat()) : [])],
    transform: transform(false),
  },
  {
    ...common,
    displayName: 'e2e',
    testRegex: E2E_GROUPS
      ? ['(test|examples)/.*\\.e2e-spec\\.ts$', 'test/e2e-groups/(group|browser)-\\d+\\.e2e-group\\.ts$']
      : '(test|examples)/.*\\.e2e-spec\\.ts$',
    // with groups, their files run inside them and not alone as well
    testPathIgnorePatterns: ['/node_modules/', ...(E2E_GROUPS ? ignoreGrouped([...groups(__dirname), ...browserGroups(__dirname)].flat()) : [])],
    transform: transform(true),
    setupFilesAfterEnv: ['<rootDir>/test/helpers/file-cpu.ts', '<rootDir>/test/helpers/openapi-after-each.ts'],
    globalSetup: '<rootDir>/test/helpers/global-setup.mjs',
    globalTeardown: '<rootDir>/test/helpers/global-teardown.mjs',
    testTimeout: 60000,
  },
];

module.exports = {
  projects: process.env.JEST_PROJECT ? projects.filter((p) => p.displayName === process.env.JEST_PROJECT) : projects,
  // JEST_WORKERS (default 2): Jest workers (`npm test`'s e2e run keeps 2, see bin/test.mjs)
  maxWorkers: Number(process.env.JEST_WORKERS ?? 2),
  testTimeout: 60000,
  // the files known to be long start first (test/helpers/sequencer.cjs)
  testSequencer: '<rootDir>/test/helpers/sequencer.cjs',
};
