import { IsNumber, IsUUID, Max, Min } from 'class-validator';

const AMOUNT = { allowNaN: false, allowInfinity: false, maxDecimalPlaces: 3 };
/** numeric(14,3) holds up to 99,999,999,999.999; stay well inside it. */
export const MAX_LEVEL = 1_000_000_000;

/** SPEC "Inventory level": on-hand of one (variant, location) pair, computed from the stock ledger. */
export class InventoryLevelDto {
  /** The storefront variant id. */
  inventory_item_id: string;
  /** A stock location id. */
  location_id: string;
  /** On-hand quantity (sum of the ledger's movements). */
  available: number;
}

/** POST /admin/inventory_levels/set: the absolute on-hand; a movement of the difference is written. */
export class SetInventoryLevelDto {
  @IsUUID()
  inventory_item_id: string;

  @IsUUID()
  location_id: string;

  /** Absolute on-hand, 0..1e9, up to 3 decimals. */
  @IsNumber(AMOUNT)
  @Min(0)
  @Max(MAX_LEVEL)
  available: number;
}

/** POST /admin/inventory_levels/adjust: a delta (negative decreases). */
export class AdjustInventoryLevelDto {
  @IsUUID()
  inventory_item_id: string;

  @IsUUID()
  location_id: string;

  /** Delta, -1e9..1e9, up to 3 decimals. */
  @IsNumber(AMOUNT)
  @Min(-MAX_LEVEL)
  @Max(MAX_LEVEL)
  available_adjustment: number;
}

export function mapInventoryLevel(l: { variantId: string; locationId: string; onHand: number }): InventoryLevelDto {
  return { inventory_item_id: l.variantId, location_id: l.locationId, available: l.onHand };
}
