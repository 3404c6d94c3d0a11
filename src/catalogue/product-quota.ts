import { AppError } from '../common/http/app-error.js';

/**
 * `TENANT_MAX_PRODUCTS`: how many products one shop may hold (archived ones included). The writers check it inside
 * their transaction after writing (`count` sees their own rows), so a refused write is rolled back whole: 422
 * naming the limit, nothing written.
 */
export async function enforceProductQuota(count: () => Promise<number>, max: number, path: string): Promise<void> {
  const n = await count();
  if (n > max) throw AppError.unprocessable(`${path}: the shop would hold ${n} products, more than TENANT_MAX_PRODUCTS (${max})`);
}

/** A request that alone brings more products than the quota is refused before anything is written. */
export function checkProductsWanted(wanted: number, max: number, path: string): void {
  if (wanted > max) throw AppError.unprocessable(`${path}: ${wanted} products are more than TENANT_MAX_PRODUCTS (${max})`);
}
