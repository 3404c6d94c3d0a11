import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';
import type { ZonePostcode } from '../zone-matcher.js';

/** A zone of the shop (taxes and shipping): countries, regions and postcode patterns (src/tax/zone-matcher.ts). */
@Entity('tax_zones')
export class TaxZone extends TenantEntity {
  /** Import key, unique per shop; null for a zone made through the admin API without one. */
  @Column({ type: 'text', nullable: true })
  key: string | null;

  @Column({ type: 'text' })
  name: string;

  /** ISO 3166-1 alpha-2, upper case. */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  countries: string[];

  /** ISO 3166-2 (`ES-CN`), upper case. */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  regions: string[];

  @Column({ type: 'jsonb', default: () => "'[]'" })
  postcodes: ZonePostcode[];

  /** ISO 4217 code of the currency the zone's excise amounts are in; null: the shop's default currency. */
  @Column({ type: 'text', nullable: true })
  exciseCurrency: string | null;

  /** Whether the zone's VAT is charged on the excise too (the duty inside the VAT base). */
  @Column({ type: 'boolean', default: false })
  exciseInVatBase: boolean;
}
