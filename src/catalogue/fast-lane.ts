import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Application, NextFunction, Request, Response } from 'express';
import type { HttpLogger } from 'pino-http';
import { requestIdOf } from '../common/http/logging.js';
import { errorFallback } from '../common/http/route-table.js';

export type Middleware = (req: Request, res: Response, next: NextFunction) => void;

/**
 * What the fast lanes (suggest, product lists; README "Search") share: standing in front of Express's request
 * listener, adopting a request as Express's router would, and running the app's own middleware chain before answering.
 */

/** A bearer token's `Authorization` header (the token in group 1). */
export const BEARER = /^Bearer (\S+)$/i;

/** A GET of exactly `path` (a query string allowed), without a body, with a bearer token: cheap checks on the raw request. */
export function laneCandidate(req: IncomingMessage, path: string): boolean {
  const url = req.url ?? '';
  if (req.method !== 'GET' || !url.startsWith(path) || (url.length > path.length && url[path.length] !== '?')) return false;
  if (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0) return false;
  return typeof req.headers.authorization === 'string' && BEARER.test(req.headers.authorization);
}

/** Puts `handle` in front of the server's request listeners (Express's app); `through` hands a request on unchanged. */
export function installLane(server: Server, handle: (req: IncomingMessage, res: ServerResponse, through: () => void) => void): void {
  const listeners = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) =>
    handle(req, res, () => {
      for (const listener of listeners) listener.call(server, req, res);
    }),
  );
}

/** As Express's `app.handle` and router do first (so req.query, req.get, res.json... are Express's own). */
export function adoptRequest(express: Application, req: Request, res: Response): void {
  req.res = res;
  res.req = req;
  // the server makes them with these prototypes already (src/common/http/express-adapter.ts): no switch, which V8 pays for
  const { request, response } = express as unknown as { request: object; response: object };
  if (Object.getPrototypeOf(req) !== request) Object.setPrototypeOf(req, request);
  if (Object.getPrototypeOf(res) !== response) Object.setPrototypeOf(res, response);
  if (!res.locals) res.locals = Object.create(null) as Record<string, unknown>;
  req.originalUrl = req.originalUrl || req.url;
  req.baseUrl = '';
}

/**
 * The app's middleware chain for a lane: the request log (pino-http) replaced, below `info` (production's warn), by
 * the request id alone (pino-http's child loggers and listeners were about a tenth of a kept suggest answer); an
 * error of the chain attaches the request logger, as it would have been, and is answered as Express's fallback does.
 */
export class LaneChain {
  private readonly chain: Middleware[];

  constructor(
    chain: Middleware[],
    private readonly requestLog: HttpLogger,
  ) {
    const full = requestLog as unknown as Middleware;
    const log: Middleware = (req, res, next) => {
      if (requestLog.logger.isLevelEnabled('info')) return full(req, res, next);
      (req as Request & { id: unknown }).id = requestIdOf(req, res);
      next();
    };
    this.chain = chain.map((m) => (m === full ? log : m));
  }

  /** Runs the chain, then `done` (not when a middleware answered, e.g. the rate limit's 429). */
  run(req: Request, res: Response, done: () => void): void {
    const chain = this.chain;
    let at = 0;
    const next: NextFunction = (err?: unknown) => {
      if (err !== undefined && err !== null && err !== 'route' && err !== 'router') {
        this.attachLog(req, res);
        return errorFallback(err, req, res, () => res.destroy());
      }
      if (at < chain.length) return chain[at++](req, res, next);
      done();
    };
    next();
  }

  /** The request logger on a request that only got its id (before an error is answered: the error line is logged). */
  attachLog(req: Request, res: Response): void {
    if (!(req as Request & { log?: unknown }).log) (this.requestLog as unknown as Middleware)(req, res, () => undefined);
  }
}

/** The Express route object of `path` (GET), for the request's route template (metrics and log line). */
export function routeOf(app: Application, path: string): object {
  type Layer = { route?: { path?: string; methods?: Record<string, boolean> } };
  const stack: Layer[] = (app as unknown as { router?: { stack: Layer[] } }).router?.stack ?? [];
  const layer = stack.find((l) => l.route?.path === path && l.route.methods?.get);
  if (!layer?.route) throw new Error(`fast lane: no GET route ${path}`);
  return layer.route;
}
