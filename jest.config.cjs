/**
 * e2e tests through HTTP against a real PostgreSQL (DATABASE_URL, else an embedded one), and the co-located unit
 * specs of pure functions (`*.spec.ts` beside their source in src/); native ESM like the app.
 */
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testRegex: ['(test|examples)/.*\\.e2e-spec\\.ts$', '(src|test/unit)/.*\\.spec\\.ts$'],
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      {
        useESM: true,
        tsconfig: 'tsconfig.json',
        astTransformers: {
          before: [{ path: '<rootDir>/test/helpers/swagger-plugin.cjs' }],
        },
      },
    ],
  },
  setupFilesAfterEnv: ['<rootDir>/test/helpers/openapi-after-each.ts'],
  globalSetup: '<rootDir>/test/helpers/global-setup.mjs',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.mjs',
  maxWorkers: 2,
  testTimeout: 60000,
};
