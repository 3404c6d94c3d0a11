import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { map, Observable } from 'rxjs';
import { AppConfig } from '../../config/app-config.js';
import { Page } from '../paging/page.js';
import { publicBaseUrl } from './url.js';
import { ENVELOPE_KEY } from './envelope.js';

/** Wraps handler results in their one-member envelope; a Page also gets its `Link: <next>; rel="next"`. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly config: AppConfig,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const member = this.reflector.getAllAndOverride<string | undefined>(ENVELOPE_KEY, [context.getHandler(), context.getClass()]);
    return next.handle().pipe(
      map((result: unknown) => {
        if (result instanceof Page) {
          const http = context.switchToHttp();
          const req = http.getRequest<Request>();
          const res = http.getResponse<Response>();
          return pageEnvelope(req, res, member, result, this.config.PUBLIC_URL);
        }
        if (!member || result === undefined) return result;
        return { [member]: result };
      }),
    );
  }
}

/** A page's envelope (`{<member>: items, ...extras}`) and its `Link` header (also the list fast lane's, README "Search"). */
export function pageEnvelope(
  req: Request,
  res: Response,
  member: string | undefined,
  page: Page<unknown>,
  publicUrl: string | undefined,
): Record<string, unknown> {
  if (page.nextPageInfo) res.setHeader('Link', `<${nextUrl(req, page.limit, page.nextPageInfo, publicUrl)}>; rel="next"`);
  return { [member ?? 'items']: page.items, ...page.extras };
}

function nextUrl(req: Request, limit: number, pageInfo: string, publicUrl: string | undefined): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(req.query)) {
    if (k === 'limit' || k === 'page_info') continue;
    for (const item of Array.isArray(v) ? v : [v]) params.append(k, String(item));
  }
  params.set('limit', String(limit));
  params.set('page_info', pageInfo);
  return `${publicBaseUrl(req, publicUrl)}${req.baseUrl}${req.path}?${params.toString()}`;
}
