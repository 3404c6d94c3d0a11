import { createHash, timingSafeEqual } from 'node:crypto';

/** `Authorization: Bearer <token>` equal to `expected`, compared in constant time. */
export function bearerMatches(header: string | undefined, expected: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!m || !expected) return false;
  const a = createHash('sha256').update(m[1]).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
