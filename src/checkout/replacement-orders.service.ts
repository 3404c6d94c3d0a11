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
    const [counter] = await m.query(
      `INSERT INTO order_counters (tenant_id, last_number) VALUES ($1, 1)
       ON CONFLICT (tenant_id) DO UPDATE SET last_number = order_counters.last_number + 1 RETURNING last_number`,
      [tx.tenantId],
    );
    const number = String(counter.last_number);
    await m.query(
      `INSERT INTO orders (id, tenant_id, customer_id, number, hash, status, payment_status, payment_provider, currency_code, currency_precision, price_includes_tax,
         subtotal, total, email, language, shipping_address, billing_address, financial_status, paid_at, note, replacement_for)
       SELECT $3, tenant_id, customer_id, $4, $5, 'Open', 'paid', 'replacement', currency_code, currency_precision, price_includes_tax,
         0, 0, email, language, shipping_address, billing_address, 'paid', now(), $6, id
       FROM orders WHERE tenant_id = $1 AND id = $2`,
      [tx.tenantId, original.id, orderId, number, randomBytes(24).toString('base64url'), `replacement for order #${original.number}`],
    );
    await m.query(
      `INSERT INTO order_lines (tenant_id, order_id, position, variant_id, product_id, title, sku, description, image_url, quantity, tax_rate, unit_price, unit_price_with_tax, line_total, line_total_with_tax)
       SELECT l.tenant_id, $3, row_number() OVER (ORDER BY l.position) - 1, l.variant_id, l.product_id, l.title, l.sku, l.description, l.image_url, p.quantity, l.tax_rate, 0, 0, 0, 0
       FROM order_lines l JOIN unnest($4::uuid[], $5::numeric[]) AS p(line_id, quantity) ON p.line_id = l.id
       WHERE l.tenant_id = $1 AND l.order_id = $2`,
      [tx.tenantId, original.id, orderId, chosen.map((c) => c.line.id), chosen.map((c) => c.quantity.toFixed(3))],
    );
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
