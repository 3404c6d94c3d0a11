import { DomainEvents } from '../events/index.js';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { inTransaction, managerOf } from '../common/db/tenant-scope.js';
import { onHandAt } from './catalogue.repository.js';
import { insertStockMovement, lockVariantForMovement, onHandByVariant, stockLevels } from './repositories/stock.repository.js';
import { SearchIndexService } from './search-index.service.js';

/** A movement of a variant already locked by the caller, with the pair's on-hand read under that lock. */
export interface LockedMovement {
  variantId: string;
  locationId: string;
  delta: number;
  onHandBefore: number;
}

export interface StockLevel {
  variantId: string;
  locationId: string;
  onHand: number;
}

/**
 * Stock as a ledger (`stock_movements`): on-hand of a (variant, location) is the sum of its deltas, never a stored
 * column. The import, the inventory endpoints and checkout all write through `recordMovement`.
 */
@Injectable()
export class StockService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly search: SearchIndexService,
    private readonly events: DomainEvents,
  ) {}

  /** Total on-hand per variant over every location (0 for a variant without movements). */
  async onHand(ctx: RequestContext, variantIds: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>(variantIds.map((id) => [id, 0]));
    if (variantIds.length === 0) return out;
    const rows = await onHandByVariant(managerOf(ctx, this.dataSource), ctx.tenantId, variantIds);
    for (const r of rows) out.set(r.variant_id, Number(r.on_hand));
    return out;
  }

  /** On-hand per stocked (variant, location) pair; `locationIds` narrows the locations. */
  async levels(ctx: RequestContext, variantIds: string[], locationIds?: string[]): Promise<StockLevel[]> {
    if (variantIds.length === 0) return [];
    const rows = await stockLevels(managerOf(ctx, this.dataSource), ctx.tenantId, variantIds, locationIds);
    return rows.map((r) => ({ variantId: r.variant_id, locationId: r.location_id, onHand: Number(r.on_hand) }));
  }

  /**
   * Appends several movements of variants whose rows the caller's transaction has locked already and whose on-hand
   * per (variant, location) it read under that lock (`onHandBefore`): one statement for all (the insert, the
   * availability refresh and the index delta), and each pair's resulting on-hand computed, not re-read (order placement: issue 34 removed the second
   * lock and the re-read per movement). Each movement emits its `inventory_level.updated`, as `recordMovement` does.
   */
  async recordLockedMovements(tx: RequestContext, moves: readonly LockedMovement[], reason: string): Promise<number[]> {
    const moving = moves.filter((mv) => mv.delta !== 0);
    if (moving.length === 0) return moves.map((mv) => mv.onHandBefore);
    // the movements, the availability and the index delta in one statement (issue 34)
    await this.search.recordLockedMovements(tx, reason, moving);
    const after: number[] = [];
    for (const mv of moves) {
      // thousandths, as the ledger's numeric(…,3) sums them: no binary drift in the reported level
      const available = Math.round((mv.onHandBefore + mv.delta) * 1000) / 1000;
      after.push(available);
      if (mv.delta !== 0)
        await this.events.emit(tx, 'inventory_level.updated', {
          inventory_level: { inventory_item_id: mv.variantId, location_id: mv.locationId, available },
          reason,
        });
    }
    return after;
  }

  /**
   * Appends a movement and returns the pair's resulting on-hand. The variant row is locked for the transaction, so
   * concurrent movements of one variant serialize (no lost update; a caller can check a floor before writing).
   */
  async recordMovement(ctx: RequestContext, variantId: string, locationId: string, delta: number, reason: string): Promise<number> {
    return inTransaction(ctx, this.dataSource, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      await lockVariantForMovement(m, tx.tenantId, variantId);
      if (delta !== 0) {
        await insertStockMovement(m, tx.tenantId, variantId, locationId, delta, reason);
        await this.search.refreshAvailability(tx, [variantId]);
      }
      const available = await onHandAt(m, tx.tenantId, variantId, locationId);
      if (delta !== 0)
        await this.events.emit(tx, 'inventory_level.updated', {
          inventory_level: { inventory_item_id: variantId, location_id: locationId, available },
          reason,
        });
      return available;
    });
  }
}
