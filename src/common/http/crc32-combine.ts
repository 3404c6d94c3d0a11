/**
 * CRC-32 of two byte strings laid end to end from their own CRCs (zlib's `crc32_combine`, which `node:zlib` does not
 * expose): `crc32Combine(crc32(a), crc32(b), b.length) === crc32(Buffer.concat([a, b]))`. About 2 µs, against
 * 0.5 ms for `crc32` over a 1 MB kept fragment: a gzip answer splices kept pieces and their kept CRCs.
 * The polynomial arithmetic is zlib's (crc32.c, `multmodp` and `x2nmodp`), bit-reflected as CRC-32 is.
 */
const POLY = 0xedb88320;

/** a × b modulo the CRC polynomial (both reflected; `a` not zero). */
function multmodp(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if ((a & m) !== 0) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** x^(2^k) modulo the polynomial, k = 0..31. */
const X2N = new Uint32Array(32);
{
  let p = 0x40000000; // x^1
  X2N[0] = p;
  for (let n = 1; n < 32; n++) X2N[n] = p = multmodp(p, p);
}

/** x^(n × 2^k) modulo the polynomial. */
function x2nmodp(n: number, k: number): number {
  let p = 0x80000000; // x^0 = 1
  while (n > 0) {
    if (n % 2 === 1) p = multmodp(X2N[k & 31], p);
    n = Math.floor(n / 2);
    k += 1;
  }
  return p;
}

/** The CRC-32 of A followed by B, from A's CRC, B's CRC and B's length in bytes. */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multmodp(x2nmodp(lengthB, 3), crcA) ^ crcB) >>> 0;
}
