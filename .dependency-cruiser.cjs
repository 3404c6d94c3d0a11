/**
 * Dependency rules, checked by `npm run lint:deps` (dependency-cruiser).
 * Issue 15 part A: extensions (examples/) use only the public surface: `src/index.ts` and the test helpers' entry
 * `test/helpers/testing.ts` (package.json "exports": "." and "./testing"). The rules for src/ come from part B.
 */
module.exports = {
  forbidden: [
    {
      name: 'examples-only-public-surface',
      severity: 'error',
      comment: 'An example extension imports the service only through src/index.ts (and test/helpers/testing.ts in tests), never a deep path.',
      from: { path: '^examples/' },
      to: { path: '^(src|test)/', pathNot: '^(src/index\\.ts|test/helpers/testing\\.ts)$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^examples/(storefront|openapi-client)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
    moduleSystems: ['es6', 'cjs'],
  },
};
