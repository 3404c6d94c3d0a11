import type { CliCommand } from '../extensions/index.js';
import { RequestContext } from '../common/context/request-context.js';
import { TenancyService } from '../tenancy/index.js';
import { GiftCardsService } from './gift-cards.service.js';

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** `gift-cards issue --tenant T --value 50 [--currency CHF] [--expires-at ISO] [--note N] [--customer ID] [--json]` (issue 33). */
export const giftCardsIssueCommand: CliCommand = {
  name: 'gift-cards issue',
  usage: 'gift-cards issue --tenant ID --value AMOUNT [--currency CHF] [--expires-at 2027-12-31T23:59:59Z] [--note TEXT] [--customer ID]',
  options: {
    tenant: { type: 'string' },
    value: { type: 'string' },
    currency: { type: 'string' },
    'expires-at': { type: 'string' },
    note: { type: 'string' },
    customer: { type: 'string' },
  },
  async run(app, args) {
    const ref = str(args.values.tenant);
    if (!ref) throw new Error('--tenant is required');
    const tenancy = app.get(TenancyService);
    const tenant = (await tenancy.findById(ref)) ?? (await tenancy.findByHandle(ref));
    if (!tenant) throw new Error(`no shop with id or handle "${ref}"`);
    const value = Number(str(args.values.value));
    if (!Number.isFinite(value) || value <= 0 || value > 1_000_000) throw new Error('--value must be an amount above 0 (at most 1000000)');
    const expiresAt = str(args.values['expires-at']);
    if (expiresAt && Number.isNaN(Date.parse(expiresAt))) throw new Error('--expires-at must be an ISO 8601 date-time');
    const card = await app.get(GiftCardsService).create(RequestContext.forTenant(tenant.id, 'cli'), {
      initial_value: value,
      currency: str(args.values.currency),
      expires_at: expiresAt ?? null,
      note: str(args.values.note) ?? null,
      customer_id: str(args.values.customer) ?? null,
    });
    return { json: { gift_card: card }, text: `gift card ${card.id}: ${card.initial_value} ${card.currency}\ncode (shown once): ${card.code}` };
  },
};
