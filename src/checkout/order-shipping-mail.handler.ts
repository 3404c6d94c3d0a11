import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context.js';
import { MailTransport } from '../customers/index.js';
import type { DomainEvent } from '../events/index.js';
import { Extensions } from '../extensions/index.js';
import { OnDomainEvent } from '../events/index.js';

/**
 * `notify_customer: true` on a fulfillment: the buyer gets a shipping notice by mail (kind `order_fulfilled`). Sent from
 * the outbox after the fulfillment committed, so a failed send is retried and never undoes the shipment.
 */
@Injectable()
export class OrderShippingMail {
  constructor(private readonly extensions: Extensions) {}

  /** The mail transport: an extension point, the last registered wins (built in: the customers' `MailModule`). */
  private get mail(): MailTransport {
    return this.extensions.one(MailTransport)!;
  }

  @OnDomainEvent('order.fulfilled')
  async notify(event: DomainEvent<'order.fulfilled'>, _ctx: RequestContext): Promise<void> {
    const { order, fulfillment, notify_customer } = event.payload;
    if (!notify_customer || !order?.email) return;
    const whole = order.fulfillment_status === 'fulfilled';
    const tracking = [fulfillment.carrier, fulfillment.tracking_number, fulfillment.tracking_url].filter(Boolean).join(' ');
    await this.mail.send({
      to: order.email,
      subject: `Your order ${order.number} has ${whole ? 'shipped' : 'partly shipped'}`,
      text: `Your order ${order.number} has ${whole ? 'shipped' : 'partly shipped'}.${tracking ? `\nTracking: ${tracking}` : ''}\n`,
      kind: 'order_fulfilled',
      data: { order_id: order.id, fulfillment_id: fulfillment.id, tracking_url: fulfillment.tracking_url ?? '' },
    });
  }
}
