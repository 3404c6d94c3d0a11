import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';
import type { CombinesWith, PromotionAction, PromotionCondition } from '../engine/types.js';

/** A promotion; `conditions` and `actions` in the wire form (decimals of the default currency), checked on write. */
@Entity('promotions')
export class Promotion extends TenantEntity {
  @Column({ type: 'text' })
  name: string;

  /** Import key (unique per shop), set by an import; null for promotions made in the admin API. */
  @Column({ type: 'text', nullable: true })
  key?: string | null;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  startsAt: Date | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  endsAt: Date | null;

  @Column({ type: 'integer', default: 0 })
  priority: number;

  @Column({ type: 'jsonb' })
  combinesWith: CombinesWith;

  @Column({ type: 'integer', nullable: true })
  usageLimit: number | null;

  @Column({ type: 'integer', nullable: true })
  usageLimitPerCustomer: number | null;

  @Column({ type: 'integer', default: 0 })
  timesUsed: number;

  @Column({ type: 'text', nullable: true })
  code: string | null;

  @Column({ type: 'jsonb', default: () => `'[]'` })
  conditions: PromotionCondition[];

  @Column({ type: 'jsonb' })
  actions: PromotionAction[];
}
