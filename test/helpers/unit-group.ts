import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// One group of unit specs run as one Jest test file (test/helpers/unit-groups.cjs says which and why).

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { groups } = createRequire(import.meta.url)('./unit-groups.cjs') as { groups: (root: string) => string[][] };

/** Imports group n's (1-based) spec files one after another: each registers its describe blocks, run in that order. */
export async function importUnitGroup(n: number): Promise<void> {
  for (const file of groups(ROOT)[n - 1] ?? []) await import(join(ROOT, file));
}
