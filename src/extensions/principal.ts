/**
 * Who a bearer token stands for: a staff access token or a signed-in shopper. The `TokenResolver` point returns it;
 * the auth module resolves the built-in tokens. Declared here so src/extensions/ imports no feature module.
 */
export type Principal =
  | { kind: 'access_token'; tokenId: string; tenantId: string; tier: 'admin' | 'storefront'; scopes: string[]; issuerId: string; issuerPermissions: string[] }
  | { kind: 'customer'; tokenId: string; tenantId: string; customerId: string; active: boolean };
