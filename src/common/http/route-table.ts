import type { Application, NextFunction, Request, Response } from 'express';

interface RouteLayer {
  match: (path: string) => boolean;
  methods: Set<string>;
  path: string;
}
let routes: RouteLayer[] = [];

interface Layer {
  match?: (path: string) => boolean;
  route?: { path?: string; methods?: Record<string, boolean> };
}

/** Records the app's routes once it is initialised, so an unknown method on a known path answers 405, not 404. */
export function captureRoutes(app: Application): void {
  const stack: Layer[] = (app as unknown as { router?: { stack: Layer[] } }).router?.stack ?? [];
  routes = [];
  for (const layer of stack) {
    if (!layer.route?.methods || typeof layer.match !== 'function') continue;
    const methods = Object.entries(layer.route.methods)
      .filter(([m, on]) => on && m !== '_all')
      .map(([m]) => m.toUpperCase());
    // middleware bound to every method is not a route of the API
    if (layer.route.methods._all || methods.length > 8) continue;
    routes.push({ match: layer.match.bind(layer), methods: new Set(methods), path: String(layer.route.path ?? '') });
  }
}

/** Every captured route as `{method, path}` (Express patterns, `:id` parameters), e.g. for request sweeps in tests. */
export function routeList(): Array<{ method: string; path: string }> {
  return routes.flatMap((r) => [...r.methods].map((method) => ({ method, path: r.path })));
}

export function allowedMethods(path: string): string[] {
  const methods = new Set<string>();
  for (const r of routes) if (r.match(path)) r.methods.forEach((m) => methods.add(m));
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

/** Last in the chain: whatever no route answered (paths outside the API prefix included) gets the 404 envelope. */
export function notFoundFallback(req: Request, res: Response): void {
  const allow = allowedMethods(req.path);
  if (allow.length > 0 && !allow.includes(req.method)) {
    res.setHeader('Allow', allow.join(', '));
    res.status(405).json({ errors: `method ${req.method} not allowed on this path` });
    return;
  }
  res.status(404).json({ errors: 'not found' });
}

/** Errors raised outside Nest's pipeline (rare) still leave as an envelope, never as an HTML page. */
export function errorFallback(err: unknown, _req: Request, res: Response, next: NextFunction): void {
  if (res.headersSent) return next(err);
  const status = (err as { status?: number; statusCode?: number })?.status ?? (err as { statusCode?: number })?.statusCode;
  if (status && status >= 400 && status < 500) {
    res.status(status).json({ errors: status === 413 ? 'request body too large' : 'bad request' });
    return;
  }
  // logged once, by the request's log line (logging.ts)
  (res as Response & { err?: unknown }).err = err instanceof Error ? err : new Error(String(err));
  res.status(500).json({ errors: 'internal error', request_id: String((_req as Request & { id?: unknown }).id ?? '') });
}
