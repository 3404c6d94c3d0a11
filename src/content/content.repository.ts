import { Injectable } from '@nestjs/common';
import { DataSource, type DeepPartial } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { getOrThrow, repoOf } from '../common/db/tenant-scope.js';
import type { Page } from '../common/paging/page.js';
import { Pager, type PageRequest } from '../common/paging/pager.service.js';
import { BlogArticle } from './entities/blog-article.entity.js';
import { ContentPage } from './entities/content-page.entity.js';

/**
 * The content module owns `content_pages` and `blog_articles`; every statement of `ContentService` is here, in the
 * context's transaction when one is open.
 */
@Injectable()
export class ContentRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pager: Pager,
  ) {}

  /** A page of the shop's content pages, oldest first. */
  pages(ctx: RequestContext, page: PageRequest): Promise<Page<ContentPage>> {
    const qb = repoOf(ctx, this.dataSource, ContentPage).createQueryBuilder('p').where('p.tenant_id = :tenant', { tenant: ctx.tenantId });
    return this.pager.paginateByCreated(qb, page, 'ASC');
  }

  /** A page of the shop's blog articles, oldest first. */
  articles(ctx: RequestContext, page: PageRequest): Promise<Page<BlogArticle>> {
    const qb = repoOf(ctx, this.dataSource, BlogArticle).createQueryBuilder('a').where('a.tenant_id = :tenant', { tenant: ctx.tenantId });
    return this.pager.paginateByCreated(qb, page, 'ASC');
  }

  /** The shop's content page `id`, or 404 `page`. */
  pageOrThrow(ctx: RequestContext, id: string): Promise<ContentPage> {
    return getOrThrow(ctx, this.dataSource, ContentPage, id, 'page');
  }

  /** The shop's article `id`, or 404 `article`. */
  articleOrThrow(ctx: RequestContext, id: string): Promise<BlogArticle> {
    return getOrThrow(ctx, this.dataSource, BlogArticle, id, 'article');
  }

  /** True when a page of the shop has this handle (compared without case). */
  pageHandleTaken(ctx: RequestContext, handle: string): Promise<boolean> {
    return repoOf(ctx, this.dataSource, ContentPage)
      .createQueryBuilder('p')
      .where('p.tenant_id = :tenant AND lower(p.handle) = lower(:handle)', { tenant: ctx.tenantId, handle })
      .getExists();
  }

  buildPage(ctx: RequestContext, fields: DeepPartial<ContentPage>): ContentPage {
    return repoOf(ctx, this.dataSource, ContentPage).create(fields);
  }

  buildArticle(ctx: RequestContext, fields: DeepPartial<BlogArticle>): BlogArticle {
    return repoOf(ctx, this.dataSource, BlogArticle).create(fields);
  }

  /** Inserts or updates the page; a taken handle fails with a unique violation. */
  savePage(ctx: RequestContext, p: ContentPage): Promise<ContentPage> {
    return repoOf(ctx, this.dataSource, ContentPage).save(p);
  }

  saveArticle(ctx: RequestContext, a: BlogArticle): Promise<BlogArticle> {
    return repoOf(ctx, this.dataSource, BlogArticle).save(a);
  }

  /** Deletes the shop's page or article `id`; false when there is none. */
  async delete(ctx: RequestContext, entity: typeof ContentPage | typeof BlogArticle, id: string): Promise<boolean> {
    const res = await repoOf<ContentPage | BlogArticle>(ctx, this.dataSource, entity)
      .createQueryBuilder()
      .delete()
      .where('id = :id AND tenant_id = :tenant', { id, tenant: ctx.tenantId })
      .execute();
    return Boolean(res.affected);
  }
}
