import { convertMinor, fromMinor, minorToDecimalString, percentOf, toMinor } from './money.js';

describe('money (minor units)', () => {
  it('toMinor parses decimals exactly and rounds half away from zero once', () => {
    expect(toMinor('12.34')).toBe(1234);
    expect(toMinor('12.345')).toBe(1235);
    expect(toMinor('12.344')).toBe(1234);
    expect(toMinor('-12.345')).toBe(-1235);
    expect(toMinor('.5', 0)).toBe(1);
    expect(toMinor(' 7 ', 2)).toBe(700);
    expect(toMinor(0.1 + 0.2)).toBe(30); // no float error
    expect(toMinor('1.2345', 4)).toBe(12345);
    expect(toMinor('3', 3)).toBe(3000);
  });

  it('toMinor refuses what is not a decimal', () => {
    expect(() => toMinor('12,34')).toThrow('not a decimal');
    expect(() => toMinor('abc')).toThrow('not a decimal');
  });

  it('fromMinor and minorToDecimalString format at the edge', () => {
    expect(fromMinor(1234)).toBe(12.34);
    expect(fromMinor(-5, 2)).toBe(-0.05);
    expect(fromMinor(1234, 0)).toBe(1234);
    expect(minorToDecimalString(5)).toBe('0.05');
    expect(minorToDecimalString(-1234)).toBe('-12.34');
    expect(minorToDecimalString(1234, 0)).toBe('1234');
    expect(minorToDecimalString(1, 3)).toBe('0.001');
  });

  it('convertMinor applies a decimal rate and rounds half up once, across precisions', () => {
    expect(convertMinor(1000, '1.5')).toBe(1500);
    expect(convertMinor(333, '0.5')).toBe(167); // 166.5 rounds up
    expect(convertMinor(-333, '0.5')).toBe(-167); // half away from zero
    expect(convertMinor(1234, '1', 2, 0)).toBe(12); // 12.34 -> 12
    expect(convertMinor(1250, '1', 2, 0)).toBe(13); // 12.50 -> 13
    expect(convertMinor(12, '1', 0, 2)).toBe(1200);
    expect(convertMinor(123456, '1.1', 4, 2)).toBe(1358); // 12.3456 * 1.1 = 13.58016
  });

  it('percentOf takes a share rounded once', () => {
    expect(percentOf(1000, 10)).toBe(100);
    expect(percentOf(999, '12.5')).toBe(125); // 124.875
    expect(percentOf(1000, 0)).toBe(0);
    expect(percentOf(1001, 50)).toBe(501); // 500.5 rounds up
  });
});
