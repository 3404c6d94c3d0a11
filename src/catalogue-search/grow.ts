/** Typed-array growth for the append-only columns and pools of `TenantIndex` (doubling, at least 16). */

export function growI32(a: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  if (n <= a.length) return a;
  const b = new Int32Array(Math.max(n, a.length * 2, 16));
  b.set(a);
  return b;
}
export function growF64(a: Float64Array<ArrayBuffer>, n: number): Float64Array<ArrayBuffer> {
  if (n <= a.length) return a;
  const b = new Float64Array(Math.max(n, a.length * 2, 16));
  b.set(a);
  return b;
}
export function growU8(a: Uint8Array<ArrayBuffer>, n: number): Uint8Array<ArrayBuffer> {
  if (n <= a.length) return a;
  const b = new Uint8Array(Math.max(n, a.length * 2, 16));
  b.set(a);
  return b;
}
