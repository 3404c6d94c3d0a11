import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { AdminOrdersService, OrderLifecycleService, OrderRefundsService, ReplacementOrders } from '../checkout/index.js';
import type { ClaimDto, CreateClaimDto } from './dto/return.dto.js';
import { ClaimRow, ReturnsRepository } from './returns.repository.js';

export function mapClaim(c: ClaimRow): ClaimDto {
  return { ...c, created_at: new Date(c.created_at).toISOString() };
}

/**
 * Claims (breakage in transit, wrong item; issue 33): a `refund` claim refunds the lines through the order's refund
 * rules (what they cost as charged) without a return, to the original payment or as store credit; a `replace` claim
 * ships a zero-priced replacement order linked to the original. Both under the original's row lock.
 */
@Injectable()
export class ClaimsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repo: ReturnsRepository,
    private readonly lifecycle: OrderLifecycleService,
    private readonly refunds: OrderRefundsService,
    private readonly orders: AdminOrdersService,
    private readonly replacements: ReplacementOrders,
  ) {}

  async list(ctx: RequestContext, orderId: string): Promise<ClaimDto[]> {
    await this.orders.get(ctx, orderId);
    return (await this.repo.claimsOf(managerOf(ctx, this.dataSource), ctx.tenantId, orderId)).map(mapClaim);
  }

  create(ctx: RequestContext, orderId: string, dto: CreateClaimDto): Promise<ClaimDto> {
    return this.lifecycle.run(ctx, async (tx) => {
      const order = await this.lifecycle.lock(tx, orderId);
      if (order.cancelledAt) throw AppError.conflict('the order is cancelled', 'order_cancelled');
      const lines = dto.lines.map((l) => ({ line_id: l.line_id, quantity: l.quantity, reason: l.reason ?? null }));
      if (dto.type === 'replace') {
        const replacement = await this.replacements.place(tx, order, lines);
        const row = await this.repo.insertClaim(managerOf(tx, this.dataSource), tx.tenantId, {
          orderId: order.id,
          type: 'replace',
          lines,
          reason: dto.reason ?? null,
          note: dto.note ?? null,
          refundId: null,
          replacementOrderId: replacement.id,
        });
        return mapClaim(row);
      }
      if (dto.refund_to === 'store_credit' && !order.customerId)
        throw AppError.unprocessable('refund_to store_credit needs an order of a customer account', 'store_credit_needs_customer');
      const after = await this.refunds.create(
        tx,
        order.id,
        { lines: dto.lines.map((l) => ({ line_id: l.line_id, quantity: l.quantity, restock: false })), note: dto.note ?? dto.reason ?? 'claim' },
        { storeCreditCustomerId: dto.refund_to === 'store_credit' ? order.customerId : null },
      );
      const refundId = (await this.orders.present(tx, after)).refunds.at(-1)?.id ?? null;
      const row = await this.repo.insertClaim(managerOf(tx, this.dataSource), tx.tenantId, {
        orderId: order.id,
        type: dto.type,
        lines,
        reason: dto.reason ?? null,
        note: dto.note ?? null,
        refundId,
        replacementOrderId: null,
      });
      return mapClaim(row);
    });
  }
}
