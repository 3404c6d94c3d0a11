import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { crc32Combine } from './crc32-combine.js';

describe('crc32Combine', () => {
  it("equals zlib's CRC-32 of the concatenation, for any split and lengths up to megabytes", () => {
    const data = randomBytes(1_300_000);
    for (const [start, cut, end] of [
      [0, 0, 10],
      [0, 10, 10],
      [0, 1, 2],
      [5, 700, 1_000],
      [0, 65_536, 1_300_000],
      [17, 1_048_576, 1_299_999],
    ]) {
      const a = data.subarray(start, cut);
      const b = data.subarray(cut, end);
      expect(crc32Combine(crc32(a), crc32(b), b.length)).toBe(crc32(data.subarray(start, end)));
    }
  });

  it('chains: a running CRC extended piece by piece', () => {
    const pieces = Array.from({ length: 20 }, (_, i) => randomBytes(1 + i * 997));
    let crc = 0;
    for (const p of pieces) crc = crc32Combine(crc, crc32(p), p.length);
    expect(crc).toBe(crc32(Buffer.concat(pieces)));
  });
});
