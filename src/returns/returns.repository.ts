import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { returning } from '../common/db/returning.js';

export type ReturnStatus = 'requested' | 'approved' | 'received' | 'refunded' | 'rejected';

export interface ReturnLineData {
  line_id: string;
  quantity: number;
  reason: string | null;
  quantity_received: number;
  quantity_damaged: number;
  location_id: string | null;
}

export interface ReturnRow {
  id: string;
  order_id: string;
  status: ReturnStatus;
  requested_by: 'staff' | 'customer';
  lines: ReturnLineData[];
  note: string | null;
  rejected_reason: string | null;
  shipping_fee: string;
  refund_to: 'original' | 'store_credit' | null;
  refunded_amount: string;
  refund_id: string | null;
  created_at: Date;
  received_at: Date | null;
  refunded_at: Date | null;
}

export interface ClaimRow {
  id: string;
  order_id: string;
  type: 'replace' | 'refund';
  lines: Array<{ line_id: string; quantity: number; reason: string | null }>;
  reason: string | null;
  note: string | null;
  refund_id: string | null;
  replacement_order_id: string | null;
  created_at: Date;
}

/** The changeable part of a return. */
export interface ReturnPatch {
  status: ReturnStatus;
  lines: ReturnLineData[];
  rejectedReason: string | null;
  shippingFee: string;
  refundTo: string | null;
  refundedAmount: string;
  refundId: string | null;
}

const RETURN = `id, order_id, status, requested_by, lines, note, rejected_reason, shipping_fee, refund_to, refunded_amount, refund_id, created_at, received_at, refunded_at`;
const CLAIM = `id, order_id, type, lines, reason, note, refund_id, replacement_order_id, created_at`;

/** Every statement of the returns module (it owns `order_returns` and `order_claims`), on the caller's manager. */
@Injectable()
export class ReturnsRepository {
  async insert(m: EntityManager, tenantId: string, r: { orderId: string; requestedBy: 'staff' | 'customer'; lines: ReturnLineData[]; note: string | null }) {
    const [row] = await returning<ReturnRow>(
      m,
      `INSERT INTO order_returns (tenant_id, order_id, status, requested_by, lines, note) VALUES ($1, $2, 'requested', $3, $4::jsonb, $5) RETURNING ${RETURN}`,
      [tenantId, r.orderId, r.requestedBy, JSON.stringify(r.lines), r.note],
    );
    return row;
  }

  async ofOrder(m: EntityManager, tenantId: string, orderId: string): Promise<ReturnRow[]> {
    return m.query(`SELECT ${RETURN} FROM order_returns WHERE tenant_id = $1 AND order_id = $2 ORDER BY created_at, id`, [tenantId, orderId]);
  }

  /** The return, row-locked until the transaction ends (two staff receiving it at once serialize here). */
  async lock(m: EntityManager, tenantId: string, orderId: string, id: string): Promise<ReturnRow | null> {
    const rows: ReturnRow[] = await m.query(`SELECT ${RETURN} FROM order_returns WHERE tenant_id = $1 AND order_id = $2 AND id = $3 FOR UPDATE`, [
      tenantId,
      orderId,
      id,
    ]);
    return rows[0] ?? null;
  }

  async update(m: EntityManager, tenantId: string, id: string, patch: ReturnPatch): Promise<ReturnRow> {
    const [row] = await returning<ReturnRow>(
      m,
      `UPDATE order_returns SET status = $3, lines = $4::jsonb, rejected_reason = $5, shipping_fee = $6, refund_to = $7, refunded_amount = $8, refund_id = $9,
         received_at = CASE WHEN $3 = 'received' THEN now() ELSE received_at END, refunded_at = CASE WHEN $3 = 'refunded' THEN now() ELSE refunded_at END,
         updated_at = now()
       WHERE tenant_id = $1 AND id = $2 RETURNING ${RETURN}`,
      [tenantId, id, patch.status, JSON.stringify(patch.lines), patch.rejectedReason, patch.shippingFee, patch.refundTo, patch.refundedAmount, patch.refundId],
    );
    return row;
  }

  async insertClaim(
    m: EntityManager,
    tenantId: string,
    c: {
      orderId: string;
      type: 'replace' | 'refund';
      lines: ClaimRow['lines'];
      reason: string | null;
      note: string | null;
      refundId: string | null;
      replacementOrderId: string | null;
    },
  ): Promise<ClaimRow> {
    const [row] = await returning<ClaimRow>(
      m,
      `INSERT INTO order_claims (tenant_id, order_id, type, lines, reason, note, refund_id, replacement_order_id) VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8) RETURNING ${CLAIM}`,
      [tenantId, c.orderId, c.type, JSON.stringify(c.lines), c.reason, c.note, c.refundId, c.replacementOrderId],
    );
    return row;
  }

  async claimsOf(m: EntityManager, tenantId: string, orderId: string): Promise<ClaimRow[]> {
    return m.query(`SELECT ${CLAIM} FROM order_claims WHERE tenant_id = $1 AND order_id = $2 ORDER BY created_at, id`, [tenantId, orderId]);
  }
}
