import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus } from '@nestjs/common';
import type { Request, Response } from 'express';
import { QueryFailedError } from 'typeorm';
import { isPoolTimeout, POOL_RETRY_AFTER_SECONDS } from '../db/pool-timeout.js';
import { AppError, ErrorEnvelope } from './app-error.js';
import { bodyStillArriving, sendWhileDraining } from './drained-answer.js';
import { allowedMethods } from './route-table.js';

interface BodyParserError {
  type?: string;
  status?: number;
  statusCode?: number;
  expose?: boolean;
  message?: string;
}

/** Postgres errors that mean the client sent something the data cannot hold, not a server fault. */
const CLIENT_SQLSTATES: Record<string, number> = {
  '23505': HttpStatus.UNPROCESSABLE_ENTITY, // unique violation
  '23503': HttpStatus.UNPROCESSABLE_ENTITY, // foreign key
  '23514': HttpStatus.UNPROCESSABLE_ENTITY, // check
  '23502': HttpStatus.UNPROCESSABLE_ENTITY, // not null: a member sent as null that cannot be empty
  '22021': HttpStatus.UNPROCESSABLE_ENTITY, // invalid byte sequence (NUL) for the text encoding
  '54001': HttpStatus.UNPROCESSABLE_ENTITY, // statement too complex (stack depth)
  '22P02': HttpStatus.UNPROCESSABLE_ENTITY, // invalid text representation
  '22003': HttpStatus.UNPROCESSABLE_ENTITY, // numeric out of range
  '22001': HttpStatus.UNPROCESSABLE_ENTITY, // string too long
  '40001': HttpStatus.CONFLICT, // serialization failure left after retries
  '40P01': HttpStatus.CONFLICT, // deadlock left after retries
};

/** Writes `{errors, code}` for every non-2xx, whatever raised it; one table maps error kinds to statuses. */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request>();
    if (res.headersSent) {
      res.end();
      return;
    }
    const { status, body, headers } = this.describe(exception, req);
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    if (status >= 500) {
      body.request_id = String(req.id ?? '');
      // logged once, by the request's own log line (with the request id and the stack): see logging.ts
      (res as Response & { err?: unknown }).err = exception instanceof Error ? exception : new Error(String(exception));
    }
    // refused before or while its body was read (413 on an upload, 401): answered at once, the rest drained a bounded
    // amount so the client reads the answer, then the connection is closed
    if (bodyStillArriving(req)) sendWhileDraining(req, res, status, body);
    else res.status(status).json(body);
  }

  private describe(exception: unknown, req: Request): { status: number; body: ErrorEnvelope; headers: Record<string, string> } {
    if (exception instanceof AppError) {
      const body: ErrorEnvelope = { errors: exception.message };
      if (exception.code) body.code = exception.code;
      return { status: exception.status, body, headers: exception.headers };
    }
    if (exception instanceof HttpException) {
      let status = exception.getStatus();
      let message = textOf(exception.getResponse()) ?? exception.message;
      const headers: Record<string, string> = {};
      if (status === HttpStatus.NOT_FOUND && /^Cannot [A-Z]+ /.test(message)) {
        const allow = allowedMethods(req.originalUrl.split('?')[0]);
        if (allow.length > 0 && !allow.includes(req.method)) {
          status = HttpStatus.METHOD_NOT_ALLOWED;
          headers.Allow = allow.join(', ');
          message = `method ${req.method} not allowed on this path`;
        } else {
          message = 'not found';
        }
      }
      if (status === HttpStatus.BAD_REQUEST) status = HttpStatus.UNPROCESSABLE_ENTITY;
      if (status === HttpStatus.TOO_MANY_REQUESTS) message = 'rate limit exceeded';
      return { status, body: { errors: message }, headers };
    }
    const parserError = exception as BodyParserError;
    if (parserError && typeof parserError === 'object' && typeof parserError.type === 'string') {
      switch (parserError.type) {
        case 'entity.parse.failed':
          return { status: 422, body: { errors: 'malformed JSON body' }, headers: {} };
        case 'entity.too.large':
          return { status: 413, body: { errors: 'request body too large' }, headers: {} };
        case 'encoding.unsupported':
        case 'charset.unsupported':
          return { status: 422, body: { errors: parserError.message ?? 'unsupported body encoding' }, headers: {} };
        case 'request.aborted':
          return { status: 400, body: { errors: 'request aborted' }, headers: {} };
      }
    }
    if (exception instanceof QueryFailedError) {
      const code = (exception as QueryFailedError & { code?: string; driverError?: { code?: string } }).driverError?.code;
      const status = code ? CLIENT_SQLSTATES[code] : undefined;
      if (status) return { status, body: { errors: status === 409 ? 'concurrent update, retry' : 'the request conflicts with stored data' }, headers: {} };
    }
    if (isPoolTimeout(exception))
      return {
        status: 503,
        body: { errors: 'the service is busy: no database connection was free in time' },
        headers: { 'Retry-After': String(POOL_RETRY_AFTER_SECONDS) },
      };
    return { status: 500, body: { errors: 'internal error' }, headers: {} };
  }
}

function textOf(response: string | object): string | undefined {
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  if (typeof message === 'string') return message;
  return undefined;
}
