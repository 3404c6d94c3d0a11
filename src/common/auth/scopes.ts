/**
 * Admin resources of CONTRACT 3 built into the service; modules add their own as `AdminResource` extension
 * providers (src/extensions/extension-points.ts), gathered by `AuthService.adminResources()`.
 */
export const BUILT_IN_ADMIN_RESOURCES: readonly string[] = [
  'collections',
  'themes',
  'customers',
  'content',
  'discount_codes',
  'checkouts',
  'access_tokens',
  'inventory',
  'catalogue',
  'settings',
];

export const STOREFRONT_SCOPES = ['storefront/catalogue', 'storefront/cart', 'storefront/wishlist', 'storefront/checkout', 'storefront/customers'] as const;
export type StorefrontScope = (typeof STOREFRONT_SCOPES)[number];

export function adminScopes(resources: ReadonlySet<string>): string[] {
  return [...resources].flatMap((r) => [`Shop/${r}/read`, `Shop/${r}/write`]);
}

export function isAdminScope(scope: string, resources: ReadonlySet<string>): boolean {
  const m = /^Shop\/([a-z_]+)\/(read|write)$/.exec(scope);
  return !!m && resources.has(m[1]);
}

export function isStorefrontScope(scope: string): boolean {
  return (STOREFRONT_SCOPES as readonly string[]).includes(scope);
}
