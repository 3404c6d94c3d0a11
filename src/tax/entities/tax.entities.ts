import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';
import type { ExciseClass } from '../tax-engine.js';

/** A tax category (`wine`, `sparkling`, `food`, ...), optionally of an excise class. */
@Entity('tax_categories')
export class TaxCategory extends TenantEntity {
  @Column({ type: 'text' })
  key: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text', nullable: true })
  exciseClass: ExciseClass | null;
}

/** The rate of a category in a zone over a period, with the excise per hectolitre. */
@Entity('tax_rates')
export class TaxRate extends TenantEntity {
  @Column({ type: 'uuid' })
  categoryId: string;

  @Column({ type: 'uuid' })
  zoneId: string;

  /** Decimal strings. */
  @Column({ type: 'numeric', precision: 6, scale: 3 })
  rate: string;

  @Column({ type: 'numeric', precision: 14, scale: 4, default: 0 })
  excisePerHl: string;

  /** `YYYY-MM-DD`. */
  @Column({ type: 'date', nullable: true })
  validFrom: string | null;

  @Column({ type: 'date', nullable: true })
  validTo: string | null;
}
