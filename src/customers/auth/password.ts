import { randomBytes, scrypt, ScryptOptions, timingSafeEqual } from 'node:crypto';

/**
 * Password hashing with scrypt (memory-hard). Parameters follow OWASP's scrypt row N=2^15, r=8, p=3
 * (32 MiB per hash, 100–400 ms of CPU); each password has its own 16-byte random salt. The stored form carries
 * its parameters, `scrypt$N$r$p$<salt b64>$<key b64>`, so they can be raised later without breaking old hashes.
 * The cost of new hashes is `PASSWORD_SCRYPT_COST` (log2 N, 15 by default; the test harness uses 10).
 */
export const DEFAULT_SCRYPT_COST = 15;
const R = 8;
const P = 3;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

export const PASSWORD_MIN_LENGTH = 8;
/** Bounds the work one request can ask for. */
export const PASSWORD_MAX_LENGTH = 1024;

function derive(password: string, salt: Buffer, n: number, r: number, p: number, keyLength: number): Promise<Buffer> {
  const options: ScryptOptions = { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key))));
}

/** A new hash of `password` at scrypt cost `cost` (N = 2^cost). */
export async function hashPassword(password: string, cost = DEFAULT_SCRYPT_COST): Promise<string> {
  const n = 2 ** cost;
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, n, R, P, KEY_LENGTH);
  return `scrypt$${n}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Constant-time comparison of the derived key; a malformed stored value never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  if (![n, r, p].every((x) => Number.isInteger(x) && x > 0)) return false;
  const salt = Buffer.from(parts[4], 'base64');
  const expected = Buffer.from(parts[5], 'base64');
  if (expected.length === 0) return false;
  const key = await derive(password, salt, n, r, p, expected.length);
  return timingSafeEqual(key, expected);
}

const dummies = new Map<number, Promise<string>>();

/**
 * Spends the same work as a real check for an unknown email or an account without a password, so the answer
 * (always false) comes in about the same time as a wrong password's.
 */
export async function verifyAgainstDummy(password: string, cost = DEFAULT_SCRYPT_COST): Promise<false> {
  let dummy = dummies.get(cost);
  if (!dummy) dummies.set(cost, (dummy = hashPassword(randomBytes(16).toString('hex'), cost)));
  await verifyPassword(password, await dummy);
  return false;
}
