import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { giftCardVariantIds } from '../catalogue/index.js';
import type { DomainEvent } from '../events/index.js';
import { OnDomainEvent } from '../events/index.js';
import { GiftCardSales, GiftCardSaleUnit } from '../gift-cards/index.js';
import type { OrderLine } from './entities/checkout.entities.js';
import { OrderFulfillmentsService } from './order-fulfillments.service.js';
import { OrderLifecycleService, unshippedMilli } from './order-lifecycle.service.js';

/**
 * Gift cards sold as products (issue 33): when an order becomes `paid` (`order.paid` from the outbox, after the
 * payment committed), each unit of a line whose variant is flagged `gift_card` issues one card worth the unit's
 * price as charged (tax included) in the order's currency, mailed to the order's e-mail; the gift card lines are
 * then fulfilled (carrier `email`): they ship nothing. Under the order's row lock, so a cancel running at the same
 * moment either comes first (nothing is issued) or waits. Running twice issues nothing twice (GiftCardSales).
 */
@Injectable()
export class GiftCardSalesHandler {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lifecycle: OrderLifecycleService,
    private readonly fulfillments: OrderFulfillmentsService,
    private readonly sales: GiftCardSales,
  ) {}

  @OnDomainEvent('order.paid')
  async issue(event: DomainEvent<'order.paid'>, ctx: RequestContext): Promise<void> {
    if (event.payload.order.financial_status !== 'paid') return;
    if ((await this.giftCardLines(ctx, event.payload.order.id)).length === 0) return; // most orders: no lock taken
    await this.lifecycle.run(ctx, async (tx) => {
      const order = await this.lifecycle.lock(tx, event.payload.order.id);
      if (order.cancelledAt) return;
      const sold = await this.giftCardLines(tx, order.id);
      if (sold.length === 0) return;
      const units: GiftCardSaleUnit[] = sold.flatMap((l) =>
        Array.from({ length: kept(l) }, (_, i) => ({
          orderLineId: l.id,
          unit: i + 1,
          value: Number(l.unitPriceWithTax),
          title: l.title,
        })),
      );
      await this.sales.issue(
        tx,
        { id: order.id, number: String(order.number), email: order.email, customerId: order.customerId, currency: order.currencyCode },
        units,
      );
      const left = sold.filter((l) => unshippedMilli(l) > 0);
      if (left.length > 0)
        await this.fulfillments.create(tx, order.id, { lines: left.map((l) => ({ line_id: l.id, quantity: unshippedMilli(l) / 1000 })), carrier: 'email' });
    });
  }

  /**
   * A cancel or a refund gives the money for gift card units back: their cards (issued or not yet) must not stay
   * spendable. The cards beyond what is left unrefunded of each line (all of them once the order is cancelled) are
   * disabled and what is left on them expires. Computed from the lines' state, so it agrees with `issue` in whatever
   * order the two handlers run.
   */
  @OnDomainEvent('order.cancelled')
  async cancelled(event: DomainEvent<'order.cancelled'>, ctx: RequestContext): Promise<void> {
    await this.revoke(ctx, event.payload.order.id, `order #${event.payload.order.number} cancelled`);
  }

  @OnDomainEvent('order.refunded')
  async refunded(event: DomainEvent<'order.refunded'>, ctx: RequestContext): Promise<void> {
    await this.revoke(ctx, event.payload.order.id, `refunded with order #${event.payload.order.number}`);
  }

  private async revoke(ctx: RequestContext, orderId: string, note: string): Promise<void> {
    if ((await this.giftCardLines(ctx, orderId)).length === 0) return;
    await this.lifecycle.run(ctx, async (tx) => {
      const order = await this.lifecycle.lock(tx, orderId);
      for (const l of await this.giftCardLines(tx, order.id)) await this.sales.revoke(tx, l.id, order.cancelledAt ? 0 : kept(l), note);
    });
  }

  private async giftCardLines(tx: RequestContext, orderId: string): Promise<OrderLine[]> {
    const lines = await this.lifecycle.lines(tx, orderId);
    const flagged = await giftCardVariantIds(
      managerOf(tx, this.dataSource),
      tx.tenantId,
      lines.flatMap((l) => (l.variantId ? [l.variantId] : [])),
    );
    return lines.filter((l) => l.variantId && flagged.has(l.variantId));
  }
}

/** Whole units of a line not refunded: the units that keep a card. */
function kept(l: OrderLine): number {
  return Math.max(0, Math.floor(Number(l.quantity) - Number(l.refundedQuantity)));
}
