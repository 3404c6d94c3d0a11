import { describe, expect, it } from '@jest/globals';
import { newVisitorId } from './visitor-id.js';

describe('newVisitorId', () => {
  it('is 128 random bits as 32 hex digits: distinct ids, every digit position varies (no fixed version nibble), across pool refills', () => {
    const ids = Array.from({ length: 1_000 }, () => newVisitorId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 0; i < 32; i++) expect(new Set(ids.map((id) => id[i])).size).toBeGreaterThan(8);
  });
});
