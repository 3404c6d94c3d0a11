import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';
import type { Translations } from '../../common/db/base.entity.js';

export type PageType = 'common' | 'liquid';

/** A content page; its texts are kept per language in one row, so deleting the row deletes every language. */
@Entity('content_pages')
export class ContentPage extends TenantEntity {
  /** URL slug, unique per tenant (case-insensitive). */
  @Column({ type: 'text' })
  handle: string;

  @Column({ type: 'jsonb', default: {} })
  title: Translations;

  @Column({ type: 'jsonb', default: {} })
  bodyHtml: Translations;

  @Column({ type: 'jsonb', default: {} })
  metaDescription: Translations;

  @Column({ type: 'jsonb', default: {} })
  metaKeywords: Translations;

  @Column({ type: 'jsonb', default: {} })
  menuTitle: Translations;

  @Column({ type: 'boolean', default: true })
  published: boolean;

  @Column({ type: 'text', nullable: true })
  template: string | null;

  @Column({ type: 'text', default: 'common' })
  type: PageType;

  @Column({ type: 'boolean', default: false })
  showInHeader: boolean;

  @Column({ type: 'boolean', default: false })
  showInFooter: boolean;

  @Column({ type: 'integer', default: 0 })
  sortOrder: number;
}
