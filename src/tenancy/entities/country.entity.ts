import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';
import type { Translations } from '../../common/db/base.entity.js';

@Entity('countries')
export class Country extends TenantEntity {
  @Column({ type: 'text' })
  key: string;

  /** ISO 3166-1 alpha-2. */
  @Column({ type: 'text' })
  code: string;

  @Column({ type: 'jsonb' })
  name: Translations;

  /** Whether the shop ships there. */
  @Column({ type: 'boolean', default: true })
  shipping: boolean;
}
