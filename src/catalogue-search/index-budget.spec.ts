import { describe, expect, it, jest } from '@jest/globals';
import { AppError } from '../common/http/app-error.js';
import { estimateIndexBytes, OverBudgetTenants } from './index-budget.js';

describe('index budget', () => {
  it('estimates an index from its row counts, growing with products, variants and text', () => {
    const base = estimateIndexBytes({ products: 1000, variants: 2000, textChars: 50_000 });
    expect(base).toBeGreaterThan(1000 * 96 + 2000 * 96 + 50_000);
    expect(estimateIndexBytes({ products: 2000, variants: 2000, textChars: 50_000 })).toBeGreaterThan(base);
    expect(estimateIndexBytes({ products: 1000, variants: 3000, textChars: 50_000 })).toBeGreaterThan(base);
    expect(estimateIndexBytes({ products: 1000, variants: 2000, textChars: 60_000 })).toBe(base + 10_000);
    expect(estimateIndexBytes({ products: 0, variants: 0, textChars: 0 })).toBe(0);
  });

  it('refuses a tenant found too large with 503 and Retry-After until the recount delay, counting each refusal', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    try {
      const over = new OverBudgetTenants(30_000);
      const budget = 1024 * 1024;
      over.check('a', budget); // unknown tenants pass
      const first = over.mark('a', 3 * 1024 * 1024, budget);
      expect([first.status, first.code, first.headers['Retry-After']]).toEqual([503, 'catalogue_over_memory_budget', '30']);
      expect(first.message).toBe("this shop's catalogue (about 3 MB indexed) does not fit CATALOGUE_INDEX_MEMORY_MB (1 MB)");
      expect(() => over.check('a', budget)).toThrow(AppError);
      over.check('b', budget);
      expect(over.refusals).toBe(2);
      jest.setSystemTime(1_000_000 + 30_000);
      over.check('a', budget); // counted again on this read
      over.check('a', budget);
      expect(over.refusals).toBe(2);
      over.mark('a', 2 * budget, budget);
      over.forget('a');
      over.check('a', budget);
    } finally {
      jest.useRealTimers();
    }
  });
});
