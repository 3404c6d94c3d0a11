import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';

export const THEME_ROLES = ['main', 'unpublished'] as const;
export type ThemeRole = (typeof THEME_ROLES)[number];

@Entity('themes')
export class Theme extends TenantEntity {
  @Column({ type: 'text', nullable: true })
  name: string | null;

  /** `main` (the one active theme of the shop) or `unpublished`. */
  @Column({ type: 'text' })
  role: ThemeRole;

  /** The library theme it was copied from; null for custom themes. */
  @Column({ type: 'text', nullable: true })
  themeKey: string | null;
}
