import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// One group of short e2e files run as one Jest test file (test/helpers/e2e-groups.cjs says which and why).

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { groups, browserGroups } = createRequire(import.meta.url)('./e2e-groups.cjs') as {
  groups: (root: string) => string[][];
  browserGroups: (root: string) => string[][];
};

/** The spec files of group n (1-based), paths from the repository root; file-cpu.ts reports them with the group. */
export function groupFiles(n: number): string[] {
  return groups(ROOT)[n - 1] ?? [];
}

/** Imports the files one after another: each registers its describe blocks, which Jest runs in that order. */
async function importFiles(files: string[]): Promise<void> {
  (globalThis as { __E2E_GROUP_FILES__?: string[] }).__E2E_GROUP_FILES__ = files;
  for (const file of files) await import(join(ROOT, file));
}

/** Imports group n's spec files. */
export async function importGroup(n: number): Promise<void> {
  await importFiles(groupFiles(n));
}

/** Imports browser group n's spec files (the group file closes their shared Chromium after them). */
export async function importBrowserGroup(n: number): Promise<void> {
  await importFiles(browserGroups(ROOT)[n - 1] ?? []);
}

/**
 * What a test file ends with before file-cpu.ts reads its CPU, where a top-level afterAll of the file would come too
 * late (after file-cpu.ts's own): a browser group closes its shared Chromium so, and is counted with the Chromium it
 * reaps (test/e2e-groups/browser-<n>.e2e-group.ts).
 */
export function beforeFileCpu(end: () => Promise<void>): void {
  ((globalThis as { __E2E_FILE_END__?: Array<() => Promise<void>> }).__E2E_FILE_END__ ??= []).push(end);
}
