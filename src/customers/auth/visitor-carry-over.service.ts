import { Injectable, Logger } from '@nestjs/common';
import type { RequestContext } from '../../common/context/request-context.js';
import { Extensions, VisitorCarryOverParticipant } from '../../extensions/index.js';

/**
 * Sign-in carries the anonymous visitor's cart and wishlist over to the shopper (CONTRACT 3): every
 * `VisitorCarryOverParticipant` extension provider (built in: cart, wishlist), so an app built without the cart or
 * wishlist module still signs in. A failing merge never fails the sign-in: the visitor's rows stay where they were
 * and the next sign-in retries.
 */
@Injectable()
export class VisitorCarryOverService {
  private readonly logger = new Logger(VisitorCarryOverService.name);

  constructor(private readonly extensions: Extensions) {}

  async carryOver(ctx: RequestContext, visitorId: string | null, customerId: string): Promise<void> {
    if (!visitorId) return;
    for (const participant of this.extensions.all(VisitorCarryOverParticipant)) {
      try {
        await participant.mergeVisitorIntoCustomer(ctx, visitorId, customerId);
      } catch (err) {
        this.logger.warn({ err, tenant_id: ctx.tenantId }, `could not carry the visitor's ${participant.name} over at sign-in`);
      }
    }
  }
}
