import type { Request } from 'express';

const PARSED = Symbol('parsedQuery');

type WithParsed = Request & { [PARSED]?: unknown };

/**
 * Express 5's `req.query` is a getter that parses the query string again on every read (the "query parser"
 * setting, `qs` here); a storefront list request read it ten times (language and currency negotiation,
 * the JSON shape guard, the filters pipe, the pager, the envelope's Link header), and those parses were several
 * percent of its CPU and a sixth of its allocations. This redefines `query` on the app's request prototype: parsed
 * once per request on the first read, then that same object (as Express 4 kept it); an assignment replaces it.
 */
export function parseQueryOncePerRequest(requestPrototype: object): void {
  let descriptor: PropertyDescriptor | undefined;
  for (let p: object | null = requestPrototype; p && !descriptor?.get; p = Object.getPrototypeOf(p) as object | null) {
    descriptor = Object.getOwnPropertyDescriptor(p, 'query');
  }
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the request as `this`
  const parseQuery = descriptor?.get as ((this: Request) => unknown) | undefined;
  if (!parseQuery) throw new Error('express request has no query getter');
  Object.defineProperty(requestPrototype, 'query', {
    configurable: true,
    enumerable: true,
    get(this: WithParsed): unknown {
      if (!Object.prototype.hasOwnProperty.call(this, PARSED)) this[PARSED] = parseQuery.call(this);
      return this[PARSED];
    },
    set(this: WithParsed, value: unknown) {
      this[PARSED] = value;
    },
  });
}
