import { describe, expect, it } from '@jest/globals';
import { AppError } from '../common/http/app-error.js';
import { checkProductsWanted, enforceProductQuota } from './product-quota.js';

describe('TENANT_MAX_PRODUCTS', () => {
  it('allows up to the quota, refuses one more with 422 naming it (the count is the repository’s, faked here)', async () => {
    await expect(enforceProductQuota(() => Promise.resolve(5), 5, 'product')).resolves.toBeUndefined();
    const err = await enforceProductQuota(() => Promise.resolve(6), 5, 'product').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect([(err as AppError).status, (err as AppError).message]).toEqual([422, 'product: the shop would hold 6 products, more than TENANT_MAX_PRODUCTS (5)']);
  });

  it('refuses a request that alone brings more than the quota before anything is counted', () => {
    expect(() => checkProductsWanted(5, 5, 'products')).not.toThrow();
    expect(() => checkProductsWanted(6, 5, 'products')).toThrow('products: 6 products are more than TENANT_MAX_PRODUCTS (5)');
  });
});
