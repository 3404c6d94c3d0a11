import type { RequestContext } from '../common/context/request-context.js';
import { AppError } from '../common/http/app-error.js';

/** Who a cart or wishlist belongs to: the signed-in shopper, else the anonymous visitor cookie (CONTRACT 3). */
export type Owner = { kind: 'customer'; customerId: string } | { kind: 'visitor'; visitorId: string };

export function ownerOf(ctx: RequestContext): Owner {
  if (ctx.actor.type === 'customer') return { kind: 'customer', customerId: ctx.actor.customerId };
  if (!ctx.visitorId) throw AppError.unauthorized('the visitor could not be identified');
  return { kind: 'visitor', visitorId: ctx.visitorId };
}

/**
 * The owner as SQL over a table with `visitor_id` and `customer_id` (alias optional); `params` gets the value
 * appended. A visitor's rows are those without a customer, matching the partial unique indexes.
 */
export function ownerClause(owner: Owner, params: unknown[], alias = ''): string {
  const a = alias ? `${alias}.` : '';
  if (owner.kind === 'customer') {
    params.push(owner.customerId);
    return `${a}customer_id = $${params.length}`;
  }
  params.push(owner.visitorId);
  return `${a}visitor_id = $${params.length} AND ${a}customer_id IS NULL`;
}

/** Column values and conflict target of an owner, for `INSERT ... ON CONFLICT`. */
export function ownerColumns(owner: Owner): { visitorId: string | null; customerId: string | null; conflict: string } {
  return owner.kind === 'customer'
    ? { visitorId: null, customerId: owner.customerId, conflict: '(tenant_id, customer_id) WHERE customer_id IS NOT NULL' }
    : { visitorId: owner.visitorId, customerId: null, conflict: '(tenant_id, visitor_id) WHERE customer_id IS NULL' };
}
