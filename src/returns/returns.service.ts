import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { isStockLocationOf, StockService } from '../catalogue/index.js';
import { AdminOrdersService, lineRefundParts, Order, OrderLifecycleService, OrderLine, OrderRefundsService } from '../checkout/index.js';
import { DomainEvents } from '../events/index.js';
import { fromMinor, minorToDecimalString, toMinor } from '../pricing/index.js';
import { TenancyService } from '../tenancy/index.js';
import type { CreateReturnDto, ReceiveReturnDto, RefundReturnDto, ReturnDto } from './dto/return.dto.js';
import { backMilli, CAN, milli, returnableMilli, withinWindow } from './return-rules.js';
import { ReturnLineData, ReturnPatch, ReturnRow, ReturnsRepository, ReturnStatus } from './returns.repository.js';

const DONE = { approve: 'approved', reject: 'rejected', receive: 'received', refund: 'refunded' } as const;
const NOT_ALLOWED = {
  approve: 'return_not_approvable',
  reject: 'return_not_rejectable',
  receive: 'return_not_receivable',
  refund: 'return_not_refundable',
} as const;

export function mapReturn(r: ReturnRow): ReturnDto {
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return {
    id: r.id,
    order_id: r.order_id,
    status: r.status,
    requested_by: r.requested_by,
    lines: r.lines,
    note: r.note,
    rejected_reason: r.rejected_reason,
    shipping_fee: Number(r.shipping_fee),
    refund_to: r.refund_to,
    refunded_amount: Number(r.refunded_amount),
    created_at: new Date(r.created_at).toISOString(),
    received_at: iso(r.received_at),
    refunded_at: iso(r.refunded_at),
  };
}

/**
 * Returns (RMA, issue 33): requested (by staff, or by the shopper within the shop's `return_window_days` of the last
 * shipment), approved or rejected, received (undamaged units back to stock at a location through the stock ledger,
 * damaged ones recorded), refunded through the order's refund rules or as store credit. Every step takes the order's
 * row lock first (the lock order of every order change), then the return's: two staff receiving one return at once
 * serialize, and the second sees it received (409), so stock moves once.
 */
@Injectable()
export class ReturnsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repo: ReturnsRepository,
    private readonly lifecycle: OrderLifecycleService,
    private readonly refunds: OrderRefundsService,
    private readonly orders: AdminOrdersService,
    private readonly stock: StockService,
    private readonly tenancy: TenancyService,
    private readonly events: DomainEvents,
  ) {}

  async list(ctx: RequestContext, orderId: string): Promise<ReturnDto[]> {
    await this.orders.get(ctx, orderId); // 404 for an unknown or foreign order
    return (await this.repo.ofOrder(managerOf(ctx, this.dataSource), ctx.tenantId, orderId)).map(mapReturn);
  }

  /** Staff (`customerId` null) or the order's shopper (404 for another's order; 422 `return_window_closed`). */
  async request(ctx: RequestContext, orderId: string, dto: CreateReturnDto, customerId: string | null): Promise<ReturnDto> {
    const window = customerId ? (await this.tenancy.config(ctx.tenantId)).settings.return_window_days : 0;
    return this.lifecycle.run(ctx, async (tx) => {
      const order = await this.lifecycle.lock(tx, orderId);
      if (customerId && order.customerId !== customerId) throw AppError.notFound('order');
      if (order.cancelledAt) throw AppError.conflict('the order is cancelled', 'order_cancelled');
      if (customerId) {
        const shipped = (await this.orders.present(tx, order)).fulfillments.map((f) => new Date(f.created_at));
        const last = shipped.length ? new Date(Math.max(...shipped.map((d) => d.getTime()))) : null;
        if (!withinWindow(last, window)) throw AppError.unprocessable(`returns are accepted within ${window} days of delivery`, 'return_window_closed');
      }
      const m = managerOf(tx, this.dataSource);
      const lines = new Map((await this.lifecycle.lines(tx, order.id)).map((l) => [l.id, l]));
      const existing = await this.repo.ofOrder(m, tx.tenantId, order.id);
      const seen = new Set<string>();
      const data: ReturnLineData[] = dto.lines.map((input, i) => {
        const line = lines.get(input.line_id);
        if (!line) throw AppError.unprocessable(`lines[${i}].line_id names no line of this order`);
        if (seen.has(line.id)) throw AppError.unprocessable(`lines[${i}].line_id appears twice`);
        seen.add(line.id);
        const left = returnableMilli(milli(line.fulfilledQuantity), line.id, existing);
        if (milli(input.quantity) > left)
          throw AppError.unprocessable(`lines[${i}].quantity exceeds what was shipped and not yet returned (${Math.max(0, left) / 1000})`);
        return { line_id: line.id, quantity: input.quantity, reason: input.reason ?? null, quantity_received: 0, quantity_damaged: 0, location_id: null };
      });
      const row = await this.repo.insert(m, tx.tenantId, {
        orderId: order.id,
        requestedBy: customerId ? 'customer' : 'staff',
        lines: data,
        note: dto.note ?? null,
      });
      await this.emit(tx, 'return.requested', row);
      return mapReturn(row);
    });
  }

  approve(ctx: RequestContext, orderId: string, id: string): Promise<ReturnDto> {
    return this.step(ctx, orderId, id, 'approve', async (tx, r) => this.save(tx, r, { status: 'approved' }));
  }

  reject(ctx: RequestContext, orderId: string, id: string, reason: string | null): Promise<ReturnDto> {
    return this.step(ctx, orderId, id, 'reject', async (tx, r) => {
      const row = await this.save(tx, r, { status: 'rejected', rejectedReason: reason });
      await this.emit(tx, 'return.rejected', row);
      return row;
    });
  }

  /** Undamaged units back to stock at their location (through the ledger, variants in id order); damaged ones recorded. */
  receive(ctx: RequestContext, orderId: string, id: string, dto: ReceiveReturnDto): Promise<ReturnDto> {
    return this.step(ctx, orderId, id, 'receive', async (tx, r, order) => {
      const m = managerOf(tx, this.dataSource);
      const orderLines = new Map((await this.lifecycle.lines(tx, order.id)).map((l) => [l.id, l]));
      const lines = r.lines.map((l) => ({ ...l }));
      const moves: Array<{ line: OrderLine; location: string; quantity: number }> = [];
      for (const [i, input] of dto.lines.entries()) {
        const l = lines.find((x) => x.line_id === input.line_id);
        if (!l) throw AppError.unprocessable(`lines[${i}].line_id names no line of this return`);
        const received = milli(input.quantity_received);
        const damaged = milli(input.quantity_damaged ?? 0);
        if (received + damaged > milli(l.quantity))
          throw AppError.unprocessable(`lines[${i}]: quantity_received + quantity_damaged exceed the quantity returned (${l.quantity})`);
        if (received > 0 && !input.location_id) throw AppError.unprocessable(`lines[${i}].location_id is required to restock the units received`);
        if (input.location_id && !(await isStockLocationOf(m, tx.tenantId, input.location_id)))
          throw AppError.unprocessable(`lines[${i}].location_id names no stock location of this shop`);
        l.quantity_received = received / 1000;
        l.quantity_damaged = damaged / 1000;
        l.location_id = input.location_id ?? null;
        const line = orderLines.get(l.line_id);
        if (received > 0 && line?.variantId) moves.push({ line, location: input.location_id!, quantity: received / 1000 });
      }
      for (const mv of moves.sort((a, b) => a.line.variantId!.localeCompare(b.line.variantId!)))
        await this.stock.recordMovement(tx, mv.line.variantId!, mv.location, mv.quantity, `return ${r.id}`);
      const row = await this.save(tx, r, { status: 'received', lines });
      await this.emit(tx, 'return.received', row);
      return row;
    });
  }

  /** What came back (received and damaged units), as charged, less the return shipping fee; to the original payment or as store credit. */
  refund(ctx: RequestContext, orderId: string, id: string, dto: RefundReturnDto): Promise<ReturnDto> {
    return this.step(ctx, orderId, id, 'refund', async (tx, r, order) => {
      const p = order.currencyPrecision;
      const to = dto.refund_to ?? 'original';
      if (to === 'store_credit' && !order.customerId)
        throw AppError.unprocessable('refund_to store_credit needs an order of a customer account', 'store_credit_needs_customer');
      const orderLines = new Map((await this.lifecycle.lines(tx, order.id)).map((l) => [l.id, l]));
      const back = r.lines.filter((l) => backMilli(l) > 0);
      // as charged: the goods, and on an order taxed by destination their excise and its VAT (issue 31; 0 elsewhere)
      const worth = back.reduce((a, l) => a + lineRefundParts(order, orderLines.get(l.line_id)!, backMilli(l)).amount, 0);
      const fee = toMinor(dto.shipping_fee ?? 0, p);
      if (fee > worth) throw AppError.unprocessable(`shipping_fee exceeds what the returned units are worth (${fromMinor(worth, p)})`);
      let refundId: string | null = null;
      if (worth - fee > 0) {
        const after = await this.refunds.create(
          tx,
          order.id,
          {
            lines: back.map((l) => ({ line_id: l.line_id, quantity: backMilli(l) / 1000, restock: false })),
            amount: fromMinor(worth - fee, p),
            note: dto.note ?? `return ${r.id}`,
          },
          { storeCreditCustomerId: to === 'store_credit' ? order.customerId : null },
        );
        refundId = (await this.orders.present(tx, after)).refunds.at(-1)?.id ?? null;
      }
      const row = await this.save(tx, r, {
        status: 'refunded',
        shippingFee: minorToDecimalString(fee, p),
        refundTo: to,
        refundedAmount: minorToDecimalString(worth - fee, p),
        refundId,
      });
      await this.emit(tx, 'return.refunded', row);
      return row;
    });
  }

  /** Locks the order, then the return; 404 for an unknown one, 409 (`return_<step>_not_allowed`) when its status forbids the step. */
  private step(
    ctx: RequestContext,
    orderId: string,
    id: string,
    step: keyof typeof CAN,
    work: (tx: RequestContext, r: ReturnRow, order: Order) => Promise<ReturnRow>,
  ): Promise<ReturnDto> {
    return this.lifecycle.run(ctx, async (tx) => {
      const order = await this.lifecycle.lock(tx, orderId);
      const r = await this.repo.lock(managerOf(tx, this.dataSource), tx.tenantId, order.id, id);
      if (!r) throw AppError.notFound('return');
      if (!(CAN[step] as readonly ReturnStatus[]).includes(r.status))
        throw AppError.conflict(`the return is ${r.status}: it cannot be ${DONE[step]}`, NOT_ALLOWED[step]);
      return mapReturn(await work(tx, r, order));
    });
  }

  private save(tx: RequestContext, r: ReturnRow, patch: Partial<ReturnPatch>): Promise<ReturnRow> {
    return this.repo.update(managerOf(tx, this.dataSource), tx.tenantId, r.id, {
      status: patch.status ?? r.status,
      lines: patch.lines ?? r.lines,
      rejectedReason: patch.rejectedReason !== undefined ? patch.rejectedReason : r.rejected_reason,
      shippingFee: patch.shippingFee ?? r.shipping_fee,
      refundTo: patch.refundTo !== undefined ? patch.refundTo : r.refund_to,
      refundedAmount: patch.refundedAmount ?? r.refunded_amount,
      refundId: patch.refundId !== undefined ? patch.refundId : r.refund_id,
    });
  }

  private emit(tx: RequestContext, topic: 'return.requested' | 'return.received' | 'return.refunded' | 'return.rejected', r: ReturnRow) {
    const dto = mapReturn(r);
    return this.events.emit(tx, topic, {
      return: {
        id: dto.id,
        order_id: dto.order_id,
        status: dto.status,
        requested_by: dto.requested_by,
        lines: dto.lines,
        refund_to: dto.refund_to,
        refunded_amount: dto.refunded_amount,
      },
    });
  }
}
