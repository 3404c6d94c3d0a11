import type { CliCommand } from '../extensions/index.js';
import { RequestContext } from '../common/context/request-context.js';
import { TenancyService } from '../tenancy/index.js';
import { AdminOrdersService } from './admin-orders.service.js';

/** `orders list --tenant T [--limit N] [--json]`: the newest orders of a shop, for a quick look (issue 17). */
export const ordersListCommand: CliCommand = {
  name: 'orders list',
  usage: 'orders list --tenant ID [--limit 50] [--status S] [--financial-status S]',
  options: { tenant: { type: 'string' }, limit: { type: 'string' }, status: { type: 'string' }, 'financial-status': { type: 'string' } },
  async run(app, args) {
    const ref = typeof args.values.tenant === 'string' ? args.values.tenant.trim() : '';
    if (!ref) throw new Error('--tenant is required');
    const tenancy = app.get(TenancyService);
    const tenant = (await tenancy.findById(ref)) ?? (await tenancy.findByHandle(ref));
    if (!tenant) throw new Error(`no shop with id or handle "${ref}"`);
    const limit = args.values.limit === undefined ? 50 : Number(args.values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 250) throw new Error('--limit must be an integer from 1 to 250');
    const ctx = RequestContext.forTenant(tenant.id, 'cli');
    const page = await app.get(AdminOrdersService).list(
      ctx,
      { limit, after: null, fingerprint: 'cli' },
      {
        status: args.values.status as string | undefined,
        financial_status: args.values['financial-status'] as string | undefined,
      },
    );
    const text =
      page.items.length === 0
        ? 'no orders'
        : page.items
            .map(
              (o) =>
                `#${o.number}  ${o.created_at}  ${o.status}/${o.financial_status}/${o.fulfillment_status}  ${o.total} ${o.currency}  ${o.email ?? '-'}  ${o.id}`,
            )
            .join('\n');
    return { json: { orders: page.items }, text };
  },
};
