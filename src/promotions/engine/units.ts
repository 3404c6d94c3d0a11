/**
 * Whole units of the matching lines for the unit-based actions, without expanding them one by one: runs of equal
 * units `(line, price, count)` in a fixed order, dearest first, ties to the earlier line of the canonical order.
 * Taking k units walks that order, so every grouping below is deterministic.
 */
import { allocateLargestRemainder } from './allocate.js';
import type { EngineLine } from './types.js';

export interface UnitRun {
  line: number;
  price: number;
  count: number;
}

/** A group of units: parts of runs, dearest first. */
export type UnitGroup = UnitRun[];

export function unitRuns(lines: readonly EngineLine[], indexes: readonly number[]): UnitRun[] {
  const runs: UnitRun[] = [];
  for (const i of indexes) {
    const count = Math.floor(lines[i].quantity);
    if (count > 0 && lines[i].unit > 0) runs.push({ line: i, price: lines[i].unit, count });
  }
  return runs.sort((a, b) => b.price - a.price || a.line - b.line);
}

/** Consecutive full groups of `size` units in run order (the leftover units, the cheapest, form no group). */
export function fullGroups(runs: readonly UnitRun[], size: number): UnitGroup[] {
  const total = runs.reduce((s, r) => s + r.count, 0);
  const groups: UnitGroup[] = [];
  let want = Math.floor(total / size) * size;
  let current: UnitGroup = [];
  let inCurrent = 0;
  for (const run of runs) {
    let left = run.count;
    while (left > 0 && want > 0) {
      const take = Math.min(left, size - inCurrent, want);
      // whole groups inside one run: add them in one step
      if (inCurrent === 0 && take === size && left >= 2 * size) {
        const n = Math.min(Math.floor(left / size), want / size);
        for (let g = 0; g < n; g++) groups.push([{ line: run.line, price: run.price, count: size }]);
        left -= n * size;
        want -= n * size;
        continue;
      }
      current.push({ line: run.line, price: run.price, count: take });
      inCurrent += take;
      left -= take;
      want -= take;
      if (inCurrent === size) {
        groups.push(current);
        current = [];
        inCurrent = 0;
      }
    }
  }
  return groups;
}

/** The first `k` units of a group (dearest) or the last `k` (cheapest). */
export function unitsOf(group: UnitGroup, k: number, from: 'dearest' | 'cheapest'): UnitRun[] {
  const parts = from === 'dearest' ? group : [...group].reverse();
  const out: UnitRun[] = [];
  for (const p of parts) {
    if (k <= 0) break;
    const take = Math.min(k, p.count);
    out.push({ ...p, count: take });
    k -= take;
  }
  return out;
}

export function groupValue(group: readonly UnitRun[]): number {
  return group.reduce((s, p) => s + p.price * p.count, 0);
}

/** Adds `discount` spread over a group's units pro rata to their prices (largest remainder) to `perLine`. */
export function spreadOverGroup(perLine: number[], group: readonly UnitRun[], discount: number): void {
  const parts = allocateLargestRemainder(
    discount,
    group.map((p) => p.price * p.count),
  );
  group.forEach((p, i) => (perLine[p.line] += parts[i]));
}
