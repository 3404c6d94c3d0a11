import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Application } from 'express';

/** Express's per-app request and response prototypes (`app.request`, `app.response`). */
interface ExpressPrototypes {
  request: object;
  response: object;
}

/**
 * Node's request and response classes whose instances are born with the Express app's prototypes. Express's
 * `app.handle` (and the fast lanes' `adoptRequest`) then set a prototype the object already has, which V8 skips.
 *
 * Why (session 21, issue 35): `Object.setPrototypeOf` on every request and response gives V8 objects it keeps far
 * longer than the request: with Express's switch, a quarter of everything a request allocated survived its young
 * generation and was promoted (`--trace-gc-nvp`: promoted ≈ 25 % of allocated, for `/health` as for a kept suggest
 * answer; a bare `node:http` server 0 %), so every scavenge copied 3–4 MB and paused 3–8 ms, and the heap grew
 * 50 MB/s until a mark-compact. Born with the prototype, nothing is promoted (a bare server with Express-like
 * prototypes: 22,000 → 47,000 req/s, scavenge pauses 2.4 → 0.1 ms).
 */
export function expressBornClasses(app: ExpressPrototypes): { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse } {
  // ES5-style constructors (node:http's own are functions): `prototype` is assignable, unlike a class's
  function ShopIncomingMessage(this: IncomingMessage, socket: Socket): void {
    IncomingMessage.call(this, socket);
  }
  ShopIncomingMessage.prototype = app.request;
  function ShopServerResponse(this: ServerResponse, req: IncomingMessage, options?: unknown): void {
    (ServerResponse as unknown as (this: ServerResponse, req: IncomingMessage, options?: unknown) => void).call(this, req, options);
  }
  ShopServerResponse.prototype = app.response;
  return {
    IncomingMessage: ShopIncomingMessage as unknown as typeof IncomingMessage,
    ServerResponse: ShopServerResponse as unknown as typeof ServerResponse,
  };
}

/**
 * Nest's Express adapter, its HTTP server made with `expressBornClasses` (HTTPS and the options that change the
 * server, none of which the service uses, keep Nest's own server).
 */
export class ShopExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    if (options?.httpsOptions || options?.forceCloseConnections || options?.return503OnClosing) return super.initHttpServer(options);
    const app = this.getInstance<Application>();
    this.httpServer = createServer(expressBornClasses(app as unknown as ExpressPrototypes), app);
  }
}
