import { Column, Entity } from 'typeorm';
import { ImagedTenantEntity } from '../../common/db/base.entity.js';
import type { Translations } from '../../common/db/base.entity.js';

export type CollectionType = 'manual' | 'smart';

@Entity('collections')
export class Collection extends ImagedTenantEntity {
  /** URL slug, unique per tenant (case-insensitive). */
  @Column({ type: 'text' })
  handle: string;

  @Column({ type: 'jsonb', default: {} })
  title: Translations;

  @Column({ type: 'jsonb', default: {} })
  bodyHtml: Translations;

  @Column({ type: 'text', default: 'manual' })
  collectionType: CollectionType;

  @Column({ type: 'boolean', default: true })
  published: boolean;

  @Column({ type: 'text', nullable: true })
  sortOrder: string | null;

  @Column({ type: 'text', nullable: true })
  templateName: string | null;

  /** Smart-collection rules as JSON text (CONTRACT 6 format); null for manual collections. */
  @Column({ type: 'text', nullable: true })
  rulesJson: string | null;

  @Column({ type: 'text', nullable: true })
  metaTitle: string | null;

  @Column({ type: 'text', nullable: true })
  metaDescription: string | null;
}
