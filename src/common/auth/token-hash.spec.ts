import { createHmac } from 'node:crypto';
import { generateToken, hashToken } from './token-hash.js';

describe('generateToken', () => {
  it('is `<prefix>_` + 40 base62 characters by default', () => {
    expect(generateToken('shpat')).toMatch(/^shpat_[0-9A-Za-z]{40}$/);
    expect(generateToken('x', 12)).toMatch(/^x_[0-9A-Za-z]{12}$/);
  });

  it('never repeats and uses the whole alphabet', () => {
    const tokens = Array.from({ length: 500 }, () => generateToken('t'));
    expect(new Set(tokens).size).toBe(tokens.length);
    const chars = new Set(tokens.join('').replace(/t_/g, ''));
    expect(chars.size).toBe(62);
  });
});

describe('hashToken', () => {
  it('is a keyed SHA-256 HMAC of "token:" + token', () => {
    const h = hashToken('secret', 'shpat_abc');
    expect(h).toHaveLength(32);
    expect(h.equals(createHmac('sha256', 'secret').update('token:shpat_abc').digest())).toBe(true);
  });

  it('depends on both the secret and the token', () => {
    const h = hashToken('secret', 'shpat_abc');
    expect(hashToken('secret', 'shpat_abc').equals(h)).toBe(true);
    expect(hashToken('other', 'shpat_abc').equals(h)).toBe(false);
    expect(hashToken('secret', 'shpat_abd').equals(h)).toBe(false);
  });
});
