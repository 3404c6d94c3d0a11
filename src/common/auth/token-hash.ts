import { createHmac, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `<prefix>_` + 40 base62 characters (about 238 bits). */
export function generateToken(prefix: string, length = 40): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    if (bytes[i] < 248) out += BASE62[bytes[i] % 62]; // 248 = 4 * 62: no modulo bias
  }
  while (out.length < length) out += BASE62[randomBytes(1)[0] % 62];
  return `${prefix}_${out}`;
}

/** Keyed hash of a high-entropy token; lookups go by this value, never by plaintext. */
export function hashToken(secret: string, token: string): Buffer {
  return createHmac('sha256', secret).update('token:').update(token).digest();
}
