import { Injectable, NestMiddleware } from '@nestjs/common';
import express, { NextFunction, Request, Response } from 'express';
import { AppError } from './app-error.js';

const JSON_TYPES = ['application/json', 'text/json', 'application/*+json'];
const defaultParser = express.json({ limit: '1mb', type: JSON_TYPES, strict: true });
const importParser = express.json({ limit: '50mb', type: JSON_TYPES, strict: true });

/** Routes whose body is not JSON (raw theme asset bytes) or may be larger than 1 MB (catalogue import). */
const RAW_BODY_ROUTE = /\/admin\/themes\/[^/]+\/assets\/data\/?$/;
const LARGE_BODY_ROUTE = /\/admin\/catalogue\/import\/?$/;

/**
 * Parses JSON bodies (application/json, text/json, application/*+json; 1 MB, 50 MB for imports) and refuses a body
 * of another type with 422; parse errors reach the error filter as `{errors}` envelopes.
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (RAW_BODY_ROUTE.test(req.path) || RAW_BODY_ROUTE.test(req.originalUrl.split('?')[0])) return next();
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (hasBody && !req.is(JSON_TYPES)) {
      throw AppError.unprocessable(`the request body must be JSON (Content-Type application/json), not ${req.headers['content-type'] ?? 'untyped'}`);
    }
    const parser = LARGE_BODY_ROUTE.test(req.originalUrl.split('?')[0]) ? importParser : defaultParser;
    await new Promise<void>((resolve, reject) => parser(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
    next();
  }
}
