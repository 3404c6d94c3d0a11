import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';
import type { Translations } from '../../common/db/base.entity.js';

/** Catalogue rows. Written by the import (raw, batched SQL); entities serve other modules' reads. */

@Entity('manufacturers')
export class Manufacturer extends TenantEntity {
  @Column({ type: 'text' }) key: string;
  @Column({ type: 'text', nullable: true }) name: string | null;
  @Column({ type: 'text', nullable: true }) logoUrl: string | null;
  @Column({ type: 'text', nullable: true, select: false }) importHash: string | null;
}

@Entity('categories')
export class Category extends TenantEntity {
  @Column({ type: 'text' }) key: string;
  @Column({ type: 'jsonb' }) name: Translations;
  @Column({ type: 'uuid', nullable: true }) parentId: string | null;
  /** Ancestors root first, ending with this category. */
  @Column({ type: 'uuid', array: true }) path: string[];
  @Column({ type: 'int' }) position: number;
  @Column({ type: 'text', nullable: true, select: false }) importHash: string | null;
}

export const FACET_DIMENSIONS = ['colors', 'regions', 'sizes', 'years', 'countries'] as const;
export type FacetDimension = (typeof FACET_DIMENSIONS)[number];

@Entity('facet_values')
export class FacetValue extends TenantEntity {
  @Column({ type: 'text' }) dimension: FacetDimension;
  @Column({ type: 'text' }) key: string;
  @Column({ type: 'jsonb' }) name: Translations;
  @Column({ type: 'int' }) position: number;
  @Column({ type: 'text', nullable: true, select: false }) importHash: string | null;
}

@Entity('custom_fields')
export class CustomField extends TenantEntity {
  @Column({ type: 'text' }) key: string;
  @Column({ type: 'jsonb' }) label: Translations;
  @Column({ type: 'text', nullable: true }) type: string | null;
  @Column({ type: 'int' }) position: number;
  @Column({ type: 'text', nullable: true, select: false }) importHash: string | null;
}

@Entity('custom_field_options')
export class CustomFieldOption extends TenantEntity {
  @Column({ type: 'uuid' }) fieldId: string;
  @Column({ type: 'text' }) key: string;
  @Column({ type: 'jsonb' }) name: Translations;
  @Column({ type: 'text', nullable: true }) value: string | null;
  @Column({ type: 'int' }) position: number;
  @Column({ type: 'text', nullable: true, select: false }) importHash: string | null;
}

@Entity('flags')
export class Flag extends TenantEntity {
  @Column({ type: 'text' }) key: string;
  @Column({ type: 'jsonb' }) name: Translations;
  @Column({ type: 'text', nullable: true }) color: string | null;
  @Column({ type: 'text', nullable: true, select: false }) importHash: string | null;
}

@Entity('stock_locations')
export class StockLocation extends TenantEntity {
  @Column({ type: 'text' }) key: string;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'text', nullable: true, select: false }) importHash: string | null;
}

@Entity('products')
export class Product extends TenantEntity {
  @Column({ type: 'text' }) key: string;
  @Column({ type: 'text', nullable: true }) handle: string | null;
  @Column({ type: 'jsonb' }) title: Translations;
  @Column({ type: 'jsonb' }) bodyHtml: Translations;
  @Column({ type: 'jsonb' }) summaryHtml: Translations;
  @Column({ type: 'uuid', nullable: true }) manufacturerId: string | null;
  @Column({ type: 'uuid', array: true }) categoryIds: string[];
  @Column({ type: 'uuid', nullable: true }) flagId: string | null;
  @Column({ type: 'text', array: true }) tags: string[];
  @Column({ type: 'boolean' }) published: boolean;
  @Column({ type: 'numeric', precision: 4, scale: 2 }) rating: string;
  @Column({ type: 'int' }) ratingCount: number;
  /** Set when deleted with order history: kept unpublished for the orders' sake. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) archivedAt: Date | null;
  @Column({ type: 'text', nullable: true, select: false }) importHash: string | null;
}

@Entity('variants')
export class Variant extends TenantEntity {
  @Column({ type: 'uuid' }) productId: string;
  @Column({ type: 'text' }) key: string;
  @Column({ type: 'text', nullable: true }) handle: string | null;
  @Column({ type: 'text', nullable: true }) sku: string | null;
  @Column({ type: 'jsonb' }) title: Translations;
  @Column({ type: 'int' }) position: number;
  /** As imported: default currency, gross when the shop's prices include tax, net otherwise. */
  @Column({ type: 'numeric', precision: 14, scale: 4 }) price: string;
  @Column({ type: 'numeric', precision: 14, scale: 4, nullable: true }) compareAtPrice: string | null;
  /** Gross and net in the default currency; other currencies derive by rate. */
  @Column({ type: 'numeric', precision: 14, scale: 4 }) gross: string;
  @Column({ type: 'numeric', precision: 14, scale: 4 }) net: string;
  @Column({ type: 'numeric', precision: 14, scale: 4, nullable: true }) compareAtGross: string | null;
  @Column({ type: 'numeric', precision: 6, scale: 3 }) taxRate: string;
  @Column({ type: 'boolean' }) published: boolean;
  @Column({ type: 'boolean' }) active: boolean;
  @Column({ type: 'uuid', nullable: true }) colorId: string | null;
  @Column({ type: 'uuid', nullable: true }) regionId: string | null;
  @Column({ type: 'uuid', nullable: true }) yearId: string | null;
  @Column({ type: 'uuid', nullable: true }) sizeId: string | null;
  @Column({ type: 'uuid', nullable: true }) countryId: string | null;
  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true }) alcoholVolume: string | null;
  @Column({ type: 'int', nullable: true }) grams: number | null;
  @Column({ type: 'text', nullable: true }) optionGroup: string | null;
  @Column({ type: 'jsonb' }) description: Translations;
  @Column({ type: 'jsonb' }) descriptionAdditional: Translations;
  @Column({ type: 'text', nullable: true }) area: string | null;
  @Column({ type: 'numeric', precision: 12, scale: 3 }) quantityMin: string;
  @Column({ type: 'numeric', precision: 12, scale: 3, nullable: true }) quantityMax: string | null;
  @Column({ type: 'numeric', precision: 12, scale: 3 }) quantityIncrement: string;
  @Column({ type: 'uuid', array: true }) optionIds: string[];
  @Column({ type: 'boolean' }) trackInventory: boolean;
  @Column({ type: 'boolean' }) allowBackorder: boolean;
  @Column({ type: 'boolean', default: false }) giftCard: boolean;
  /** Set when deleted with order history: kept unpublished for the orders' sake. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) archivedAt: Date | null;
  @Column({ type: 'text', nullable: true, select: false }) importHash: string | null;
}

/** The stock ledger: on-hand of a (variant, location) is the sum of its deltas. */
@Entity('stock_movements')
export class StockMovement {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' }) id: string;
  @Column({ type: 'uuid' }) tenantId: string;
  @Column({ type: 'uuid' }) variantId: string;
  @Column({ type: 'uuid' }) locationId: string;
  @Column({ type: 'numeric', precision: 14, scale: 3 }) delta: string;
  @Column({ type: 'text' }) reason: string;
  @CreateDateColumn({ type: 'timestamptz', precision: 3 }) createdAt: Date;
}

@Entity('payment_types')
export class PaymentType extends TenantEntity {
  @Column({ type: 'text' }) key: string;
  @Column({ type: 'jsonb' }) name: Translations;
  /** `invoice`, `prepayment`, `redirect`, ... */
  @Column({ type: 'text' }) kind: string;
  @Column({ type: 'text', nullable: true }) imageUrl: string | null;
  @Column({ type: 'text', nullable: true, select: false }) importHash: string | null;
}

export const catalogueEntities = [
  Manufacturer,
  Category,
  FacetValue,
  CustomField,
  CustomFieldOption,
  Flag,
  StockLocation,
  Product,
  Variant,
  StockMovement,
  PaymentType,
];
