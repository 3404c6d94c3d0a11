import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from '../../config/app-config.js';
import { DEFAULT_SCRYPT_COST, hashPassword, verifyAgainstDummy, verifyPassword } from './password.js';

describe('password hashing (scrypt)', () => {
  it('hashes at OWASP cost 15 (N = 32768, r = 8, p = 3) by default, a salt of its own each time', async () => {
    expect(DEFAULT_SCRYPT_COST).toBe(15);
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).toMatch(/^scrypt\$32768\$8\$3\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horsE', a)).toBe(false);
  });

  it('a configured cost sets N of new hashes; every stored hash verifies by its own parameters', async () => {
    const cheap = await hashPassword('correct horse', 10);
    expect(cheap.startsWith('scrypt$1024$8$3$')).toBe(true);
    const dear = await hashPassword('correct horse', 15);
    // a shop lowering or raising the cost locks nobody out: each hash carries its N
    for (const stored of [cheap, dear]) {
      expect(await verifyPassword('correct horse', stored)).toBe(true);
      expect(await verifyPassword('wrong horse', stored)).toBe(false);
    }
    expect(await verifyAgainstDummy('anything', 10)).toBe(false);
  });

  it('PASSWORD_SCRYPT_COST is 15 by default, 10 to 20', () => {
    expect(loadConfig({}).PASSWORD_SCRYPT_COST).toBe(15);
    expect(loadConfig({ PASSWORD_SCRYPT_COST: '10' }).PASSWORD_SCRYPT_COST).toBe(10);
    expect(() => loadConfig({ PASSWORD_SCRYPT_COST: '9' })).toThrow(ConfigError);
    expect(() => loadConfig({ PASSWORD_SCRYPT_COST: '21' })).toThrow(/PASSWORD_SCRYPT_COST/);
  });
});
