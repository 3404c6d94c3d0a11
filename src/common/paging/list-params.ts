import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { contextOf } from '../context/request-context.js';

/**
 * What the pager needs of a list request, as plain values (no HTTP types): the tenant, the path (it holds the
 * list's own ids, e.g. a collection id) and the raw query parameters (every one but limit and page_info binds the
 * cursor). Controllers take it with `@ListParams()` and pass it on; services and the pager never see the request.
 */
export interface ListParams {
  tenantId: string;
  path: string;
  query: Record<string, unknown>;
}

/** The `ListParams` of an HTTP request (controller layer only). */
export function listParamsOf(req: Request): ListParams {
  const ctx = contextOf(req);
  return { tenantId: ctx.hasTenant ? ctx.tenantId : '', path: `${req.baseUrl}${req.path}`, query: { ...(req.query as Record<string, unknown>) } };
}

/** `@ListParams() list: ListParams` in a controller: the request's list parameters for `Pager.request`. */
export const ListParams = createParamDecorator((_: unknown, host: ExecutionContext): ListParams => listParamsOf(host.switchToHttp().getRequest<Request>()));
