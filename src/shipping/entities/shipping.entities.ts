import { Column, Entity } from 'typeorm';
import { TenantEntity, type Translations } from '../../common/db/base.entity.js';
import type { RateTable } from '../rate-table.js';
import type { MethodZone } from '../method-zones.js';

@Entity('shipping_methods')
export class ShippingMethod extends TenantEntity {
  @Column({ type: 'text' }) key: string;
  @Column({ type: 'jsonb' }) name: Translations;
  /** Default currency, in the shop's price basis. */
  @Column({ type: 'numeric', precision: 14, scale: 4 }) price: string;
  @Column({ type: 'numeric', precision: 6, scale: 3 }) taxRate: string;
  /** ISO country codes it ships to. */
  @Column({ type: 'text', array: true }) countries: string[];
  @Column({ type: 'numeric', precision: 14, scale: 4, nullable: true }) freeOver: string | null;
  @Column({ type: 'int', nullable: true }) deliveryDays: number | null;
  /** By bottle count, weight or order value (`rate-table.ts`); null: the flat `price`. */
  @Column({ type: 'jsonb', nullable: true }) rateTable: RateTable | null;
  @Column({ type: 'jsonb' }) zones: MethodZone[];
  /** The `ShippingRateProvider` asked first (carrier-calculated rates); null: none. */
  @Column({ type: 'text', nullable: true }) rateProvider: string | null;
  @Column({ type: 'text', nullable: true, select: false }) importHash: string | null;
}

/** Destination rules of one zone of the shop (`key`: the zone's key). */
@Entity('destination_rules')
export class DestinationRule extends TenantEntity {
  @Column({ type: 'text' }) key: string;
  @Column({ type: 'boolean' }) alcoholShipping: boolean;
  @Column({ type: 'numeric', precision: 12, scale: 3, nullable: true }) maxLitresPerOrder: string | null;
  @Column({ type: 'numeric', precision: 12, scale: 3, nullable: true }) maxLitresPerYear: string | null;
  @Column({ type: 'int', nullable: true }) minAge: number | null;
  @Column({ type: 'text', nullable: true, select: false }) importHash: string | null;
}

export const shippingEntities = [ShippingMethod, DestinationRule];
