import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * `npm test` runs the unit specs in groups (test/helpers/unit-groups.cjs) and ignores them as files of their own
 * (jest.config.cjs): a spec in no group file's reach would silently not run. Every spec runs exactly once: alone (a
 * hook or a test outside any describe) or in one group, and every group has its file in test/unit-groups/.
 */
const ROOT = process.cwd();
const { GROUPS, groups, groupable, specs } = createRequire(join(ROOT, 'package.json'))('./test/helpers/unit-groups.cjs') as {
  GROUPS: number;
  groups: (root: string) => string[][];
  groupable: (source: string) => boolean;
  specs: (root: string) => string[];
};

describe('unit groups', () => {
  const all = specs(ROOT);
  const grouped = groups(ROOT);
  const source = (f: string) => readFileSync(join(ROOT, f), 'utf8');

  it('finds every unit spec Jest finds (src, examples, test/unit), none under node_modules', () => {
    expect(all).toContain('src/customers/auth/password.spec.ts');
    expect(all).toContain('examples/storefront/src/money.spec.ts');
    expect(all).toContain('test/unit/unit-groups.spec.ts');
    expect(all.some((f) => f.includes('node_modules/'))).toBe(false);
    expect(all.every((f) => f.endsWith('.spec.ts'))).toBe(true);
  });

  it('puts every spec without a top-level hook or test in exactly one group, and none with one', () => {
    const flat = grouped.flat();
    expect(new Set(flat).size).toBe(flat.length);
    expect([...flat].sort()).toEqual(all.filter((f) => groupable(source(f))));
    // a top-level afterEach (restoring every mock) would run after the other files' tests as well
    expect(flat).not.toContain('src/events/event-handler.worker.spec.ts');
    expect(groupable("describe('x', () => {\n  afterEach(() => undefined);\n});\n")).toBe(true);
    expect(groupable("afterEach(() => undefined);\ndescribe('x', () => {});\n")).toBe(false);
    expect(groupable("it('x', () => {});\n")).toBe(false);
    expect(groupable("describe.each([1])('x %s', () => {});\nafterAll(() => undefined);\n")).toBe(false);
    expect(flat.length).toBeGreaterThan(all.length / 2);
  });

  it('has one group file per group, each importing its own group', () => {
    const files = readdirSync(join(ROOT, 'test/unit-groups')).sort();
    expect(files).toEqual(Array.from({ length: GROUPS }, (_, i) => `group-${i + 1}.unit-group.ts`).sort());
    for (let n = 1; n <= GROUPS; n++) {
      expect(source(`test/unit-groups/group-${n}.unit-group.ts`)).toMatch(new RegExp(`^await importUnitGroup\\(${n}\\);$`, 'm'));
      expect(grouped[n - 1]!.length).toBeGreaterThan(0);
    }
  });
});
