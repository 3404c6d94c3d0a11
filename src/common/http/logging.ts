import { LoggerService } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino, DestinationStream, Logger as Pino } from 'pino';
import { pinoHttp, HttpLogger } from 'pino-http';
import type { Request } from 'express';
import { routeTemplate, tierOf } from './route-template.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The process's logger: JSON lines on stdout, or on `destination` (tests read the lines from a stream). */
export function createRootLogger(level: string, destination?: DestinationStream): Pino {
  // a cluster worker's lines say which worker wrote them (README, "Workers")
  const worker = process.env.SHOP_WORKER_SLOT;
  const options = { level, base: worker ? { service: 'commerce', worker: Number(worker) } : { service: 'commerce' }, timestamp: pino.stdTimeFunctions.isoTime };
  return destination ? pino(options, destination) : pino(options);
}

/** The request's id: its X-Request-Id when well-formed, else a new UUID; echoed as X-Request-Id. */
export function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/**
 * One JSON line per request: method, path, route template, tier, status, duration, request id, tenant id. Never
 * headers, bodies or query strings, so no token, password or card number reaches the log. X-Request-Id is echoed
 * or generated. A 500's line is the one error entry: it carries the error with its stack (`res.err`, set by the
 * error filter), so an error is logged once, with its request id.
 */
export function requestLogger(logger: Pino): HttpLogger {
  return pinoHttp({
    logger,
    genReqId: requestIdOf,
    // called at the start (nothing known yet: no fields, and no child logger made for none) and at the end
    customProps: (req: IncomingMessage, res: ServerResponse) => {
      if (!res.headersSent) return undefined as unknown as object;
      const ctx = (req as IncomingMessage & { ctx?: { hasTenant: boolean; tenantId: string } }).ctx;
      const route = routeTemplate(req as Request);
      return { route, tier: tierOf(req as Request, route), tenant_id: ctx?.hasTenant ? ctx.tenantId : null };
    },
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split('?')[0] }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    customAttributeKeys: { responseTime: 'duration_ms', reqId: 'request_id' },
    // a line the logger's level would drop is not made at all (issue 34: its fields, child logger and message cost
    // about 2 % of the server's CPU per order at LOG_LEVEL=warn)
    customLogLevel: (_req, res, err) => {
      const level = err || res.statusCode >= 500 ? 'error' : 'info';
      return logger.isLevelEnabled(level) ? level : 'silent';
    },
    quietReqLogger: true,
  });
}

/** Nest's own log lines through the same pino logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Pino) {}
  log(message: unknown, context?: string): void {
    this.write('info', message, context);
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.write('error', message, context, trace);
  }
  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: string): void {
    this.write('trace', message, context);
  }
  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace', message: unknown, context?: string, trace?: string): void {
    // an Error's message and stack are not enumerable: spread, they would leave an empty line (Nest logs start errors so)
    if (message instanceof Error) this.logger[level]({ context, trace: trace ?? message.stack }, message.message || message.name);
    else if (message && typeof message === 'object') this.logger[level]({ context, trace, ...(message as object) });
    else this.logger[level]({ context, trace }, String(message));
  }
}
