import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * `npm test` runs the short e2e files and the browser files in groups (test/helpers/e2e-groups.cjs) and ignores them
 * as files of their own (jest.config.cjs): a file in no group file's reach would silently not run. Every e2e file runs
 * exactly once: alone (the long files) or in one group, and every group has its file in test/e2e-groups/.
 */
const ROOT = process.cwd();
const { GROUPS, BROWSER_GROUPS, groups, groupable, browserGroups } = createRequire(join(ROOT, 'package.json'))('./test/helpers/e2e-groups.cjs') as {
  GROUPS: number;
  BROWSER_GROUPS: number;
  groups: (root: string) => string[][];
  groupable: (file: string) => boolean;
  browserGroups: (root: string) => string[][];
};

function specs(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .map((f) => `${dir}/${f.split('\\').join('/')}`)
    .filter((f) => f.endsWith('.e2e-spec.ts') && !f.includes('node_modules/'));
}

describe('e2e groups', () => {
  const all = [...specs('test'), ...specs('examples')].sort();
  const grouped = groups(ROOT);

  it('puts every short e2e file in exactly one group, and no long or browser file in any', () => {
    const flat = grouped.flat();
    expect(new Set(flat).size).toBe(flat.length);
    expect([...flat].sort()).toEqual(all.filter(groupable));
    expect(flat).not.toContain('test/e2e/process.ops.e2e-spec.ts');
    expect(flat.some((f) => f.includes('.browser.'))).toBe(false);
    expect(all.filter(groupable).length).toBeGreaterThan(GROUPS);
  });

  it('puts every browser file in exactly one browser group, and no other file', () => {
    const flat = browserGroups(ROOT).flat();
    expect(new Set(flat).size).toBe(flat.length);
    expect([...flat].sort()).toEqual(all.filter((f) => f.includes('.browser.')));
    expect(flat.filter((f) => grouped.flat().includes(f))).toEqual([]);
  });

  it('has one group file per group, each importing its own group; a browser group closes its shared Chromium after its files', () => {
    const files = readdirSync(join(ROOT, 'test/e2e-groups')).sort();
    expect(files).toEqual(
      [
        ...Array.from({ length: GROUPS }, (_, i) => `group-${i + 1}.e2e-group.ts`),
        ...Array.from({ length: BROWSER_GROUPS }, (_, i) => `browser-${i + 1}.e2e-group.ts`),
      ].sort(),
    );
    for (let n = 1; n <= GROUPS; n++) {
      expect(readFileSync(join(ROOT, 'test/e2e-groups', `group-${n}.e2e-group.ts`), 'utf8')).toMatch(new RegExp(`^await importGroup\\(${n}\\);$`, 'm'));
      expect(grouped[n - 1]!.length).toBeGreaterThan(0);
    }
    for (let n = 1; n <= BROWSER_GROUPS; n++) {
      const source = readFileSync(join(ROOT, 'test/e2e-groups', `browser-${n}.e2e-group.ts`), 'utf8');
      expect(source).toMatch(new RegExp(`^beforeFileCpu\\(closeChromium\\);\nawait importBrowserGroup\\(${n}\\);$`, 'm'));
      expect(browserGroups(ROOT)[n - 1]!.length).toBeGreaterThan(0);
    }
  });

  it('balances the groups by size: none holds more than twice the bytes of another', () => {
    const size = (g: string[]) => g.reduce((n, f) => n + readFileSync(join(ROOT, f)).length, 0);
    const sizes = grouped.map(size);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2 * Math.min(...sizes));
  });
});
