import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { inTransaction, managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { isStockLocationOf, lockVariant, onHandAt, StockService } from '../catalogue/index.js';
import { InventoryLevelDto, mapInventoryLevel, MAX_LEVEL } from './dto/inventory-level.dto.js';

export const MAX_INVENTORY_ITEM_IDS = 250;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Inventory levels (SPEC "Inventory level", "Admin: inventory levels") over the stock ledger of the catalogue:
 * a level is the sum of a (variant, location) pair's movements; set and adjust append one movement each.
 * Both run in one transaction holding the variant's row lock (`StockService.recordMovement` takes it too), so
 * concurrent changes of one item serialize and none is lost.
 */
@Injectable()
export class InventoryService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly stock: StockService,
  ) {}

  /** GET: one row per stocked pair among the requested items (and locations). */
  async list(ctx: RequestContext, rawItemIds: unknown, rawLocationIds: unknown): Promise<InventoryLevelDto[]> {
    const itemIds = parseIds(rawItemIds, 'inventory_item_ids', true);
    const locationIds = rawLocationIds === undefined || rawLocationIds === '' ? undefined : parseIds(rawLocationIds, 'location_ids', false);
    if (locationIds && locationIds.length === 0) return [];
    const levels = await this.stock.levels(ctx, itemIds, locationIds);
    return levels.map(mapInventoryLevel);
  }

  /** POST set: writes a movement of the difference to the wanted on-hand. */
  set(ctx: RequestContext, variantId: string, locationId: string, available: number): Promise<InventoryLevelDto> {
    return this.change(ctx, variantId, locationId, (current) => available - current, 'admin set');
  }

  /** POST adjust: writes the delta. */
  adjust(ctx: RequestContext, variantId: string, locationId: string, delta: number): Promise<InventoryLevelDto> {
    return this.change(ctx, variantId, locationId, () => delta, 'admin adjust');
  }

  private change(ctx: RequestContext, variantId: string, locationId: string, deltaOf: (current: number) => number, reason: string): Promise<InventoryLevelDto> {
    return inTransaction(ctx, this.dataSource, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      // the row lock serializes every movement of this variant until commit
      if (!(await lockVariant(m, tx.tenantId, variantId))) throw AppError.notFound('inventory item');
      if (!(await isStockLocationOf(m, tx.tenantId, locationId))) throw AppError.notFound('location');
      const current = await onHandAt(m, tx.tenantId, variantId, locationId);
      const delta = roundMilli(deltaOf(current));
      if (Math.abs(current + delta) > MAX_LEVEL * 10) throw AppError.unprocessable('the resulting level is out of range');
      const onHand = await this.stock.recordMovement(tx, variantId, locationId, delta, reason);
      // recordMovement emits inventory_level.updated: one event per movement
      return mapInventoryLevel({ variantId, locationId, onHand });
    });
  }
}

function roundMilli(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/**
 * Comma-separated UUIDs; unparseable entries are dropped silently. `required`: 422 when missing, over the cap, or
 * when only unparseable ids were sent.
 */
export function parseIds(raw: unknown, name: string, required: boolean): string[] {
  if (raw === undefined || raw === null || raw === '') {
    if (required) throw AppError.unprocessable(`${name} is required`);
    return [];
  }
  const parts = (Array.isArray(raw) ? raw : [raw])
    .flatMap((v) => String(v).split(','))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (parts.length === 0 && required) throw AppError.unprocessable(`${name} is required`);
  if (parts.length > MAX_INVENTORY_ITEM_IDS) throw AppError.unprocessable(`${name} takes at most ${MAX_INVENTORY_ITEM_IDS} ids`);
  const ids = [...new Set(parts.filter((s) => UUID.test(s)).map((s) => s.toLowerCase()))];
  if (ids.length === 0 && required) throw AppError.unprocessable(`${name} holds no valid id`);
  return ids;
}
