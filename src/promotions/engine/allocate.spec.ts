import { allocateLargestRemainder, percentOfMinor } from './allocate.js';

describe('allocateLargestRemainder', () => {
  it('adds up exactly and gives the remainder to the largest fractions, ties to the earlier index', () => {
    expect(allocateLargestRemainder(100, [100, 100, 100])).toEqual([34, 33, 33]);
    expect(allocateLargestRemainder(10, [300, 500, 200])).toEqual([3, 5, 2]);
    expect(allocateLargestRemainder(1, [1000, 1000])).toEqual([1, 0]);
    expect(allocateLargestRemainder(7, [1, 2, 4])).toEqual([1, 2, 4]);
  });

  it('never gives a part more than its weight, nothing on zero weights, never more than the total', () => {
    expect(allocateLargestRemainder(500, [100, 0, 50])).toEqual([100, 0, 50]);
    expect(allocateLargestRemainder(0, [5, 5])).toEqual([0, 0]);
    expect(allocateLargestRemainder(5, [0, 0])).toEqual([0, 0]);
  });
});

describe('percentOfMinor', () => {
  it('rounds half up once', () => {
    expect(percentOfMinor(1005, 10)).toBe(101); // 100.5
    expect(percentOfMinor(1004, 10)).toBe(100);
    expect(percentOfMinor(999, 12.5)).toBe(125); // 124.875
    expect(percentOfMinor(0, 50)).toBe(0);
  });
});
