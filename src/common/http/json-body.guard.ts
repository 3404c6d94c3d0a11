import { CanActivate, ExecutionContext, Injectable, Optional } from '@nestjs/common';
import express, { Request, Response } from 'express';
import { AppConfig } from '../../config/app-config.js';
import { AppError } from './app-error.js';
import { checkJsonShape } from './json-shape.js';
import { NDJSON_TYPES, NdjsonLimits, spoolNdjson } from './ndjson-body.js';

/** A UUID path parameter (optionally with a file suffix: `{id}.pdf`). */
const UUID_PARAM = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(\.[a-z0-9]+)?$/i;

const JSON_TYPES = ['application/json', 'text/json', 'application/*+json'];
/** Requests whose JSON body was zero bytes (body-parser reads those as `{}`; here they have no body at all). */
const emptyBodies = new WeakSet<object>();
const verify = (req: object, _res: unknown, buf: Buffer) => {
  if (buf.length === 0) emptyBodies.add(req);
};
const defaultParser = express.json({ limit: '1mb', type: JSON_TYPES, strict: true, verify });
const IMPORT_LIMIT = 50 * 1024 * 1024;
const importParser = express.json({ limit: IMPORT_LIMIT, type: JSON_TYPES, strict: true, verify });

/** Routes whose body is not JSON (raw theme asset bytes) or may be larger than 1 MB (catalogue import). */
const RAW_BODY_ROUTE = /\/admin\/themes\/[^/]+\/assets\/data\/?$/;
const LARGE_BODY_ROUTE = /\/admin\/catalogue\/import\/?$/;

/**
 * Parses JSON bodies (application/json, text/json, application/*+json; 1 MB, 50 MB for imports) and refuses a body
 * of another type with 422; parse errors reach the error filter as `{errors}` envelopes. It is the last global guard:
 * no byte of a body is read before the API guard has verified the token, so an anonymous upload to an admin route is
 * answered 401 while it is still arriving. A parsed body too deep or holding NUL characters is 422 (json-shape.ts);
 * UUID path parameters are lower-cased. A zero-byte body is no body (422 where one is read, as without one). The
 * catalogue import also reads NDJSON (application/x-ndjson, application/jsonl): the body is spooled to a temporary
 * file, removed when the response ends (the body becomes a `SpooledNdjson`; the import reads its lines from the file,
 * each checked like a JSON body); a line over IMPORT_NDJSON_MAX_LINE_BYTES or more than IMPORT_NDJSON_MAX_LINES lines
 * is 413 while it arrives.
 */
@Injectable()
export class JsonBodyGuard implements CanActivate {
  private readonly ndjson: NdjsonLimits;

  constructor(@Optional() config?: AppConfig) {
    this.ndjson = ndjsonImportLimits(config);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    const path = req.originalUrl.split('?')[0];
    if (RAW_BODY_ROUTE.test(path)) return true;
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (hasBody && LARGE_BODY_ROUTE.test(path) && req.is(NDJSON_TYPES)) {
      const spooled = await spoolNdjson(req, this.ndjson, req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']));
      res.once('close', () => void spooled.remove());
      req.body = spooled;
      checkJsonShape(req.params as unknown, '');
      lowerCaseIds(req.params as Record<string, unknown>);
      checkJsonShape(req.query as unknown, '');
      return true;
    }
    if (hasBody && !req.is(JSON_TYPES)) {
      throw AppError.unprocessable(`the request body must be JSON (Content-Type application/json), not ${req.headers['content-type'] ?? 'untyped'}`);
    }
    // a zero-byte body (Content-Length: 0, or an empty chunked one) is no body: a route reading one answers 422, as
    // without a body, instead of taking it for an empty object (an update applying nothing)
    if (hasBody) {
      const parser = LARGE_BODY_ROUTE.test(path) ? importParser : defaultParser;
      await new Promise<void>((resolve, reject) => parser(req, res, (err?: Error) => (err ? reject(err) : resolve())));
      if (emptyBodies.has(req)) req.body = undefined;
    }
    checkJsonShape(req.params as unknown, '');
    lowerCaseIds(req.params as Record<string, unknown>);
    checkJsonShape(req.query as unknown, '');
    if (hasBody) checkJsonShape(req.body);
    return true;
  }
}

/** The NDJSON import's bounds: the import's 50 MB, and the configured line size and line count. */
export function ndjsonImportLimits(config?: Pick<AppConfig, 'IMPORT_NDJSON_MAX_LINE_BYTES' | 'IMPORT_NDJSON_MAX_LINES'>): NdjsonLimits {
  return { bodyBytes: IMPORT_LIMIT, lineBytes: config?.IMPORT_NDJSON_MAX_LINE_BYTES ?? 2 * 1024 * 1024, lines: config?.IMPORT_NDJSON_MAX_LINES ?? 1_000_000 };
}

/** Ids are case-insensitive: `/products/{ID}` is the same resource as in lower case (ids are compared in code too). */
function lowerCaseIds(params: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(params)) if (typeof v === 'string' && UUID_PARAM.test(v)) params[k] = v.toLowerCase();
}
