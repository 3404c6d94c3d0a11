import { createServer, IncomingMessage, ServerResponse } from 'node:http';
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
  return {
    IncomingMessage: bornWith(IncomingMessage as unknown as NodeConstructor, app.request) as unknown as typeof IncomingMessage,
    ServerResponse: bornWith(ServerResponse as unknown as NodeConstructor, app.response) as unknown as typeof ServerResponse,
  };
}

type NodeConstructor = (this: object, ...args: unknown[]) => void;

/**
 * A constructor of `base`'s objects whose prototype is `prototype`. `node:http`'s constructors are plain functions
 * (Node 20, 22, 24): an ES5-style constructor calls it on its own `this` (the fast path: `Reflect.construct` per
 * request measured several times slower). Should a later Node make it a class, which cannot be called,
 * `Reflect.construct` with this constructor as `new.target` gives the same prototype.
 */
export function bornWith(base: NodeConstructor, prototype: object): NodeConstructor {
  const isClass = /^class\b/.test(Function.prototype.toString.call(base));
  const born = isClass
    ? function (this: object, ...args: unknown[]): object {
        return Reflect.construct(base, args, born) as object;
      }
    : function (this: object, ...args: unknown[]): void {
        base.apply(this, args);
      };
  born.prototype = prototype;
  return born as NodeConstructor;
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
