import { Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { DomainEvents } from '../events/index.js';
import { toMinor } from '../pricing/index.js';
import type { Order, OrderLine } from './entities/checkout.entities.js';
import { OrderLifecycleService } from './order-lifecycle.service.js';
import { OrderStock } from './order-stock.js';
import { insertReplacementLines, insertReplacementOrder, nextOrderNumber } from './checkout.repository.js';

/**
 * A claim's replacement (breakage, wrong item; issue 33): a new order priced at zero, linked to the original
 * (`replacement_for`), for the same buyer and addresses, its stock taken through the ledger like any order (422
 * `insufficient_stock`), then fulfilled as usual. Runs in the caller's transaction, which holds the original's row
 * lock; the variants are locked after it, in id order, like every order change.
 */
@Injectable()
export class ReplacementOrders {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lifecycle: OrderLifecycleService,
    private readonly orderStock: OrderStock,
    private readonly events: DomainEvents,
  ) {}

  async place(tx: RequestContext, original: Order, parts: Array<{ line_id: string; quantity: number }>): Promise<{ id: string; number: string }> {
    const byId = new Map((await this.lifecycle.lines(tx, original.id)).map((l) => [l.id, l]));
    const chosen: Array<{ line: OrderLine; quantity: number }> = parts.map((p, i) => {
      const line = byId.get(p.line_id);
      if (!line) throw AppError.unprocessable(`lines[${i}].line_id names no line of this order`);
      if (toMinor(p.quantity, 3) > toMinor(line.quantity, 3))
        throw AppError.unprocessable(`lines[${i}].quantity exceeds the quantity ordered (${Number(line.quantity)})`);
      return { line, quantity: p.quantity };
    });
    const orderId = randomUUID();
    await this.orderStock.take(
      tx,
      chosen.filter((c) => c.line.variantId).map((c) => ({ variant_id: c.line.variantId!, quantity: c.quantity, track_inventory: true })),
      orderId,
    );
    const m = managerOf(tx, this.dataSource);
    const number = await nextOrderNumber(m, tx.tenantId);
    await insertReplacementOrder(m, tx.tenantId, {
      originalId: original.id,
      orderId,
      number,
      hash: randomBytes(24).toString('base64url'),
      note: `replacement for order #${original.number}`,
    });
    await insertReplacementLines(m, tx.tenantId, {
      originalId: original.id,
      orderId,
      lines: chosen.map((c) => ({ lineId: c.line.id, quantity: c.quantity.toFixed(3) })),
    });
    await this.events.emit(tx, 'order.placed', {
      order: {
        id: orderId,
        number,
        customer_id: original.customerId,
        email: original.email,
        total: 0,
        currency: original.currencyCode,
        payment_type: null,
        checkout_token: '',
      },
    });
    return { id: orderId, number };
  }
}
