import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppConfig } from '../config/app-config.js';
import { fillShell } from './prerender.js';
import { NOT_FOUND, prerenderedPage } from './prerender-source.js';

export const STOREFRONT_DEMO_PATH = '/storefront-demo';

/**
 * The demo's Content-Security-Policy: scripts only from its own files (no inline script, no eval), so HTML that got
 * into catalogue text cannot run; images from anywhere over https (catalogue images live on CDNs); no frames, plugins
 * or foreign form targets.
 */
export const STOREFRONT_DEMO_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https: data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

function secure(res: Response): void {
  res.setHeader('Content-Security-Policy', STOREFRONT_DEMO_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'same-origin');
}

/** examples/storefront/dist of this checkout (from src/ under ts-jest, from dist/src/ when built). */
function defaultBuildDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i += 1) {
    if (existsSync(join(dir, 'examples', 'storefront', 'package.json'))) return join(dir, 'examples', 'storefront', 'dist');
    dir = dirname(dir);
  }
  return resolve('examples/storefront/dist');
}

/**
 * A page of the app: index.html, with a product or listing page prerendered into it from the API's answers (an unknown
 * product, collection or category: the shell with a 404). Built per request, never cached: it follows the request's shop.
 */
async function sendPage(req: Request, res: Response, index: string): Promise<void> {
  const origin = `${req.protocol}://${req.get('host') ?? 'localhost'}`;
  const page = await prerenderedPage(req, { origin, base: STOREFRONT_DEMO_PATH, path: req.path });
  if (page === null) return res.sendFile(index);
  const shell = await readFile(index, 'utf8');
  res.status(page === NOT_FOUND ? 404 : 200).type('html');
  res.send(page === NOT_FOUND ? shell : fillShell(shell, page));
}

/**
 * STOREFRONT_DEMO=on: the reference storefront's static build (examples/storefront, `npm run storefront:build`) at
 * /storefront-demo/, same origin as the API so the visitor cookie just works. Hashed assets are cached for good,
 * index.html never; any other path under it is the single-page app's own route and gets index.html (product and
 * listing pages prerendered into it, prerender.ts). Every answer
 * carries STOREFRONT_DEMO_CSP. Off, every path under it answers a 404 that names `STOREFRONT_DEMO=on`.
 */
export function serveStorefrontDemo(app: NestExpressApplication, config: AppConfig): void {
  if (!config.STOREFRONT_DEMO) {
    // someone followed a storefront link to a server started without the demo: say how to turn it on
    app.use(STOREFRONT_DEMO_PATH, (_req: Request, res: Response) => {
      res.status(404).json({ errors: `the storefront demo is off: start the API with STOREFRONT_DEMO=on to serve it at ${STOREFRONT_DEMO_PATH}/` });
    });
    return;
  }
  const dir = config.STOREFRONT_DEMO_DIR ? resolve(config.STOREFRONT_DEMO_DIR) : defaultBuildDir();
  const index = join(dir, 'index.html');
  if (!existsSync(index)) {
    app.use(STOREFRONT_DEMO_PATH, (_req: Request, res: Response) => {
      res.status(503).json({ errors: `the storefront demo is not built (${index} is missing): run npm run storefront:build` });
    });
    return;
  }
  app.useStaticAssets(dir, {
    prefix: `${STOREFRONT_DEMO_PATH}/`,
    index: false,
    setHeaders: (res: Response, path: string) => {
      secure(res);
      res.setHeader('Cache-Control', path.includes(join(dir, 'assets')) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.use(STOREFRONT_DEMO_PATH, (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.originalUrl === STOREFRONT_DEMO_PATH) return res.redirect(301, `${STOREFRONT_DEMO_PATH}/`);
    // a missing asset is a 404, not the app
    if (req.path.startsWith('/assets/')) return next();
    secure(res);
    res.setHeader('Cache-Control', 'no-cache');
    sendPage(req, res, index).catch(next);
  });
}
