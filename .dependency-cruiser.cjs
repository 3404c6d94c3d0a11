/**
 * Module boundaries of src/ (issue 15), checked by `npm run lint:deps` (part of `npm test`).
 *
 * Layers: `src/common/` is the ground floor (context, errors, HTTP plumbing, paging); `src/config/` and
 * `src/database/` are infrastructure, not features; every other folder of src/ is a feature module. The
 * composition root (`src/*.ts`: app, app.module, main) may import anything.
 *
 * - common imports no feature module (only common, config, database);
 * - a feature imports another feature only through that module's public files: `src/<module>/index.ts` (services,
 *   read functions, types; never the Nest module class, so importing it loads no controllers and makes no import
 *   cycle) and `src/<module>/<module>.module.ts` (the Nest module, for another module's `imports:`);
 * - infrastructure imports features only through their public file, except the entity registry
 *   (`src/database/entities.ts`), which lists every module's `entities/`;
 * - live code never imports from `src/database/migrations/` (a migration keeps its own frozen SQL);
 * - extensions (examples/) use only the public surface: `src/index.ts` and the test helpers' entry
 *   `test/helpers/testing.ts` (package.json "exports": "." and "./testing").
 */
const INFRA = '(common|config|database)';

module.exports = {
  forbidden: [
    {
      name: 'common-imports-no-feature',
      comment: 'src/common/ is the ground floor: it may import common/, config/ and database/ only, never a feature module.',
      severity: 'error',
      from: { path: '^src/common/' },
      to: { path: '^src/', pathNot: `^src/${INFRA}/` },
    },
    {
      name: 'feature-through-public-file',
      comment: 'A feature imports another feature only through its public files src/<module>/index.ts and src/<module>/<module>.module.ts.',
      severity: 'error',
      // src/extensions/extension-points.ts is the one place listing every extension point: it re-exports the tokens
      // their owning modules define (mail transport, asset store, catalogue search, index stats) from their files
      from: { path: '^src/([^/]+)/', pathNot: [`^src/${INFRA}/`, '^src/extensions/extension-points\\.ts$'] },
      to: { path: '^src/([^/]+)/', pathNot: ['^src/$1/', `^src/${INFRA}/`, '^src/[^/]+/index\\.ts$', '^src/[^/]+/[a-z-]+\\.module\\.ts$'] },
    },
    {
      name: 'infrastructure-through-public-file',
      comment: 'config/ and database/ import a feature only through its public file (the entity registry excepted).',
      severity: 'error',
      from: { path: '^src/(config|database)/', pathNot: '^src/database/entities\\.ts$' },
      to: { path: '^src/', pathNot: [`^src/${INFRA}/`, '^src/[^/]+/index\\.ts$'] },
    },
    {
      name: 'entity-registry-lists-entities-only',
      comment: "src/database/entities.ts (the entity registry) imports modules' entities/ files and nothing else of a feature.",
      severity: 'error',
      from: { path: '^src/database/entities\\.ts$' },
      to: { path: '^src/', pathNot: [`^src/${INFRA}/`, '^src/[^/]+/entities/', '^src/[^/]+/index\\.ts$'] },
    },
    {
      name: 'no-migrations-in-live-code',
      comment: 'Live code never imports a migration: shared SQL lives in its owning module; a migration keeps a frozen copy.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/database/migrations/', '^src/database/data-source\\.ts$'] },
      to: { path: '^src/database/migrations/' },
    },
    {
      name: 'examples-only-public-surface',
      comment: 'An example extension imports the service only through src/index.ts (and test/helpers/testing.ts in tests), never a deep path.',
      severity: 'error',
      from: { path: '^examples/' },
      to: { path: '^(src|test)/', pathNot: '^(src/index\\.ts|test/helpers/testing\\.ts)$' },
    },
  ],
  allowed: [],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^(src|examples|test/helpers)/',
    exclude: { path: ['\\.spec\\.ts$', '^examples/(storefront|openapi-client)/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    moduleSystems: ['es6', 'cjs'],
  },
};
