import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';

@Entity('currencies')
export class Currency extends TenantEntity {
  /** Import key, unique per tenant. */
  @Column({ type: 'text' })
  key: string;

  /** ISO 4217, upper case. */
  @Column({ type: 'text' })
  code: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text', nullable: true })
  symbol: string | null;

  /** Units of this currency for one unit of the default currency. */
  @Column({ type: 'numeric', precision: 18, scale: 8 })
  rate: string;

  /** Minor-unit digits (2 for CHF, 0 for JPY). */
  @Column({ type: 'smallint', default: 2 })
  precision: number;

  @Column({ type: 'boolean', default: true })
  published: boolean;

  @Column({ type: 'boolean', default: false })
  isDefault: boolean;
}
