// Jest's TypeScript transform (jest.config.cjs), transpile-only: the type checking is `npm run typecheck`'s.
//
// - Most files: SWC (@swc/core), TypeScript's decorators and their `design:*` metadata as `tsc` emits them for the app
//   (legacy decorators, ES2022 class fields). About 1 CPU s for the 650 files of src/ and test/helpers/, where
//   ts-jest's `transpileModule` took about 20: each Jest worker transforms what it loads on a cold cache (a fresh
//   machine), so that was about 20 CPU s per worker and per project (README "Development and tests").
// - With `swaggerPlugin` (the e2e project): the files the @nestjs/swagger CLI plugin rewrites (`*.dto.ts`,
//   `*.controller.ts`, the options of nest-cli.json) go through ts-jest with the plugin as an AST transformer
//   (test/helpers/swagger-plugin.cjs), exactly as before, so the OpenAPI metadata the tests see does not change.
//   About an eighth of the bytes.
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');

/** The files the swagger plugin visits: its `isFilenameMatched` (a substring of the path) with our suffixes. */
const PLUGIN_FILES = ['.dto.ts', '.controller.ts'];

const SWC_OPTIONS = {
  sourceMaps: 'inline',
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    target: 'es2022',
    keepClassNames: true,
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
  },
  module: { type: 'es6' },
};

const SELF = createHash('sha1').update(readFileSync(__filename)).digest('hex');

function createTransformer({ swaggerPlugin = false, tsJest: tsJestOptions = {} } = {}) {
  const swc = require('@swc/core');
  const swcKey = createHash('sha1').update(SELF).update(swc.version).update(JSON.stringify(SWC_OPTIONS)).digest('hex');
  let tsJest;
  const viaTsJest = (path) => swaggerPlugin && PLUGIN_FILES.some((suffix) => path.includes(suffix));
  // ts-jest reads its options from transformOptions.transformerConfig (Jest passes ours)
  const forTsJest = (options) => ({ ...options, transformerConfig: tsJestOptions });
  const tsJestTransformer = () => (tsJest ??= require('ts-jest').default.createTransformer(tsJestOptions));
  const swcTransform = (src, path, options) =>
    swc.transformSync(src, { ...SWC_OPTIONS, filename: path, module: { type: options.supportsStaticESM ? 'es6' : 'commonjs' } });
  return {
    process(src, path, options) {
      return viaTsJest(path) ? tsJestTransformer().process(src, path, forTsJest(options)) : swcTransform(src, path, options);
    },
    async processAsync(src, path, options) {
      return viaTsJest(path) ? tsJestTransformer().processAsync(src, path, forTsJest(options)) : swcTransform(src, path, options);
    },
    getCacheKey(src, path, options) {
      if (viaTsJest(path)) return `ts-jest:${tsJestTransformer().getCacheKey(src, path, forTsJest(options))}`;
      return createHash('sha1')
        .update(swcKey)
        .update('\0')
        .update(path)
        .update('\0')
        .update(options.supportsStaticESM ? 'esm' : 'cjs')
        .update('\0')
        .update(src)
        .digest('hex');
    },
  };
}

module.exports = { createTransformer };
