import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * The ESLint rule "one repository per module" (eslint.config.mjs, issue 36): `.query(` and `createQueryBuilder`
 * outside `*.repository.ts`, `repositories/`, `src/common/db/` and migrations fail lint (the allow-list of files not
 * yet moved is empty since the last one, `product-json.service.ts`, moved). Each case lints a statement placed in an existing file of the tree (where the config's file patterns apply), in one
 * child process with ESLint's API, the config's other rules filtered out.
 */
const SQL = "\nexport async function sneaky(m: import('typeorm').EntityManager): Promise<unknown> {\n  return m.query('SELECT 1');\n}\n";
const BUILDER =
  "\nexport function sneaky(m: import('typeorm').EntityManager): unknown {\n  return m.getRepository('themes').createQueryBuilder('t').getMany();\n}\n";

const CASES: Record<string, string> = {
  'src/themes/theme-assets.service.ts': SQL,
  'src/themes/storage/postgres-asset-store.ts': BUILDER,
  'src/common/cluster/exclusive-job.ts': SQL,
  'src/database/read-replicas.ts': SQL,
  'src/checkout/checkout-mappers.ts': SQL,
  'src/themes/theme-assets.repository.ts': SQL,
  'src/common/db/returning.ts': SQL,
  'src/catalogue/product-json.service.ts': SQL,
  'src/catalogue/repositories/product-json.repository.ts': SQL,
  'src/cart/cart.service.ts': SQL,
  'src/checkout/repositories/orders.repository.ts': BUILDER,
};

function restrictedSyntaxByFile(): Record<string, number> {
  const script = `
    import { ESLint } from 'eslint';
    import { readFileSync } from 'node:fs';
    const cases = JSON.parse(process.argv[1]);
    // the project's own config, only the rule under test, without type information (the program of the whole
    // project is what made this spec take a minute; no-restricted-syntax needs only the syntax tree)
    const eslint = new ESLint({
      cwd: process.cwd(),
      ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-syntax',
      overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parserOptions: { projectService: false, project: null } } }],
    });
    const out = {};
    for (const [file, extra] of Object.entries(cases)) {
      const [result] = await eslint.lintText(readFileSync(file, 'utf8') + extra, { filePath: file });
      out[file] = result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').length;
    }
    process.stdout.write(JSON.stringify(out));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(CASES)], { cwd: resolve('.'), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as Record<string, number>;
}

describe('ESLint: SQL only in repositories', () => {
  it('reports a statement in a service, an asset store, the cluster or database infrastructure and the files that left the allow-list; not in repositories or the data-access kit', () => {
    expect(restrictedSyntaxByFile()).toEqual({
      'src/themes/theme-assets.service.ts': 1,
      'src/themes/storage/postgres-asset-store.ts': 1,
      'src/common/cluster/exclusive-job.ts': 1,
      'src/database/read-replicas.ts': 1,
      'src/checkout/checkout-mappers.ts': 1,
      'src/themes/theme-assets.repository.ts': 0,
      'src/common/db/returning.ts': 0,
      // off the allow-list (now empty) since its SQL moved into repositories/product-json.repository.ts
      'src/catalogue/product-json.service.ts': 1,
      'src/catalogue/repositories/product-json.repository.ts': 0,
      // off the allow-list since its SQL moved into CartRepository
      'src/cart/cart.service.ts': 1,
      'src/checkout/repositories/orders.repository.ts': 0,
    });
  }, 120_000);
});
