import type { NextFunction, Request, Response } from 'express';
import type { Metrics } from './metrics.service.js';
import { routeTemplate, tierOf } from '../common/http/route-template.js';
import { activeSpan } from './tracing.js';

/**
 * Puts the request id (now) and the tenant id and tier (once answered) on the request's server span when tracing
 * (after the request logger, which fixes the request id). A no-op without tracing.
 */
export function traceRequestMiddleware(req: Request, res: Response, next: NextFunction): void {
  const span = activeSpan();
  if (span) {
    span.setAttribute('request.id', String((req as Request & { id?: unknown }).id ?? ''));
    res.once('finish', () => {
      const ctx = (req as Request & { ctx?: { hasTenant: boolean; tenantId: string } }).ctx;
      if (ctx?.hasTenant) span.setAttribute('tenant.id', ctx.tenantId);
      span.setAttribute('app.tier', tierOf(req));
    });
  }
  next();
}

/** Counts and times every answered request (`http_requests_total`, `http_request_duration_seconds`). */
export function httpMetricsMiddleware(metrics: Metrics): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      const route = routeTemplate(req);
      metrics.observeRequest(req.method, route, tierOf(req, route), res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
    };
    res.once('finish', finish);
    res.once('close', finish);
    next();
  };
}
