import { describe, expect, it } from '@jest/globals';
import { BENCHMARK_INDEX, throttlingRate } from '../helpers/cpu-throttling.js';

describe('the browser budgets’ CPU throttling rate', () => {
  it('is 4 on a host fast enough, the host’s index over 600 below that, never under 1', () => {
    expect(throttlingRate(5000)).toBe(4);
    expect(throttlingRate(2400)).toBe(4);
    expect(throttlingRate(1240)).toBe(2.06);
    expect(throttlingRate(900)).toBe(1.5);
    expect(throttlingRate(600)).toBe(1);
    expect(throttlingRate(300)).toBe(1);
    // an unusable measure keeps the budgets' own rate
    expect(throttlingRate(Number.NaN)).toBe(4);
    expect(throttlingRate(0)).toBe(4);
  });

  it('the emulated device is never slower than BenchmarkIndex 600 unless the host itself is', () => {
    for (const host of [700, 1000, 1800, 2400, 3000]) expect(host / throttlingRate(host)).toBeGreaterThanOrEqual(600);
  });

  it('measures a positive index in a JavaScript engine', () => {
    const index = (0, eval)(BENCHMARK_INDEX) as number;
    expect(index).toBeGreaterThan(0);
  });
});
