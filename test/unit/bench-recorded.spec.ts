import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error plain ESM of the bench, no declarations
import { compareWithRecorded, readRecorded, recordFigures } from '../../bench/recorded.mjs';

interface Row {
  case: string;
  figure: string;
  value: number;
}
type Compare = (results: Record<string, Record<string, number>>, rows: Row[]) => { lines: string[]; drops: number };

/** Issue 34: the bench prints each figure next to the last recorded one and flags a drop over 15 %. */
describe('bench: recorded figures', () => {
  const readme = () => {
    const path = join(mkdtempSync(join(tmpdir(), 'bench-readme-')), 'README.md');
    writeFileSync(path, '# Bench\n\ntext\n');
    return path;
  };

  it('appends a run as rows and compares the next run with the last row of each figure', () => {
    const path = readme();
    expect(recordFigures(path, { checkout: { orders_per_s: 100, flow_p99_ms: 200, complete_p99_ms: 80 } }, 'first', tmpdir())).toBe(3);
    recordFigures(path, { checkout: { orders_per_s: 120, flow_p99_ms: 200, complete_p99_ms: 80 } }, 'second', tmpdir());
    expect(readFileSync(path, 'utf8')).toContain('## Recorded figures');
    const rows = readRecorded(path) as Row[];
    expect(rows.map((r) => r.value)).toEqual([100, 200, 80, 120, 200, 80]);
    const { lines, drops } = (compareWithRecorded as Compare)({ checkout: { orders_per_s: 101, flow_p99_ms: 231, complete_p99_ms: 92 } }, rows);
    // 101 vs the last 120: -16 % (a drop); 231 ms vs 200: +15.5 % (a drop, lower is better); 92 vs 80: +15 % (not over)
    expect(drops).toBe(2);
    expect(lines[0]).toMatch(/orders_per_s .* 101 .*last 120 .*DROP of 16 %/);
    expect(lines[1]).toMatch(/flow_p99_ms .*DROP of 16 %/);
    expect(lines[2]).not.toMatch(/DROP/);
  });

  it('says when nothing is recorded yet', () => {
    const { lines, drops } = (compareWithRecorded as Compare)({ a: { rps: 500, p99_ms: 30 } }, []);
    expect(drops).toBe(0);
    expect(lines.every((l) => l.includes('nothing recorded yet'))).toBe(true);
  });
});
