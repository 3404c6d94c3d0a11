/**
 * Module boundaries of src/ (issues 15 and 36), checked by `npm run lint:deps` (part of `npm test`).
 *
 * Layers, bottom to top (a layer imports only layers below it, never one above; README "Architecture"):
 *   1. ground: `src/common/` (context, errors, HTTP plumbing, paging, the cache bus) and `src/config/`;
 *   2. contracts: `src/extensions/` (every extension point's contract and the `Extensions` collector, the CLI command
 *      contract, the contract types the points take: mail message, asset store, catalogue search, principal...);
 *   3. infrastructure: `src/database/` (data source, replicas, the entity registry) and `src/observability/`;
 *   4. `src/events/` (the domain event map and the outbox): payloads are plain types here, or declared by the
 *      emitting module through declaration merging; events/ never imports them;
 *   5. feature modules: every other folder of src/, importing each other only through their public files;
 *   6. the composition root (`src/*.ts`: app, app.module, index, main) and, at the very top, `src/cli/`, which
 *      nothing imports (a module contributes a command with the `CliCommand` contract of extensions/).
 *
 * - no cycle of value imports anywhere in src/ (`no-circular`; no exemption by name). Type-only imports
 *   (`import type`, `export type`) are erased at compile time and may close a cycle: the rule ignores a cycle that
 *   contains one. Three such cycles remain, each inside one module (tax, cart, catalogue-search);
 * - common/ and config/ import nothing above them; extensions/ imports only the ground; database/ and
 *   observability/ import no feature (the entity registry excepted); events/ imports no feature;
 * - a feature imports another feature only through that module's public files: `src/<module>/index.ts` (services,
 *   read functions, types; never the Nest module class, so importing it loads no controllers) and, from its own
 *   Nest module class only, `src/<module>/<module>.module.ts` (a Nest module lists the modules it builds on in
 *   `imports:`, which needs their class as a value; exporting the class from index.ts would load the controllers
 *   of every module whose services another one reads);
 * - the catalogue engine's `TenantIndex` class is imported only by its build and layout (everyone else reads through
 *   `ReadonlyTenantIndex` or writes through `TenantIndexWriter`, src/catalogue-search/README.md);
 * - live code never imports from `src/database/migrations/` (a migration keeps its own frozen SQL);
 * - extensions (examples/) use only the public surface: the package's own name, `vinoshop-commerce` (src/index.ts)
 *   and `vinoshop-commerce/testing` (test/helpers/testing.ts), never a path into src/ or test/.
 */
const GROUND = '(common|config)';
const INFRA = '(common|config|extensions|database|observability)';
/** The folders that are not feature modules. */
const NOT_FEATURE = '(common|config|extensions|database|observability|events|cli)';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No cycle of value imports in src/ (no exemption by name). A cycle closed by a type-only import is allowed: it is erased at compile time.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'ground-imports-nothing-above',
      comment: 'src/common/ and src/config/ are the ground floor: they import each other only (not database/, not extensions/, no feature).',
      severity: 'error',
      from: { path: `^src/${GROUND}/` },
      to: { path: '^src/', pathNot: `^src/${GROUND}/` },
    },
    {
      name: 'extensions-is-a-leaf',
      comment: 'src/extensions/ holds the contracts: it imports the ground only, never a module implementing a point.',
      severity: 'error',
      from: { path: '^src/extensions/' },
      to: { path: '^src/', pathNot: `^src/(${GROUND.slice(1, -1)}|extensions)/` },
    },
    {
      name: 'events-imports-no-feature',
      comment: 'src/events/ imports no feature module (payloads are its own plain types or merged into DomainEventMap by their module).',
      severity: 'error',
      from: { path: '^src/events/' },
      to: { path: '^src/', pathNot: `^src/(${INFRA.slice(1, -1)}|events)/` },
    },
    {
      name: 'nothing-imports-cli',
      comment: 'src/cli/ is the top: nothing imports it (modules declare commands with the CliCommand contract of src/extensions/).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'nothing-imports-the-composition-root',
      comment: 'Modules never import the composition root (src/*.ts: app, app.module, main...); only cli/ and the root itself do.',
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: '^src/cli/' },
      to: { path: '^src/[^/]+\\.ts$' },
    },
    {
      name: 'feature-through-public-file',
      comment: "A feature imports another feature only through its public index.ts, and a Nest module class imports another module's <module>.module.ts.",
      severity: 'error',
      from: { path: `^src/(?!${NOT_FEATURE}/)([^/]+)/`, pathNot: '^src/[^/]+/[a-z-]+\\.module\\.ts$' },
      to: { path: `^src/(?!${NOT_FEATURE}/)([^/]+)/`, pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$'] },
    },
    {
      name: 'module-class-through-public-file',
      comment: "A Nest module class imports another feature's index.ts or its <module>.module.ts (for `imports:`), nothing deeper.",
      severity: 'error',
      from: { path: `^src/(?!${NOT_FEATURE}/)([^/]+)/[a-z-]+\\.module\\.ts$` },
      to: { path: `^src/(?!${NOT_FEATURE}/)([^/]+)/`, pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$', '^src/[^/]+/[a-z-]+\\.module\\.ts$'] },
    },
    {
      name: 'infrastructure-through-public-file',
      comment: 'database/ and observability/ import a feature only through its public file (the entity registry excepted).',
      severity: 'error',
      from: { path: '^src/(database|observability)/', pathNot: '^src/database/entities\\.ts$' },
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
      name: 'catalogue-engine-one-writer',
      comment:
        "The TenantIndex class (its writable fields) is imported only by the engine's build and layout; every other file takes the ReadonlyTenantIndex view or the TenantIndexWriter interface (src/catalogue-search/README.md).",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/catalogue-search/(tenant-index|index-build|index-layout)\\.ts$' },
      to: { path: '^src/catalogue-search/tenant-index\\.ts$' },
    },
    {
      name: 'no-migrations-in-live-code',
      comment: 'Live code never imports a migration: shared SQL lives in its owning module; a migration keeps a frozen copy.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/database/migrations/', '^src/database/data-source\\.ts$'] },
      to: { path: '^src/database/migrations/' },
    },
    {
      name: 'examples-import-the-package-by-name',
      comment:
        "An example extension is a real consumer: it imports 'vinoshop-commerce' and 'vinoshop-commerce/testing' (tsconfig paths in development), never a relative path into src/ or test/.",
      severity: 'error',
      from: { path: '^examples/' },
      to: { path: '^(src|test)/', dependencyTypesNot: ['aliased'] },
    },
    {
      name: 'examples-only-public-surface',
      comment: 'An example extension imports the service only through its entries: src/index.ts (.) and test/helpers/testing.ts (./testing).',
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
