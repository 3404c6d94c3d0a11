import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { firstStockLocationId, lockVariants, StockService, stockLevelsFullestFirst } from '../catalogue/index.js';
import { toMinor } from '../pricing/index.js';

export interface Movement {
  variantId: string;
  locationId: string;
  delta: number;
  onHand: number;
}

/** A quantity of a variant an order takes. */
export interface StockNeed {
  variant_id: string;
  quantity: number | string;
  track_inventory: boolean;
}

/** The stock an order takes (placement, and claim replacements: issue 33), through the stock ledger. */
@Injectable()
export class OrderStock {
  constructor(
    private readonly dataSource: DataSource,
    private readonly stock: StockService,
  ) {}

  /**
   * Locks the tracked variants (sorted by id), re-reads their on-hand and writes one negative movement per location
   * drawn from (fullest location first). Without backorder a shortfall is 422 `insufficient_stock`; with backorder the
   * remainder is drawn from the fullest (else the shop's first) location, going below zero.
   */
  async take(tx: RequestContext, lines: readonly StockNeed[], orderId: string): Promise<Movement[]> {
    const m = managerOf(tx, this.dataSource);
    const need = new Map<string, number>();
    for (const r of lines) if (r.track_inventory) need.set(r.variant_id, (need.get(r.variant_id) ?? 0) + toMinor(r.quantity, 3));
    if (need.size === 0) return [];
    const ids = [...need.keys()].sort();
    const locked = await lockVariants(m, tx.tenantId, ids);
    const levels = await stockLevelsFullestFirst(m, tx.tenantId, ids);
    const plan: Array<{ variantId: string; locationId: string; milli: number; before: number }> = [];
    let fallbackLocation: string | null | undefined;
    for (const v of locked) {
      if (!v.track_inventory) continue;
      const wanted = need.get(v.id)!;
      const mine = levels.filter((l) => l.variant_id === v.id).map((l) => ({ locationId: l.location_id, milli: toMinor(l.on_hand, 3) }));
      const onHand = mine.reduce((a, l) => a + l.milli, 0);
      if (onHand < wanted && !v.allow_backorder) {
        throw AppError.unprocessable(`not enough stock of ${v.sku ?? v.id}: ${Math.max(0, onHand) / 1000} left, ${wanted / 1000} wanted`, 'insufficient_stock');
      }
      let left = wanted;
      for (const l of mine) {
        if (left <= 0) break;
        const take = Math.min(left, Math.max(0, l.milli));
        if (take > 0) {
          plan.push({ variantId: v.id, locationId: l.locationId, milli: take, before: l.milli });
          left -= take;
        }
      }
      if (left > 0) {
        // backorder: the remainder goes below zero at the fullest location, else at the shop's first location
        let loc: string | null = mine[0]?.locationId ?? null;
        if (!loc) {
          if (fallbackLocation === undefined) {
            fallbackLocation = await firstStockLocationId(m, tx.tenantId);
          }
          loc = fallbackLocation ?? null;
        }
        if (loc) {
          const same = plan.find((p) => p.variantId === v.id && p.locationId === loc);
          if (same) same.milli += left;
          else plan.push({ variantId: v.id, locationId: loc, milli: left, before: mine.find((l) => l.locationId === loc)?.milli ?? 0 });
        }
      }
    }
    // the variants are locked and their levels read above: one batched write, no second lock or re-read per movement
    const moves = plan.map((p) => ({ variantId: p.variantId, locationId: p.locationId, delta: -p.milli / 1000, onHandBefore: p.before / 1000 }));
    const after = await this.stock.recordLockedMovements(tx, moves, `order ${orderId}`);
    return moves.map((mv, i) => ({ variantId: mv.variantId, locationId: mv.locationId, delta: mv.delta, onHand: after[i] }));
  }
}
