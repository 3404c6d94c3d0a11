import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/**
 * The module rules of `.dependency-cruiser.cjs` (README "Module map and table owners") on a small fixture tree:
 * each rule reports the import it forbids and lets the allowed ones through.
 */
const root = resolve('.');
let dir: string;

function tree(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

function violations(): string[] {
  const r = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
      'src',
      '--config',
      join(root, '.dependency-cruiser.cjs'),
      '--output-type',
      'json',
    ],
    {
      cwd: dir,
      encoding: 'utf8',
    },
  );
  const out = JSON.parse(r.stdout) as { summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> } };
  return out.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'module-rules-'));
  cpSync(join(root, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  tree({
    'src/config/app-config.ts': 'export const config = 1;\n',
    'src/auth/auth.service.ts': 'export const auth = 1;\n',
    'src/auth/index.ts': "export { auth } from './auth.service.js';\n",
    'src/auth/auth.module.ts': "import { auth } from './auth.service.js';\nexport const AuthModule = auth;\n",
    'src/auth/entities/staff.entity.ts': 'export const Staff = 1;\n',
    'src/database/migrations/1-init.ts': 'export const SQL = 1;\n',
    'src/database/migrations/index.ts': "export { SQL } from './1-init.js';\n",
    'src/database/data-source.ts':
      "import { SQL } from './migrations/index.js';\nimport { Staff } from '../auth/entities/staff.entity.js';\nexport const ds = [SQL, Staff];\n",
    'src/database/entities.ts':
      "import { Staff } from '../auth/entities/staff.entity.js';\nimport { auth } from '../auth/auth.service.js';\nexport const entities = [Staff, auth];\n",
    'src/common/ok.ts':
      "import { config } from '../config/app-config.js';\nimport { entities } from '../database/entities.js';\nexport const ok = [config, entities];\n",
    'src/common/bad.ts': "import { auth } from '../auth/index.js';\nexport const bad = auth;\n",
    'src/cart/cart-owner.ts': 'export const owner = 1;\n',
    'src/cart/cart.service.ts': [
      "import { owner } from './cart-owner.js';",
      "import { auth } from '../auth/index.js';",
      "import { AuthModule } from '../auth/auth.module.js';",
      "import { auth as deep } from '../auth/auth.service.js';",
      "import { SQL } from '../database/migrations/1-init.js';",
      'export const cart = [owner, auth, AuthModule, deep, SQL];',
      '',
    ].join('\n'),
  });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('module rules (dependency-cruiser)', () => {
  it('report exactly the forbidden imports of the fixture', () => {
    expect(violations()).toEqual([
      'entity-registry-lists-entities-only: src/database/entities.ts -> src/auth/auth.service.ts',
      // issue 36: only a Nest module class may import another module's <module>.module.ts
      'feature-through-public-file: src/cart/cart.service.ts -> src/auth/auth.module.ts',
      'feature-through-public-file: src/cart/cart.service.ts -> src/auth/auth.service.ts',
      // issue 36: common/ imports nothing above it, database/ included
      'ground-imports-nothing-above: src/common/bad.ts -> src/auth/index.ts',
      'ground-imports-nothing-above: src/common/ok.ts -> src/database/entities.ts',
      'infrastructure-through-public-file: src/database/data-source.ts -> src/auth/entities/staff.entity.ts',
      'no-migrations-in-live-code: src/cart/cart.service.ts -> src/database/migrations/1-init.ts',
    ]);
  });
});
