import type { Application } from 'express';

interface RouteEntry { regexp: RegExp; methods: Set<string> }
let routes: RouteEntry[] = [];

/** Records the app's routes once it is initialised, so an unknown method on a known path answers 405, not 404. */
export function captureRoutes(app: Application): void {
  const stack = ((app as unknown as { router?: { stack: Layer[] }; _router?: { stack: Layer[] } }).router ??
    (app as unknown as { _router?: { stack: Layer[] } })._router)?.stack ?? [];
  const byPattern = new Map<string, RouteEntry>();
  for (const layer of stack) {
    const route = layer.route;
    if (!route?.path || typeof route.path !== 'string') continue;
    const key = route.path;
    const entry = byPattern.get(key) ?? { regexp: toRegExp(route.path), methods: new Set<string>() };
    for (const [m, on] of Object.entries(route.methods ?? {})) if (on && m !== '_all') entry.methods.add(m.toUpperCase());
    byPattern.set(key, entry);
  }
  routes = [...byPattern.values()];
}

interface Layer { route?: { path?: unknown; methods?: Record<string, boolean> } }

function toRegExp(path: string): RegExp {
  const pattern = path
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${pattern}/?$`);
}

export function allowedMethods(path: string): string[] {
  const methods = new Set<string>();
  for (const r of routes) if (r.regexp.test(path)) r.methods.forEach((m) => methods.add(m));
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
