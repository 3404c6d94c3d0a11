import { Column, Entity } from 'typeorm';
import { ImagedTenantEntity } from '../../common/db/base.entity.js';
import type { Translations } from '../../common/db/base.entity.js';

/** A blog article (no handle); texts per language in one row. */
@Entity('blog_articles')
export class BlogArticle extends ImagedTenantEntity {
  @Column({ type: 'jsonb', default: {} })
  title: Translations;

  @Column({ type: 'jsonb', default: {} })
  summaryHtml: Translations;

  @Column({ type: 'jsonb', default: {} })
  bodyHtml: Translations;

  @Column({ type: 'boolean', default: true })
  published: boolean;
}
