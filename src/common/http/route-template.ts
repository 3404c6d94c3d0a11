import type { Request } from 'express';

/**
 * The route template that answered the request (`/api/2026-04-01/admin/collections/:id`), never the raw path: a
 * request no route answered is `unmatched`. Bounded, so it can be a metric label and a log field.
 */
export function routeTemplate(req: Request): string {
  // Express types `route` as any: read it as unknown
  const route = (req as { route?: unknown }).route;
  const path = route !== null && typeof route === 'object' ? (route as { path?: unknown }).path : undefined;
  if (typeof path === 'string') return `${req.baseUrl ?? ''}${path}`;
  return 'unmatched';
}

/** The API tier of a request: the tier its guard admitted it to, else what its route template says. */
export function tierOf(req: Request, route = routeTemplate(req)): string {
  const tier = (req as Request & { ctx?: { tier?: string | null } }).ctx?.tier;
  if (tier) return tier;
  const m = /^\/(?:api\/[^/]+\/)?(admin|storefront|customer|health|metrics)(?:\/|$)/.exec(route);
  return m ? m[1] : 'none';
}
