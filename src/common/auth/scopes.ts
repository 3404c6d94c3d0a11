/** Admin resources of CONTRACT 3; extension modules may add their own with `registerAdminResource`. */
const adminResources = new Set(['collections', 'themes', 'customers', 'content', 'discount_codes', 'checkouts', 'access_tokens', 'inventory', 'catalogue']);

export const STOREFRONT_SCOPES = ['storefront/catalogue', 'storefront/cart', 'storefront/wishlist', 'storefront/checkout', 'storefront/customers'] as const;
export type StorefrontScope = (typeof STOREFRONT_SCOPES)[number];

export function registerAdminResource(resource: string): void {
  adminResources.add(resource);
}

export function adminScopes(): string[] {
  return [...adminResources].flatMap((r) => [`Shop/${r}/read`, `Shop/${r}/write`]);
}

export function isAdminScope(scope: string): boolean {
  const m = /^Shop\/([a-z_]+)\/(read|write)$/.exec(scope);
  return !!m && adminResources.has(m[1]);
}

export function isStorefrontScope(scope: string): boolean {
  return (STOREFRONT_SCOPES as readonly string[]).includes(scope);
}
